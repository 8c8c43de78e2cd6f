"""Issue 35, one rule at one choke point: scoring.counting says which deals count, the plain SQL
reads embed the fragment compiled from its queryset (and agree with it on every kind of deal),
and no other module of scoring/ or tournament/ decides it again by filtering on a deal's
confirmation fields."""

import ast
from pathlib import Path

import pytest
from django.db import connection

from scoring.live.counted import player_counted_deals
from scoring.live.waiting import waiting_deals_of
from scoring.models import Deal, DealScore
from tests.scoring.live.uncounted_helpers import build

ROOT = Path(__file__).resolve().parents[3]
CHOKE_POINT = ROOT / "scoring" / "counting.py"
# The confirmation workflow itself: it moves a deal between waiting, confirmed and contested,
# each update guarded by the state it expects (compare and set), and chooses which deals a
# player may confirm or contest. It changes what counts; it never totals anything.
WORKFLOW = {
    ROOT / "scoring" / "sheets" / "table_entry" / name
    for name in ("deals.py", "confirmations.py", "disputes.py")
}
CONFIRMATION_FIELDS = {"pending", "disputed"}
# Calls that select or aggregate rows: a keyword naming a confirmation field there decides
# what counts.
SELECTING = {"filter", "exclude", "get", "Q", "When", "Count", "Sum", "FilteredRelation"}


@pytest.mark.django_db
def test_the_plain_sql_fragment_selects_exactly_the_querysets_deals(arbiter):
    world = build(arbiter)
    # Every combination of the confirmation fields, whatever the workflow allows today.
    Deal.objects.filter(sheet=world.table_1).update(pending=False, disputed=True)
    expected = set(Deal.objects.counted().values_list("pk", flat=True))
    assert 0 < len(expected) < Deal.objects.count()
    sql, params = Deal.objects.counted_sql("d")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT d.id FROM {Deal._meta.db_table} d WHERE {sql}", params)
        assert {row[0] for row in cursor.fetchall()} == expected
    waiting = set(Deal.objects.waiting().values_list("pk", flat=True))
    assert waiting == set(Deal.objects.values_list("pk", flat=True)) - expected
    assert waiting_deals_of(world.tournament.pk).count == len(waiting)


@pytest.mark.django_db
def test_each_players_card_reads_what_the_queryset_counts(arbiter):
    world = build(arbiter)
    for registration in world.players.values():
        card = sorted((row[2], row[3], row[0]) for row in player_counted_deals(
            world.tournament, registration.pk
        ))  # fmt: skip
        counted = sorted(
            DealScore.objects.counted()
            .filter(registration=registration)
            .values_list("deal__sheet_id", "deal__number", "points")
        )
        assert card == counted, registration
    nord = [row[3] for row in player_counted_deals(world.tournament, world.players["NORD"].pk)]
    assert nord == [1]  # the desk's deal; not the garde sans nor the contested garde contre


def _deciding_lines(path: Path) -> list[str]:
    """Lines of `path` that select rows on a confirmation field, or name one in plain SQL."""
    found: list[str] = []
    where = f"{path.parent.name}/{path.name}"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            fields = {k.arg.rsplit("__", 1)[-1] for k in node.keywords if k.arg}
            # Q(**{f"{prefix}pending": False}): the names inside the unpacked mapping.
            for unpacked in (k.value for k in node.keywords if k.arg is None):
                fields |= {
                    text.value.rsplit("__", 1)[-1]
                    for text in ast.walk(unpacked)
                    if isinstance(text, ast.Constant) and isinstance(text.value, str)
                }
            if name in SELECTING and fields & CONFIRMATION_FIELDS:
                found.append(f"{where}:{node.lineno}")
            # quote_name("pending") and the like: the field named in a plain SQL statement.
            quoted = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if name in {"q", "quote", "quote_name"} and set(quoted) & CONFIRMATION_FIELDS:
                found.append(f"{where}:{node.lineno}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.lower()
            if any(f'"{f}"' in text or f".{f} " in text for f in CONFIRMATION_FIELDS) and (
                "select" in text or "where" in text
            ):
                found.append(f"{where}:{node.lineno}")
    return found


def test_no_module_but_the_choke_point_decides_what_counts():
    offending = []
    for app in ("scoring", "tournament"):
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or path == CHOKE_POINT or path in WORKFLOW:
                continue
            offending += _deciding_lines(path)
    assert offending == []


def test_the_check_finds_a_copy_of_the_rule(tmp_path):
    """The check above can fail: each way of writing the rule again is caught."""
    copies = {
        "orm.py": "Deal.objects.filter(sheet=s, pending=False)\n",
        "score.py": "DealScore.objects.exclude(deal__disputed=True)\n",
        "count.py": "Count('pk', filter=Q(pending=True))\n",
        "unpacked.py": "Q(**{f'{prefix}pending': False})\n",
        "sql.py": "f\"AND d.{q('pending')} = %s\"\n",
        "raw.py": "cursor.execute('SELECT id FROM scoring_deal d WHERE NOT d.\"pending\"')\n",
    }
    for name, text in copies.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    caught = {path.name: bool(_deciding_lines(path)) for path in tmp_path.iterdir()}
    assert caught == dict.fromkeys(copies, True)
