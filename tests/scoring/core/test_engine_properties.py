"""Properties over generated deals: zero sum, sign of the result, monotony, refusals by field."""

import math
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.core.deal import CHELEM_POINTS, CONTRACTS, SIDES, Deal, DealError
from scoring.core.engine import score_deal
from scoring.core.rules import FFT, RULE_SETS
from scoring.core.sheet import DealRow, PassedRow, SheetColumn, build_sheet

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def oudler_bounds(oudlers: int) -> tuple[int, int]:
    return 4 * oudlers, 91 - 4 * (3 - oudlers)


@st.composite
def valid_deals(draw, players: int | None = None) -> Deal:
    players = players or draw(st.sampled_from([3, 4, 5]))
    mode = draw(st.sampled_from(["partner", "alone", "dead"])) if players == 5 else "alone"
    seats = draw(st.permutations(range(players)))
    taker = seats[0]
    partner = seats[1] if mode == "partner" else None
    dead = seats[1] if mode == "dead" else None
    playing = players - (dead is not None)
    contract = draw(st.sampled_from(CONTRACTS))
    chelem = draw(st.sampled_from([None, None, None, "attack", "defense"]))
    if chelem == "attack" and contract != "garde_contre":
        points, oudlers = draw(st.sampled_from(CHELEM_POINTS))
    else:
        oudlers = draw(st.integers(0, 3))
        low, high = oudler_bounds(oudlers)
        if playing == 4:
            points = draw(st.integers(low, high))
        else:
            halves = draw(st.integers(2 * low, 2 * high))
            points = halves // 2 if halves % 2 == 0 else halves / 2
    petit_sides = [None, "attack", "defense"] if chelem is None else [None, chelem]
    petit = draw(st.sampled_from(petit_sides))
    poignees = draw_poignees(draw, [s for s in range(players) if s != dead], playing)
    return Deal(
        players=players,
        taker=taker,
        partner=partner,
        dead=dead,
        contract=contract,
        oudlers=oudlers,
        points=points,
        poignees=poignees,
        petit_au_bout=petit,
        chelem_announced=draw(st.booleans()),
        chelem=chelem,
    )


def draw_poignees(draw, seats: list[int], playing: int) -> list[list]:
    thresholds = FFT.poignee_thresholds[playing]
    shown = draw(st.lists(st.sampled_from(seats), unique=True, max_size=3))
    poignees, trumps = [], 0
    for seat in shown:
        size = draw(st.sampled_from(["simple", "double", "triple"]))
        if trumps + thresholds[size] <= 22:  # keep only what the 22 trumps allow
            poignees.append([seat, size])
            trumps += thresholds[size]
    return poignees


def without_bonuses(deal: Deal) -> Deal:
    return replace(deal, poignees=(), petit_au_bout=None, chelem_announced=False, chelem=None)


rule_sets = st.sampled_from(list(RULE_SETS.values()))


@SETTINGS
@given(valid_deals(), rule_sets)
def test_every_valid_deal_sums_to_zero(deal, rules):
    scores = score_deal(deal, rules).scores
    assert len(scores) == deal.players
    assert sum(scores) == 0
    assert all(isinstance(score, int) for score in scores)


@SETTINGS
@given(valid_deals())
def test_split_matches_the_table(deal):
    result = score_deal(deal)
    value, scores = result.value, result.scores
    defenders = [s for s in range(deal.players) if s not in (deal.taker, deal.partner, deal.dead)]
    assert all(scores[s] == -value for s in defenders)
    if deal.dead is not None:
        assert scores[deal.dead] == 0
    if deal.partner is not None:
        assert scores[deal.partner] == value
    assert scores[deal.taker] == value * (len(defenders) - (deal.partner is not None))


@SETTINGS
@given(valid_deals(), rule_sets)
def test_without_bonuses_the_taker_sign_is_the_result(deal, rules):
    deal = without_bonuses(deal)
    result = score_deal(deal, rules)
    assert result.won == (deal.points >= rules.targets[deal.oudlers])
    assert math.copysign(1, result.scores[deal.taker]) == (1 if result.won else -1)


@SETTINGS
@given(valid_deals(), rule_sets)
def test_one_more_point_never_lowers_the_taker_score(deal, rules):
    assume(deal.chelem != "attack")  # an attack chelem fixes the points
    assume(deal.points + 1 <= oudler_bounds(deal.oudlers)[1])
    before = score_deal(deal, rules).scores[deal.taker]
    after = score_deal(replace(deal, points=deal.points + 1), rules).scores[deal.taker]
    assert after >= before


@st.composite
def sheets(draw):
    players = draw(st.sampled_from([3, 4, 5]))
    row = st.one_of(
        valid_deals(players).map(DealRow),
        st.builds(PassedRow, dealer=st.none() | st.integers(0, players - 1)),
    )
    columns = draw(st.permutations(range(players)))
    return [SheetColumn(f"J{seat}", seat) for seat in columns], draw(st.lists(row, max_size=8))


@settings(max_examples=60, deadline=None)
@given(sheets(), rule_sets)
def test_every_sheet_sums_to_zero_and_bilans_are_the_rows(sheet_input, rules):
    columns, rows = sheet_input
    sheet = build_sheet(columns, rows, rules)
    for line in sheet.lines:
        assert sum(cell.score for cell in line.cells) == 0
    assert sum(sheet.bilans) == 0
    for i in range(len(columns)):
        assert sheet.bilans[i] == sum(line.cells[i].score for line in sheet.lines)
        assert sheet.bilans[i] == sheet.plus_totals[i] - sheet.minus_totals[i]
    assert sheet.lines == () or sheet.lines[-1].running == sheet.bilans


# --- invalid inputs: one field of a valid deal turned into an impossible value ---------------


def invalid_values(field: str, deal: Deal) -> list:
    n = deal.players
    seats_wrong = [-1, n, "1", True, None if field == "taker" else 2.0]
    if field == "players":
        return [2, 6, 0, "4", True, None, 4.5]
    if field == "taker":
        return seats_wrong
    if field == "partner":
        others = [s for s in range(n) if s not in (deal.dead,)]
        return seats_wrong[:4] + [deal.taker] + (others if n != 5 or deal.dead is not None else [])
    if field == "dead":
        values = seats_wrong[:4] + [deal.taker]
        if n != 5:
            values += [s for s in range(n) if s != deal.taker]
        elif deal.partner is not None:
            values.append(deal.partner)
        return values
    if field == "contract":
        return ["petite", "", None, 3, "GARDE"]
    if field == "oudlers":
        return [-1, 4, "2", True, None, 1.5]
    if field == "points":
        return points_invalid(deal)
    if field == "poignees":
        return poignees_invalid(deal)
    if field == "petit_au_bout":
        other = {"attack": "defense", "defense": "attack"}.get(deal.chelem)
        return ["both", "", True, 1] + ([other] if other else [])
    if field == "chelem_announced":
        return ["yes", 1, None, 0]
    assert field == "chelem"
    values = ["both", True, "Attack", 0]
    if (
        deal.contract != "garde_contre"
        and (deal.points, deal.oudlers) not in CHELEM_POINTS
        and deal.petit_au_bout != "defense"
    ):
        values.append("attack")
    return values


def points_invalid(deal: Deal) -> list:
    low, high = oudler_bounds(deal.oudlers)
    halves = deal.players - (deal.dead is not None) != 4
    values = [-1, 92, 91.5, "abc", None, True, 40.25, float("nan"), float("inf")]
    if not halves:
        values.append(40.5)
    if low > 0:
        values.append(low - 0.5 if halves else low - 1)
    if high < 91:
        values.append(high + 1)
    return values


def poignees_invalid(deal: Deal) -> list:
    playing = [s for s in range(deal.players) if s != deal.dead]
    a, b = playing[0], playing[1]
    values = [
        "simple",
        None,
        [[deal.players, "simple"]],
        [[a, "quadruple"]],
        [[a]],
        [[a, "simple"], [a, "simple"]],
        [[a, "triple"], [b, "triple"]],  # more than 22 trumps at any table
    ]
    if deal.dead is not None:
        values.append([[deal.dead, "simple"]])
    return values


FIELDS = [
    "players",
    "taker",
    "partner",
    "dead",
    "contract",
    "oudlers",
    "points",
    "poignees",
    "petit_au_bout",
    "chelem_announced",
    "chelem",
]


@st.composite
def mutated_deals(draw) -> tuple[str, Deal]:
    deal = draw(valid_deals())
    field = draw(st.sampled_from(FIELDS))
    value = draw(st.sampled_from(invalid_values(field, deal)))
    return field, replace(deal, **{field: value})


@settings(max_examples=300, deadline=None)
@given(mutated_deals(), rule_sets)
def test_an_invalid_field_is_refused_by_name(mutation, rules):
    field, deal = mutation
    # The booklet's chelem ("all tricks but one") leaves points and the petit open, so a side
    # value that FFT refuses against a chelem is legitimate there.
    booklet_side = field in ("chelem", "petit_au_bout") and getattr(deal, field) in SIDES
    assume(not (rules.chelem_is_every_trick is False and booklet_side))
    try:
        score_deal(deal, rules)
    except DealError as err:
        assert err.field == field, (err.field, str(err))
    else:
        raise AssertionError(f"{field}={getattr(deal, field)!r} was accepted: {deal}")
