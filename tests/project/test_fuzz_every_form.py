"""Fuzzing every form view and the JSON API: never a 500, never a change to another tournament.

Tournament X is owned by one arbiter, tournament Y by another; both have players, a published
position, a sheet with a deal, an incident, a co-arbiter and a scorer. Hypothesis posts
generated form data (keys from every form of the site, hostile values: huge numbers, NaN, NUL,
very long strings, spreadsheet formulas, the ids, usernames and secrets of Y, uploads, backups
of X and Y with a hostile value spliced in) and generated JSON bodies to every URL pattern:

- as the owner of X, aimed at X's objects: always an answer below 500, and Y never changes;
- on the deal API, as the owner of X: a 201 is a zero-sum deal on a sheet that grew by one;
- as the owner of Y, aimed at X's pages: every POST refused, and X never changes.

The world is built once per module, in a transaction rolled back at its end; each test starts
from it (its own transaction, rolled back after it, and its own copy of the ids). X's state
accumulates across the examples of one test, which is harmless since only Y (in the last test,
X) must stay put. Each example runs in a savepoint, so that a database error fails that example
only.
Run it on PostgreSQL too (DATABASE_URL): it refuses NUL characters in text and JSON.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import operator
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from django import forms
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import F, ForeignKey, Q
from django.urls import get_resolver, reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring.core.deal import DealError
from scoring.late import LateDeal, PhoneQueue
from scoring.models import Championship, Deal, Incident, LiveArtifact, ScoreSheet
from scoring.sheets.services import ENGINE_FIELDS, ENTRY_FIELDS, deal_record
from scoring.uploads import ComiteServer, UploadKey
from tests.club_helpers import join_club
from tests.row_snapshot import RowSnapshot
from tests.tournament.access.test_roles_every_url import (
    URL_NAMES,
    tournament_with_a_sheet,
    url_for,
    walk,
)
from tournament.access import lifecycle
from tournament.access.lifecycle import Locked
from tournament.access.roles import ARBITER
from tournament.models import (
    Club,
    ClubInvitation,
    ClubMember,
    Event,
    LicenceCheck,
    LicenceConflict,
    Player,
    Position,
    Registration,
    Tournament,
    TournamentRole,
)

pytestmark = pytest.mark.django_db

SKIPPED = {"login", "logout", "set_language"}  # walk() leaves the admin out
# Pages that only read (PDFs, spreadsheets, backups): slow to build, a few examples only.
READ_ONLY_PREFIXES = ("print-", "export-", "tournament-backup", "public-", "ranking", "api-sheet")
FORM_EXAMPLES = 6
READ_ONLY_EXAMPLES = 1
API_EXAMPLES = 150
INTRUDER_EXAMPLES = 5

FUZZ = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

# --- the world: X (ours) and Y (the other arbiter's) -----------------------------------------


def account(django_user_model, name: str, *, arbiter: bool = False):
    user = django_user_model.objects.create(username=name)  # force_login needs no password
    if arbiter:
        user.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
        join_club(user, f"Club {name}", role="admin")  # X's and Y's clubs differ
    return user


def table_token(ids: dict) -> tuple[str, str]:
    """The secret link and code of the sheet's table, where the site has table links."""
    try:
        from scoring.sheets.table_entry import links_for_position
    except ImportError:
        return "sans-lien", "SANSCODE"
    if hasattr(Tournament, "EntryMode"):  # the players' phones may enter deals
        Tournament.objects.filter(pk=ids["tournament"]).update(entry_mode="both")
    link = links_for_position(Position.objects.get(tables__pk=ids["table"]))[0]
    return link.token, link.code


def build_world(django_user_model) -> dict:
    """X owned by `owner_x` (with `co_x` and `scorer_x`), Y likewise by `owner_y`."""
    from scoring.documents.backup import tournament_export_json

    users = {
        name: account(django_user_model, name, arbiter=name.startswith("owner"))
        for name in ("owner_x", "owner_y", "co_x", "co_y", "scorer_x", "scorer_y")
    }
    world = {"users": users}
    for side, name in (("x", "Open"), ("y", "Voisin")):
        ids = tournament_with_a_sheet(name, users[f"owner_{side}"])
        TournamentRole.objects.create(
            tournament_id=ids["tournament"], user=users[f"co_{side}"], role="arbiter"
        )
        role = TournamentRole.objects.create(
            tournament_id=ids["tournament"], user=users[f"scorer_{side}"], role="scorer"
        )
        registration = Registration.objects.get(pk=ids["registration"])
        ids.update(
            role=role.pk,
            player=registration.player_id,
            pin=getattr(registration, "pin", "0000"),
            backup=tournament_export_json(Tournament.objects.get(pk=ids["tournament"])),
        )
        ids["token"], ids["code"] = table_token(ids)
        world[side] = ids
    # A licence conflict of X's club with a third club's entry (its pages and resolution).
    third = Club.objects.create(name="Club tiers")
    x_club = Tournament.objects.get(pk=world["x"]["tournament"]).host_club
    conflict = LicenceConflict.objects.create(
        licence="0412345",
        existing=Player.objects.create(last_name="Tenu", licence="0412345", origin_club=third),
        newcomer=Player.objects.create(last_name="Vrai", licence="0412345", origin_club=x_club),
        existing_club=third,
        newcomer_club=x_club,
    )
    world["x"]["conflict"] = conflict.pk
    return world


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker):
    """build_world once for the module's ~100 tests, rolled back after the last one."""
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world(get_user_model())
        transaction.set_rollback(True)


@pytest.fixture
def world(db, module_world) -> dict:
    """The module's world as each test starts from it: the test's writes are rolled back after
    it (a savepoint inside the module's transaction) and the ids it moves are its own copy."""
    return copy.deepcopy(module_world)


def _paths_to_tournament(model, depth: int = 4, seen=()) -> list[str]:
    """The chains of foreign keys from `model` to Tournament ("table__position__tournament")."""
    if model is Tournament:
        return ["pk"]
    paths = []
    for field in model._meta.concrete_fields:
        target = field.related_model if isinstance(field, ForeignKey) else None
        if target is None or target in seen or depth == 0:
            continue
        if target is Tournament:
            paths.append(field.name)
        else:
            sub = _paths_to_tournament(target, depth - 1, (*seen, model))
            paths += [f"{field.name}__{path}" for path in sub]
    return paths


def _rows_querysets(tournament: int) -> list:
    """Every row of both apps that belongs to one tournament, one queryset per model."""
    querysets = []
    for model in (
        *apps.get_app_config("tournament").get_models(),
        *apps.get_app_config("scoring").get_models(),
    ):
        if model is LiveArtifact:  # derived from the rest, recomputed when read
            continue
        if model is Player:  # the shared roster: the players registered in this tournament
            rows = Player.objects.filter(registrations__tournament=tournament)
        elif model is Championship:  # a season: the championships holding this tournament
            rows = Championship.objects.filter(tournaments=tournament)
        elif model is Event:  # a big event: the event this tournament is a bracket of
            rows = Event.objects.filter(brackets=tournament)
        elif model is Club:  # the club hosting this tournament, and its members
            rows = Club.objects.filter(tournaments=tournament)
        elif model is ClubMember:
            rows = ClubMember.objects.filter(club__tournaments=tournament)
        elif model is ClubInvitation:  # the invitations into the club hosting it
            rows = ClubInvitation.objects.filter(club__tournaments=tournament)
        elif model is LicenceCheck:  # the licence checks queued for this tournament's players
            rows = LicenceCheck.objects.filter(newcomer__registrations__tournament=tournament)
        elif model is UploadKey:  # the upload keys of the club hosting it (issue 40)
            rows = UploadKey.objects.filter(club__tournaments=tournament)
        elif model is ComiteServer:  # the laptop's comité settings: no tournament's
            rows = ComiteServer.objects.none()
        elif model is LicenceConflict:  # the conflicts of this tournament's players
            rows = LicenceConflict.objects.filter(
                Q(existing__registrations__tournament=tournament)
                | Q(newcomer__registrations__tournament=tournament)
            )
        else:
            paths = _paths_to_tournament(model)
            assert paths, f"{model.__name__}: no foreign key leads to its tournament"
            condition = Q()
            for path in paths:
                condition |= Q(**{path: tournament})
            rows = model.objects.filter(condition)
        querysets.append(rows)
    return querysets


_SNAPSHOTS: dict[int, RowSnapshot] = {}


def rows_of(tournament: int) -> list:
    """Every row of both apps that belongs to one tournament, each column of each, in pk order
    (and the many-to-many pairs): the SQL is compiled once per tournament, then only run."""
    if tournament not in _SNAPSHOTS:
        _SNAPSHOTS[tournament] = RowSnapshot(_rows_querysets(tournament))
    return _SNAPSHOTS[tournament]()


# --- what is posted --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A value known once the world exists: an id or secret of X or Y, the sheet's version…"""

    name: str


@dataclass(frozen=True)
class Poisoned:
    """A value with `poison` appended to each of its strings once resolved."""

    value: object
    poison: str


@dataclass(frozen=True)
class Csv:
    """A list of players, written out once the poison of the example is known."""

    rows: list[list[str]]
    encoding: str = "utf-8"

    def encode(self, poison: str = "") -> bytes:
        lines = [["nom", "prénom", "licence", "club", "équipe"]]
        lines += [[cell + poison for cell in row] for row in self.rows]
        return "\n".join(";".join(line) for line in lines).encode(self.encoding, "replace")


@dataclass(frozen=True)
class Upload:
    """A file to attach; `content` is bytes, a Csv, or a Ref to a backup spliced with `hostile`."""

    filename: str
    content: bytes | Csv | Ref
    hostile: str = ""
    where: int = 0


def form_field_names() -> set[str]:
    import scoring.documents.views.backup
    import scoring.sheets.forms
    import tournament.evening.forms
    import tournament.players.forms
    import tournament.signup.forms
    import tournament.tournaments.forms

    names = set()
    for module in (
        scoring.sheets.forms,
        tournament.evening.forms,
        tournament.players.forms,
        tournament.signup.forms,
        tournament.tournaments.forms,
        scoring.documents.views.backup,
    ):
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, forms.BaseForm):
                names |= set(obj.base_fields)
    from scoring.season.forms import ChampionshipForm

    names |= set(ChampionshipForm.base_fields)
    # The fields the forms add in __init__, one per seat or per incident type.
    for seat in range(5):
        names |= {f"score_{seat}", f"bilan_{seat}", f"player_{seat}"}
    return names | {f"kind_{kind}" for kind in Incident.Kind.values}


COMMON_NAMES = {
    "version", "validated", "reason", "action", "confirm", "player", "q", "username", "role",
    "taker", "contract", "oudlers", "points", "dealer", "side", "poignees", "petit_au_bout",
    "chelem", "scores", "margin", "deal_number", "kind", "registration", "penalty_points",
    "first", "second", "seed", "members", "name", "file", "number", "sheet", "deal", "passed",
    "partner", "arbiter_called", "title", "date", "rule_set", "tie_breaks", "share_penalties",
    "code", "pin", "seat", "token", "client_id", "entered_by", "entry_mode", "next",
}  # fmt: skip
FIELD_NAMES = sorted(form_field_names() | COMMON_NAMES)

HOSTILE = [
    "", " ", "0", "1", "2", "3", "4", "5", "-1", "1e309", "-1e309", "1e-400",
    "99999999999999999999", "-99999999999999999999", "9223372036854775808", "2147483648",
    "NaN", "nan", "inf", "-inf",
    "Infinity", "0x1F", "١٢", "²", "½", "\x00", "a\x00b", "\x00\x00\x00", "\u202egauche", "🂡🃏",
    "Ünïcödé ÉÈ", '=HYPERLINK("http://evil.example","clic")', "=1+1", "+1", "@SUM(A1)", "-2+3",
    "<script>alert(1)</script>", "' OR 1=1 --", "%s%s%n", "{{ 7*7 }}", "../../etc/passwd",
    "true", "on", "N", "E", "S", "O", "W", "T", "A", "C", "P", "G", "GS", "GC", "d40", "a51",
    "40,5", "attack", "defense", "R", "AR", "AC", "D", "AD", "E1 N2", "arbiter", "scorer",
    "owner", "clear", "adjust", "not_recorded", "recorded", "fft", "booklet", "individual",
    "duo", "team4", "five", "five_dead", "three", "paper", "phones", "both", "2026-11-21",
    "2026-02-30", "other", "petit_sec", "renonce_defence", "fausse_donne",
]  # fmt: skip
REFS = [
    Ref(f"{side}_{name}")
    for side in "xy"
    for name in ("registration", "player", "sheet", "deal", "tournament", "role", "table")
    + ("token", "code", "pin")
] + [Ref(name) for name in ("version", "version+1", "owner_y", "co_y", "scorer_y", "scorer_x")]
LONG = st.builds(
    lambda piece, times: piece * times,
    st.sampled_from(["9", "é", "\x00", "a b", "=", "🂡", " ", "1,"]),
    st.integers(100, 5000),
)
TEXT = st.one_of(
    st.sampled_from(HOSTILE),
    st.sampled_from(REFS),
    st.text(max_size=30),
    st.integers(-(10**25), 10**25).map(str),
    st.floats().map(str),
    LONG,
)
VALUES = st.one_of(TEXT, st.lists(TEXT, min_size=1, max_size=4))
# A list of players: plausible cells, some with something hostile stuck to them.
CELLS = st.one_of(
    st.builds(
        operator.add,
        st.sampled_from(["Dupont", "Jean", "Müller", "A123", "Club de Lyon", ""]),
        st.sampled_from(["", "", "\x00", "=1+1", ";", '"', "\r", "\u2028", "é" * 90]),
    ),
    st.sampled_from(HOSTILE),
    st.text(max_size=12),
)
CSV_FILES = st.builds(
    Csv,
    st.lists(st.lists(CELLS, min_size=1, max_size=5), min_size=1, max_size=4),
    st.sampled_from(["utf-8", "utf-8", "cp1252", "utf-16"]),
)
UPLOADS = st.one_of(
    st.builds(Upload, filename=st.sampled_from(["joueurs.csv", "liste.txt"]), content=CSV_FILES),
    st.builds(
        Upload,
        filename=st.sampled_from(["joueurs.csv", "joueurs.xlsx", "liste.txt", "sauvegarde.json"]),
        content=st.one_of(st.binary(max_size=300), st.just(b"PK\x03\x04 pas un zip")),
    ),
    st.builds(
        Upload,
        filename=st.just("sauvegarde.json"),
        content=st.sampled_from([Ref("x_backup"), Ref("y_backup")]),
        hostile=st.one_of(st.just(""), st.sampled_from(HOSTILE)),
        where=st.integers(0, 400),
    ),
)
NAMES = st.one_of(st.sampled_from(FIELD_NAMES), st.text(min_size=1, max_size=10))


@st.composite
def form_data(draw) -> dict:
    """A few fields, or nearly every field of the site at once; maybe the sheet's version (so
    that writes reach the services), maybe a poison appended to every value, maybe a file."""
    if draw(st.booleans()):
        data = draw(st.dictionaries(NAMES, VALUES, max_size=10))
    else:
        data = draw(st.fixed_dictionaries({}, optional=dict.fromkeys(FIELD_NAMES, VALUES)))
    poison = draw(st.sampled_from(["", "", "", "\x00", " =1+1", "9" * 400]))
    if poison:
        data = {key: Poisoned(value, poison) for key, value in data.items()}
    if draw(st.booleans()):
        data["version"] = Ref("version")
    if draw(st.booleans()):
        data["file"] = Poisoned(draw(UPLOADS), poison)
    return data


# Two examples every form page gets besides the generated ones: every field at once, each
# with a NUL (PostgreSQL refuses it in text and JSON), a list of players with a NUL in a name;
# then every field a spreadsheet formula, with Y's whole backup to restore (as a new tournament).
EVERY_FIELD_WITH_A_NUL = {
    **{name: Poisoned("x", "\x00") for name in FIELD_NAMES if name != "confirm"},
    "version": Ref("version"),
    "file": Poisoned(Upload("joueurs.csv", Csv([["Dupont", "Jean"], ["Martin", ""]])), "\x00"),
}
EVERY_FIELD_A_FORMULA = {
    **dict.fromkeys(FIELD_NAMES, '=HYPERLINK("http://evil.example","clic")'),
    "version": Ref("version"),
    "file": Upload("sauvegarde.json", Ref("y_backup"), where=10**9),
}
QUERIES = st.dictionaries(
    st.sampled_from(["sheet", "deal", "q", "kind", "position", "table", "player", "tournoi"]),
    TEXT,
    max_size=3,
)


def splice(raw: str, hostile: str, where: int) -> bytes:
    """A backup with one of its strings replaced by `hostile` (cut short when it is empty)."""
    if not hostile:
        return raw.encode()[: where * 37]
    document = json.loads(raw)
    leaves = []

    def collect(node):
        for key, value in node.items() if isinstance(node, dict) else enumerate(node):
            if isinstance(value, str):
                leaves.append((node, key))
            elif isinstance(value, dict | list):
                collect(value)

    collect(document)
    if leaves:
        node, key = leaves[where % len(leaves)]
        node[key] = hostile
    return json.dumps(document, ensure_ascii=False).encode()


class Resolver:
    """Turns the Refs, poisons and Uploads of a generated example into what is posted."""

    def __init__(self, world: dict):
        self.world = world

    def ref(self, name: str):
        if name.startswith("version"):
            version = ScoreSheet.objects.get(pk=self.world["x"]["sheet"]).version
            return version + (1 if name.endswith("+1") else 0)
        side, _, key = name.partition("_")
        if side in ("x", "y"):
            return self.world[side][key]
        return self.world["users"][name].get_username()

    def __call__(self, value):
        if isinstance(value, Poisoned) and isinstance(value.value, Upload):
            return self.upload(value.value, value.poison)
        if isinstance(value, Poisoned):
            resolved = self(value.value)
            if isinstance(resolved, list):
                return [item + value.poison for item in resolved]
            return resolved + value.poison if isinstance(resolved, str) else resolved
        if isinstance(value, list):
            return [self(item) for item in value]
        if isinstance(value, Ref):
            return str(self.ref(value.name))
        if isinstance(value, Upload):
            return self.upload(value)
        return value

    def upload(self, upload: Upload, poison: str = "") -> SimpleUploadedFile:
        content = upload.content
        if isinstance(content, Ref):
            side = content.name.split("_")[0]
            content = splice(self.world[side]["backup"], upload.hostile or poison, upload.where)
        elif isinstance(content, Csv):
            content = content.encode(poison)
        return SimpleUploadedFile(upload.filename, content)

    def data(self, data: dict) -> dict:
        return {key: self(value) for key, value in data.items()}

    def body(self, body):
        """A JSON document with its Refs replaced (ids and the version as numbers)."""
        if isinstance(body, Ref):
            return self.ref(body.name)
        if isinstance(body, dict):
            return {key: self.body(value) for key, value in body.items()}
        if isinstance(body, list):
            return [self.body(value) for value in body]
        return body


# --- JSON bodies -----------------------------------------------------------------------------

BODY_KEYS = [*ENGINE_FIELDS, *ENTRY_FIELDS, "version", "deal", "client_id", "entered_by", "seat"]
BODY_KEYS += ["pin"]
BIG_INTS = st.sampled_from([0, 1, 2, 3, 4, 5, -1, 91, 92, 2**31, 2**63, 10**20, -(10**20)])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    BIG_INTS,
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e308, -1e308, 4.0, 45.5, 0.1, -0.0]),
    st.text(max_size=20),
    st.sampled_from(HOSTILE),
    st.sampled_from(REFS),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(BODY_KEYS), st.text(max_size=8)), children, max_size=6
        ),  # fmt: skip
    ),
    max_leaves=20,
)
SEATS = st.one_of(st.integers(-1, 5), SCALARS)
PLAUSIBLE_DEAL = st.fixed_dictionaries(
    {},
    optional={
        "players": st.one_of(st.just(4), st.sampled_from([3, 5, 4.0, "4", True, None, 2**64])),
        "taker": SEATS,
        "partner": SEATS,
        "dead": SEATS,
        "contract": st.one_of(
            st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]), SCALARS
        ),
        "oudlers": st.one_of(st.integers(-1, 4), SCALARS),
        "points": st.one_of(st.integers(0, 91), st.sampled_from([45.5, 90.5, 1e308]), SCALARS),
        "poignees": st.one_of(
            st.lists(
                st.tuples(SEATS, st.sampled_from(["simple", "double", "triple", "x"])).map(list),
                max_size=3,
            ),
            JSON_VALUES,
        ),
        "petit_au_bout": st.one_of(st.sampled_from(["attack", "defense", ""]), SCALARS),
        "chelem_announced": st.one_of(st.booleans(), SCALARS),
        "chelem": st.one_of(st.sampled_from(["attack", "defense", ""]), SCALARS),
        "dealer": SEATS,
        "passed": st.one_of(st.booleans(), SCALARS),
        "cancelled": st.one_of(st.booleans(), SCALARS),
        "arbiter_called": st.one_of(st.booleans(), SCALARS),
    },
)
# Deals the engine accepts, but for their number of players, sometimes not the sheet's 4.
SOUND_DEALS = st.one_of(
    st.fixed_dictionaries(
        {
            "taker": st.integers(0, 3),
            "contract": st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]),
            "oudlers": st.integers(0, 3),
            "points": st.one_of(st.integers(12, 80), st.sampled_from([0, 91, 40.5])),
            "dealer": st.integers(0, 3),
        },
        optional={
            "players": st.sampled_from([4, 4, 4, 3, 5, 4.0, "4", True]),
            "poignees": st.lists(
                st.tuples(st.integers(0, 3), st.sampled_from(["simple", "double", "triple"])).map(
                    list
                ),
                max_size=1,
            ),
            "petit_au_bout": st.sampled_from(["attack", "defense", None]),
            "chelem": st.sampled_from([None, None, "", "attack", "defense"]),
            "chelem_announced": st.booleans(),
            "arbiter_called": st.booleans(),
        },
    ),
    st.fixed_dictionaries(
        {"passed": st.just(True)},
        optional={"dealer": st.integers(0, 3), "players": st.sampled_from([4, 3, 4.0, True])},
    ),
)
SOUND_BODIES = st.fixed_dictionaries({"version": st.just(Ref("version")), "deal": SOUND_DEALS})
API_BODIES = st.one_of(
    SOUND_BODIES,
    st.fixed_dictionaries(
        {
            "version": st.one_of(st.just(Ref("version")), BIG_INTS, SCALARS),
            "deal": st.one_of(PLAUSIBLE_DEAL, JSON_VALUES),
        },
        optional={"extra": JSON_VALUES},
    ),
    # What the players' phones send: a deal with who typed it, or a seat and its code.
    st.fixed_dictionaries(
        {"deal": st.one_of(PLAUSIBLE_DEAL, JSON_VALUES)},
        optional={
            "version": st.one_of(st.just(Ref("version")), SCALARS),
            "client_id": st.one_of(st.text(max_size=80), SCALARS, LONG),
            "entered_by": SEATS,
        },
    ),
    st.fixed_dictionaries(
        {},
        optional={"seat": SEATS, "pin": st.one_of(st.sampled_from([Ref("x_pin")]), SCALARS)},
    ),
    JSON_VALUES,
)
NUMBERS_AS_WRITTEN = ["1e309", "-1e309", "1e-400", "99999999999999999999999", "4.0", "-0", "1E2"]
RAW_BODIES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"",
            b"\xff\xfe\x00{",
            b"\xc3\x28",
            b'{"version": 1, "deal": {',
            b'{"version": NaN, "deal": {}}',
            b'{"version": 1, "deal": {"points": Infinity}}',
            b"[" * 20_000,
            b"{" * 20_000,
            b'{"a":' * 20_000,
            b'{"version": 1, "deal": {"passed": true}}' + b" " * 17_000,
            b'"\\u0000"',
            b'{"version": 1, "deal": {"contract": "garde\\u0000"}}',
            b'{"version": 1, "deal": {"\\u0000": 1}}',
            b'{"\\u0000": 1}',
            b'{"client_id": "a\\u0000b", "deal": {"passed": true}}',
        ]
    ),
    st.builds(
        lambda number, key: (
            '{"version": 1, "deal": {"players": 4, "taker": 0, "contract": "garde", '
            f'"oudlers": 2, "points": 50, "{key}": {number}}}}}'
        ).encode(),
        st.sampled_from(NUMBERS_AS_WRITTEN),
        st.sampled_from(["points", "taker", "oudlers", "dealer", "players"]),
    ),
    st.builds(
        lambda number: f'{{"version": {number}, "deal": {{"passed": true}}}}'.encode(),
        st.sampled_from(NUMBERS_AS_WRITTEN),
    ),
)
CONTENT_TYPES = st.sampled_from(
    ["application/json", "application/json; charset=utf-8", "text/plain", "multipart/form-data"]
)


def encoded(resolve: Resolver, body) -> bytes:
    return body if isinstance(body, bytes) else json.dumps(resolve.body(body)).encode()


# --- 1. the owner of X posts anything to every page of X -------------------------------------


def every_route():
    for route, pattern in walk(get_resolver().url_patterns):
        if pattern.name not in SKIPPED:
            yield pytest.param(route, pattern, id=route)


def nothing_waits(world):
    """What waits at X's table decided, as the arbiter must before a close or a finish."""
    Deal.objects.filter(sheet_id=world["x"]["sheet"]).update(pending=False, disputed=False)
    LateDeal.objects.filter(table_id=world["x"]["table"]).update(status="rejected")
    PhoneQueue.objects.filter(table_id=world["x"]["table"]).update(acknowledged=F("count"))


def finished(world):
    tournament = Tournament.objects.get(pk=world["x"]["tournament"])
    if tournament.status != Tournament.Status.FINISHED:
        nothing_waits(world)
        lifecycle.tournament_finish(tournament=tournament)


def closed(world):
    position = Position.objects.get(tables__pk=world["x"]["table"])
    if position.status == Position.Status.PUBLISHED:
        nothing_waits(world)
        lifecycle.position_close(position=position)


def validated(world):
    ScoreSheet.objects.filter(pk=world["x"]["sheet"]).update(status=ScoreSheet.Status.VALIDATED)


def a_deal(world):
    """The sheet has a deal again (an earlier example may have deleted it), and the URL too."""
    deals = Deal.objects.filter(sheet_id=world["x"]["sheet"]).order_by("number")
    if not deals.exists():
        sheet = ScoreSheet.objects.get(pk=world["x"]["sheet"])
        with contextlib.suppress(Locked, DealError):
            deal_record(sheet=sheet, data={"passed": True, "dealer": 0})
    if deals.exists():
        world["x"]["deal"] = deals.last().pk


def a_role(world):
    role, _ = TournamentRole.objects.get_or_create(
        tournament_id=world["x"]["tournament"],
        user=world["users"]["scorer_x"],
        defaults={"role": "scorer"},
    )
    world["x"]["role"] = role.pk


def signup_opened(world):
    """The registration page answers only while it is open (404 otherwise): open it, so that
    fuzzed posts reach its form, its spam traps and its services."""
    Tournament.objects.filter(pk=world["x"]["tournament"]).update(signup_open=True)


# The state a page acts on (examples drawn "prepared" put X in it first): reopening needs
# something finished or closed, un-validating a validated sheet, deleting a deal a deal.
PREPARE = {
    "tournament-reopen": finished,
    "position-reopen": closed,
    "sheet-validate": validated,
    "tournament-staff-remove": a_role,
    "signup": signup_opened,
    **dict.fromkeys(
        [
            "deal-edit",
            "deal-delete",
            "deal-adjust",
            "deal-adjust-clear",
            "deal-score-recorded",
            "deal-confirm",
        ],
        a_deal,
    ),
}


def view_reads_json(pattern) -> bool:
    view = inspect.unwrap(pattern.callback)
    try:
        return "request.body" in inspect.getsource(inspect.getmodule(view))
    except (OSError, TypeError):
        return True


@pytest.mark.parametrize(("route", "pattern"), list(every_route()))
def test_fuzzed_posts_never_fail_nor_touch_another_tournament(client, world, route, pattern):
    client.force_login(world["users"]["owner_x"])
    resolve = Resolver(world)
    y_before = rows_of(world["y"]["tournament"])
    read_only = pattern.name.startswith(READ_ONLY_PREFIXES)
    json_too = view_reads_json(pattern)
    prepare = PREPARE.get(pattern.name)

    def post(data, body, query, htmx, prepared):
        with transaction.atomic():  # a database error fails this example, not the next ones
            if prepare and prepared:
                prepare(world)
            url = url_for(route, pattern, world["x"])
            target = f"{url}?{urlencode(resolve.data(query), doseq=True)}" if query else url
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            response = client.post(target, resolve.data(data), **headers)
            assert response.status_code < 500, (pattern.name, response.status_code)
            if json_too:
                response = client.post(
                    target, encoded(resolve, body), content_type="application/json", **headers
                )
                assert response.status_code < 500, (pattern.name, response.status_code)
            assert rows_of(world["y"]["tournament"]) == y_before, pattern.name

    if not read_only:
        for data in (EVERY_FIELD_WITH_A_NUL, EVERY_FIELD_A_FORMULA):
            post = example(data=data, body={}, query={}, htmx=False, prepared=True)(post)
    fuzzed = given(
        data=form_data(),
        body=st.one_of(API_BODIES, RAW_BODIES),
        query=QUERIES,
        htmx=st.booleans(),
        prepared=st.booleans(),
    )(post)
    settings(FUZZ, max_examples=READ_ONLY_EXAMPLES if read_only else FORM_EXAMPLES)(fuzzed)()


# --- 2. the deal API ---------------------------------------------------------------------------


@pytest.mark.slow
def test_fuzzed_api_bodies_never_fail_and_only_record_sound_deals(client, world):
    client.force_login(world["users"]["owner_x"])
    resolve = Resolver(world)
    sheet_id = world["x"]["sheet"]
    url = reverse("api-deal-create", args=[sheet_id])
    y_before = rows_of(world["y"]["tournament"])
    players = ScoreSheet.objects.get(pk=sheet_id).players.count()
    assert players == 4

    @settings(FUZZ, max_examples=API_EXAMPLES)
    @given(
        body=st.one_of(SOUND_BODIES, API_BODIES, RAW_BODIES),
        content_type=CONTENT_TYPES,
        room=st.booleans(),
    )
    def post(body, content_type, room):
        with transaction.atomic():
            if room:  # the sheet holds 5 deals at a table of 4: make room for more
                Deal.objects.filter(sheet_id=sheet_id, number__gt=1).delete()
            sheet = ScoreSheet.objects.get(pk=sheet_id)
            deals_before = sheet.deals.count()
            sent = encoded(resolve, body)
            response = client.post(url, sent, content_type=content_type)
            assert response.status_code in (201, 400, 409), (response.status_code, sent[:300])
            answer = response.json()
            if response.status_code == 201:
                assert sum(answer["scores"]) == 0, answer
                assert len(answer["scores"]) == players
                assert sheet.deals.count() == deals_before + 1
                deal = json.loads(sent)["deal"]
                assert type(deal.get("players", players)) is int  # never 4.0, "4" or True
                assert deal.get("players", players) == players
                stored = Deal.objects.get(pk=answer["deal"])
                assert stored.players == players and sum(stored.scores) == 0
            else:
                assert {"field", "error"} <= set(answer)
                assert sheet.deals.count() == deals_before
            assert rows_of(world["y"]["tournament"]) == y_before

    post()


# --- 3. the owner of Y posts the same to X's pages: refused, and X unchanged -------------------


@pytest.mark.slow
def test_fuzzed_posts_from_another_tournaments_owner_are_refused(client, world):
    """Every page about one tournament (its URL names a tournament, position, table, sheet or
    deal) refuses Y's owner. The table pages are left out: their secret link is the credential,
    whoever holds it (the roles tests cover them)."""
    client.force_login(world["users"]["owner_y"])
    urls = [
        (pattern.name, url_for(route, pattern, world["x"]))
        for route, pattern in walk(get_resolver().url_patterns)
        if "pk" in pattern.pattern.converters and not pattern.name.startswith("public-")
    ]
    # Only the pages about no tournament, public or reached by a table's link are left out.
    assert sorted(set(URL_NAMES) - {name for name, _url in urls}) == [
        "championship-create", "championship-list", "circuit-list", "club-invitations",
        "comite-settings", "event-create", "event-hall",
        "event-hall-slides", "event-list", "favicon", "hall-screen", "hall-slides", "home",
        "javascript-catalog", "login", "logout", "player-merge", "player-search",
        "public-championship", "public-championship-player", "public-club", "public-clubs",
        "public-event", "public-me", "public-person", "public-player",
        "public-player-statistics", "public-players", "public-standings-partial",
        "public-tournament", "results-upload", "set_language", "table-call", "table-code",
        "table-confirm",
        "table-contest", "table-deal-correct", "table-deal-create", "table-entry",
        "table-finish", "table-forget", "table-identify", "table-preview", "table-sheet",
        "table-sw", "tournament-create", "tournament-list", "tournament-restore",
    ]  # fmt: skip
    resolve = Resolver(world)
    x_before = rows_of(world["x"]["tournament"])
    y_before = rows_of(world["y"]["tournament"])

    @settings(FUZZ, max_examples=INTRUDER_EXAMPLES)
    @given(data=form_data(), body=st.one_of(API_BODIES, RAW_BODIES), htmx=st.booleans())
    def post(data, body, htmx):
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        with transaction.atomic():
            for name, url in urls:
                response = client.post(url, resolve.data(data), **headers)
                assert response.status_code in (403, 404, 405), (name, response.status_code)
                sent = encoded(resolve, body)
                response = client.post(url, sent, content_type="application/json", **headers)
                assert response.status_code in (403, 404, 405), (name, response.status_code)
            assert rows_of(world["x"]["tournament"]) == x_before
            assert rows_of(world["y"]["tournament"]) == y_before

    post()
