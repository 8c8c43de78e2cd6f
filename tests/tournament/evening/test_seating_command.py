"""The `movement` command prints the chart as JSON or text, and refuses impossible requests."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournament.core.seating import (
    Plan,
    SeatingPlayer,
    direction_spread,
    generate,
    numbered_field,
    odd_table_counts,
    plan_problems,
    repeated_meetings,
)


def run(*args: str) -> str:
    out = StringIO()
    call_command("movement", *args, stdout=out)
    return out.getvalue()


def test_json_lists_positions_of_tables_of_player_numbers():
    data = json.loads(
        run("--players", "32", "--positions", "8", "--teams", "4", "--format", "json")
    )
    assert list(data) == ["positions"]
    assert len(data["positions"]) == 8
    plan = Plan(tuple(tuple(tuple(t) for t in pos) for pos in data["positions"]))
    players = [SeatingPlayer(i, (i - 1) // 4 + 1) for i in range(1, 33)]
    assert plan_problems(plan, players) == []
    assert all(len(table) == 4 for pos in data["positions"] for table in pos)


def test_json_puts_a_fifth_number_at_tables_of_five():
    data = json.loads(run("--players", "34", "--positions", "6", "--format", "json", "--seed", "3"))
    sizes = sorted(len(t) for t in data["positions"][0])
    assert sizes == [4] * 6 + [5] * 2
    plan = Plan(tuple(tuple(tuple(t) for t in pos) for pos in data["positions"]))
    assert repeated_meetings(plan) == 0


def test_text_is_a_readable_chart():
    text = run("--players", "16", "--positions", "5")
    assert "Position 5" in text
    assert "Table  4 : N" in text
    assert "Positions de départ" in text
    assert "Rencontres répétées (E) : 0" in text


def test_impossible_request_is_a_command_error_in_french():
    with pytest.raises(CommandError, match="coéquipiers"):
        run("--players", "8", "--positions", "3", "--teams", "4")


def test_text_shows_the_odd_table_and_direction_spreads():
    text = run("--players", "45", "--positions", "6", "--seed", "3")
    plan = generate(numbered_field(45), 6, "five", seed=3)  # the same arguments, the same plan
    counts = odd_table_counts(plan).values()
    assert f"Écart des tables de 3 ou 5 : {max(counts) - min(counts)} (au mieux 1)" in text
    assert max(counts) - min(counts) <= 1
    assert f"Écart des directions : {direction_spread(plan)} (au mieux 1)" in text


def test_json_keeps_its_shape_and_puts_the_notes_beside_it():
    out, err = StringIO(), StringIO()
    call_command(
        "movement", "--players", "16", "--positions", "6", "--format", "json",
        stdout=out, stderr=err,
    )  # fmt: skip
    data = json.loads(out.getvalue())
    assert list(data) == ["positions"]
    assert all(isinstance(p, int) for pos in data["positions"] for t in pos for p in t)
    assert "Rencontres répétées : 24 (au moins 24 inévitables" in err.getvalue()


def test_text_says_optimal_when_the_plan_meets_its_bound():
    text = run("--players", "8", "--positions", "3")
    assert "Rencontres répétées (E) : 8 (au moins 8, optimal prouvé)" in text
