"""The desk's keyboard notation read and written without Django: every documented key, every
refusal, and parse(format(fields)) == fields for any deal the notation can express."""

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.core.notation.keys import FieldError, NotationError, Row, SeatInfo
from scoring.core.notation.reading import parse, parse_figure
from scoring.core.notation.writing import format
from tests.examples_004 import TYPED, engine_deals

FOUR = SeatInfo(
    players=4,
    directions=("N", "E", "S", "W"),
    labels=("N", "E", "S", "O"),
    called_king=False,
    dead_is_dealer=False,
    order=(0, 2, 1, 3),
)
THREE = SeatInfo(3, ("N", "E", "S"), ("N", "E", "S"), False, False, (0, 2, 1))
FIVE_KING = SeatInfo(5, ("N", "E", "S", "W", "X"), ("N", "E", "S", "O", "5"), True, False)
FIVE_DEAD = SeatInfo(5, ("N", "E", "S", "W", "X"), ("N", "E", "S", "O", "5"), False, True)
N, E, S, W, X = range(5)


def row(**typed):
    """A 4-player row: Est takes a garde with 2 bouts and 49 points, unless told otherwise."""
    return Row(**{"dealer": 0, "taker": "E", "contract": "G", "oudlers": "2", "points": "49",
                  **typed})  # fmt: skip


def read(seats=FOUR, **typed):
    return parse(row(**typed), seats)


def refusals(seats=FOUR, figures=False, barred=None, **typed):
    with pytest.raises(NotationError) as caught:
        parse(row(**typed), seats, figures=figures, barred=barred)
    return [(e.field, e.message()) for e in caught.value.errors]


# --- what the desk's help documents ---------------------------------------------------------


def test_a_full_row_gives_every_engine_field():
    assert read(poignees="E1", petit_au_bout="A", chelem="AR", arbiter_called=True) == {
        "players": 4,
        "dealer": 0,
        "arbiter_called": True,
        "passed": False,
        "cancelled": False,
        "dead": None,
        "taker": E,
        "contract": "garde",
        "partner": None,
        "alone": "",
        "oudlers": 2,
        "points": 49,
        "poignees": [[E, "simple"]],
        "petit_au_bout": "attack",
        "chelem": "attack",
        "chelem_announced": True,
    }


@pytest.mark.parametrize(
    ("key", "seat"),
    [("N", N), ("n", N), ("E", E), ("S", S), ("O", W), ("W", W), (" o ", W)],
)
def test_seats_are_typed_by_their_french_initial_w_accepted_for_ouest(key, seat):
    assert read(taker=key)["taker"] == seat


@pytest.mark.parametrize("key", ["5", "X", "x"])
def test_the_fifth_seat_is_5_or_x(key):
    assert read(FIVE_DEAD, taker=key)["taker"] == X


@pytest.mark.parametrize("key", ["T", "t", "TP", "tous passent", "Tous-passent"])
def test_t_in_taker_is_tous_passent_and_needs_nothing_else(key):
    assert parse(Row(dealer=2, taker=key, contract="??"), FOUR) == {
        "players": 4,
        "dealer": 2,
        "arbiter_called": False,
        "passed": True,
        "cancelled": False,
        "dead": None,
    }


def test_the_hidden_passed_flag_is_tous_passent_too():
    assert parse(Row(dealer=1, passed=True), FOUR)["passed"] is True


@pytest.mark.parametrize("key", ["A", "a", "annulée", "ANNULEE"])
def test_a_in_taker_is_a_cancelled_deal(key):
    deal = parse(Row(dealer=0, taker=key), FOUR)
    assert (deal["passed"], deal["cancelled"]) == (False, True)
    assert "taker" not in deal


@pytest.mark.parametrize(
    ("key", "contract"),
    [
        ("P", "prise"),
        ("prise", "prise"),
        ("G", "garde"),
        ("GS", "garde_sans"),
        ("g s", "garde_sans"),
        ("garde sans", "garde_sans"),
        ("G.S.", "garde_sans"),
        ("GC", "garde_contre"),
        ("garde-contre", "garde_contre"),
    ],
)
def test_contracts_are_p_g_gs_gc_or_their_names(key, contract):
    assert read(contract=key)["contract"] == contract


@pytest.mark.parametrize(
    ("typed", "points"),
    [
        ("49", 49),
        ("a51", 51),
        ("att51", 51),
        ("d40", 51),
        ("D36", 55),
        ("déf 36", 55),
        ("def36", 55),
        ("40,5", 40.5),
        ("45.5", 45.5),
        ("d 40,5", 50.5),
        ("0", 0),
        ("91", 91),
        ("d91", 0),
    ],
)
def test_points_are_the_attacks_unless_d_says_defence(typed, points):
    assert read(FIVE_DEAD, points=typed)["points"] == points


def test_a_bare_number_is_the_defences_when_the_side_says_so():
    assert read(points="36", side="defense")["points"] == 55
    assert read(points="a36", side="defense")["points"] == 36


@pytest.mark.parametrize(
    ("typed", "poignees"),
    [
        ("E1", [[E, "simple"]]),
        ("N2", [[N, "double"]]),
        ("S3", [[S, "triple"]]),
        ("e", [[E, "simple"]]),
        ("ES ND OT", [[E, "simple"], [N, "double"], [W, "triple"]]),
        ("O1, N2; S3+E1", [[W, "simple"], [N, "double"], [S, "triple"], [E, "simple"]]),
        ("", []),
    ],
)
def test_poignees_are_a_seat_then_1_2_or_3(typed, poignees):
    assert read(poignees=typed)["poignees"] == poignees


@pytest.mark.parametrize(
    ("typed", "side"),
    [("A", "attack"), ("attaque", "attack"), ("D", "defense"), ("défense", "defense"), ("", None)],
)
def test_petit_au_bout_is_a_or_d(typed, side):
    assert read(petit_au_bout=typed)["petit_au_bout"] == side


@pytest.mark.parametrize(
    ("typed", "chelem", "announced"),
    [
        ("R", "attack", False),
        ("AR", "attack", True),
        ("AC", None, True),
        ("D", "defense", False),
        ("AD", "defense", True),
        ("", None, False),
    ],
)
def test_chelem_keys(typed, chelem, announced):
    deal = read(chelem=typed)
    assert (deal["chelem"], deal["chelem_announced"]) == (chelem, announced)


@pytest.mark.parametrize(
    ("typed", "partner", "alone"),
    [
        ("S", S, ""),
        ("5", X, ""),
        ("C", None, "dog"),
        ("roi au chien", None, "dog"),
        ("E", None, "self"),  # the taker's own letter: called themself
        ("soi", None, "self"),
        ("SEUL", None, ""),  # alone, reason unknown
    ],
)
def test_the_called_king_at_five(typed, partner, alone):
    deal = read(FIVE_KING, partner=typed)
    assert (deal["partner"], deal["alone"]) == (partner, alone)


def test_no_partner_is_read_at_four_or_with_a_mort():
    assert read(partner="S")["partner"] is None
    deal = read(FIVE_DEAD, partner="S", dealer=3)
    assert (deal["partner"], deal["alone"], deal["dead"]) == (None, "", 3)


def test_three_players_have_no_ouest():
    assert refusals(THREE, taker="O") == [("taker", "O n'est pas une place de la table (N, S, E).")]


@pytest.mark.parametrize(
    ("typed", "figure"), [("318", 318), ("-126", -126), ("\N{MINUS SIGN}126", -126), ("+ 90", 90)]
)
def test_by_figures_the_takers_figure_stands_for_the_card_fields(typed, figure):
    deal = parse(Row(dealer=0, taker="E", contract="G", figure=typed), FOUR, figures=True)
    assert deal["figure"] == figure
    assert not {"oudlers", "points", "poignees", "petit_au_bout", "chelem"} & deal.keys()
    assert parse_figure(typed) == figure


# --- refusals: a French message naming the field, every field at once -----------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ({"taker": ""}, [("taker", "Indiquez le preneur (N, S, E, O), ou T si tous passent.")]),
        ({"taker": "Z"}, [("taker", "Z n'est pas une place de la table (N, S, E, O).")]),
        ({"contract": ""}, [("contract", "Indiquez le contrat : P, G, GS ou GC.")]),
        ({"contract": "Z"}, [("contract", "Z n'est pas un contrat (P, G, GS ou GC).")]),
        ({"oudlers": ""}, [("oudlers", "Indiquez le nombre de bouts (0 à 3).")]),
        ({"oudlers": "deux"}, [("oudlers", "deux n'est pas un nombre de bouts.")]),
        ({"oudlers": "12345"}, [("oudlers", "12345 n'est pas un nombre de bouts.")]),
        ({"points": ""}, [("points", "Indiquez les points (d40 pour « défense 40 »).")]),
        ({"points": "1e9"}, [("points", "1e9 n'est pas un nombre de points.")]),
        ({"points": "92"}, [("points", "92 n'est pas entre 0 et 91.")]),
        (
            {"poignees": "X9 E1"},
            [("poignees", "X9 : une place suivie de 1, 2 ou 3 (E1 = Est simple).")],
        ),
        ({"petit_au_bout": "?"}, [("petit_au_bout", "? : A (attaque) ou D (défense).")]),
        ({"chelem": "ZZ"}, [("chelem", "ZZ : R, AR, AC, D ou AD.")]),
    ],
)
def test_each_unreadable_field_is_named_with_a_french_message(typed, expected):
    assert refusals(**typed) == expected


def test_every_unreadable_field_is_listed_in_typing_order():
    assert [field for field, _ in refusals(contract="Z", oudlers="x", points="", chelem="?")] == [
        "contract",
        "oudlers",
        "points",
        "chelem",
    ]


def test_at_five_the_called_king_must_be_said():
    assert refusals(FIVE_KING) == [
        (
            "partner",
            "Indiquez qui avait le roi appelé : une place, C s'il était au chien, "
            "ou la lettre du preneur s'il s'est appelé (seul).",
        )
    ]
    assert refusals(FIVE_KING, partner="Z") == [
        ("partner", "Z n'est pas une place de la table (N, E, S, O, 5).")
    ]


def test_a_barred_taker_is_refused_with_the_reason_given():
    reason = "DUBOIS ne peut pas enchérir sur cette donne (fausse donne)."
    assert refusals(barred={E: reason}) == [("taker", reason)]
    assert read(taker="N", contract="P")["taker"] == N  # the others may take


def test_by_figures_the_figure_is_required_and_whole():
    assert refusals(figures=True, figure="") == [
        ("figure", "Indiquez le chiffre du preneur, tel qu'écrit sur la feuille (318, -126).")
    ]
    assert refusals(figures=True, figure="31,5") == [
        ("figure", "Chiffre du preneur : 31,5 n'est pas un nombre entier.")
    ]
    # No taker typed: its message alone.
    assert [f for f, _ in refusals(figures=True, taker="", figure="")] == ["taker"]


def test_messages_are_templates_the_django_layer_translates():
    with pytest.raises(NotationError) as caught:
        parse(row(contract="Z"), FOUR)
    (error,) = caught.value.errors
    assert error == FieldError("contract", "%(value)s n'est pas un contrat (P, G, GS ou GC).",
                               {"value": "Z"})  # fmt: skip
    english = {error.template: "%(value)s is not a contract (P, G, GS or GC)."}
    assert error.message(english.get) == "Z is not a contract (P, G, GS or GC)."
    copy = pickle.loads(pickle.dumps(caught.value))
    assert copy.errors == caught.value.errors


def test_the_ffts_example_004_reads_as_its_sheet():
    deals = [parse(Row(dealer=0, **fields), FOUR) for fields in TYPED]
    # The engine's fields of each deal, seats N, E, S, W as FOUR numbers them.
    for read, expected in zip(deals, engine_deals("NESW"), strict=True):
        assert {key: read[key] for key in expected} == expected, expected
    assert deals[4]["chelem"] == "attack" and deals[4]["chelem_announced"] is True


# --- properties -----------------------------------------------------------------------------

SEATINGS = st.sampled_from([FOUR, THREE, FIVE_KING, FIVE_DEAD])
SIDES = st.sampled_from([None, "attack", "defense"])
CHELEMS = st.sampled_from([(None, False), ("attack", False), ("attack", True), (None, True),
                           ("defense", False), ("defense", True)])  # fmt: skip
POINTS = st.one_of(st.integers(0, 91), st.integers(0, 181).map(lambda half: half / 2))


@st.composite
def deal_fields(draw, seats):
    """Deal fields the notation can express on these seats (engine validity aside)."""
    seat = st.integers(0, seats.players - 1)
    dealer = draw(seat)
    fields = {
        "players": seats.players,
        "dealer": dealer,
        "arbiter_called": draw(st.booleans()),
        "passed": False,
        "cancelled": False,
        "dead": dealer if seats.dead_is_dealer else None,
    }
    kind = draw(st.sampled_from(["played", "played", "played", "passed", "cancelled"]))
    if kind != "played":
        return {**fields, kind: True}
    taker = draw(seat)
    partner, alone = None, ""
    if seats.called_king:
        others = [s for s in range(seats.players) if s != taker]
        partner = draw(st.one_of(st.none(), st.sampled_from(others)))
        alone = "" if partner is not None else draw(st.sampled_from(["", "dog", "self"]))
    chelem, announced = draw(CHELEMS)
    return {
        **fields,
        "taker": taker,
        "contract": draw(st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"])),
        "partner": partner,
        "alone": alone,
        "oudlers": draw(st.integers(0, 3)),
        "points": draw(POINTS),
        "poignees": draw(
            st.lists(
                st.tuples(seat, st.sampled_from(["simple", "double", "triple"])), max_size=3
            ).map(lambda pairs: [list(pair) for pair in pairs])
        ),
        "petit_au_bout": draw(SIDES),
        "chelem": chelem,
        "chelem_announced": announced,
    }


@settings(max_examples=400)
@given(data=st.data(), seats=SEATINGS)
def test_reading_back_what_was_written_gives_the_same_deal(data, seats):
    fields = data.draw(deal_fields(seats))
    assert parse(format(fields, seats), seats) == fields


@settings(max_examples=200)
@given(data=st.data(), seats=SEATINGS, figure=st.integers(-999999, 999999))
def test_by_figures_reading_back_gives_the_same_deal(data, seats, figure):
    fields = data.draw(deal_fields(seats))
    if not (fields["passed"] or fields["cancelled"]):
        for name in ("oudlers", "points", "poignees", "petit_au_bout", "chelem",
                     "chelem_announced"):  # fmt: skip
            del fields[name]
        fields["figure"] = figure
    assert parse(format(fields, seats), seats, figures=True) == fields


TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["N", "E", "S", "O", "5", "T", "A", "C", "SEUL", "d40", "E1", "AR", "G", ""]),
    st.text(alphabet="0123456789dDaA,.- ", max_size=8),
    st.just("9" * 5000),
)


@settings(max_examples=500)
@given(
    seats=SEATINGS,
    figures=st.booleans(),
    passed=st.booleans(),
    dealer=st.one_of(st.none(), st.integers(0, 4)),
    texts=st.fixed_dictionaries(
        {
            name: TEXT
            for name in (
                "taker",
                "contract",
                "partner",
                "oudlers",
                "points",
                "side",
                "poignees",
                "petit_au_bout",
                "chelem",
                "figure",
            )
        }  # fmt: skip
    ),
)
def test_any_text_is_read_or_refused_with_the_notations_error_only(
    seats, figures, passed, dealer, texts
):
    try:
        deal = parse(Row(dealer=dealer, passed=passed, **texts), seats, figures=figures)
    except NotationError as error:
        assert error.errors
        assert all(e.field in texts and e.message() for e in error.errors)
    else:
        assert deal["players"] == seats.players
