"""What counts, whatever the order of the desk's, the phones' and the arbiter's steps (issue 35).

A hypothesis state machine plays one tournament (two tables of four, phones bound to their
players) with desk, phone and arbiter steps (a seat swap among them) mixed at random. After
every step that changed a row:
- every ranking the site shows or exports (the arbiter's ranking page and standings, the public
  page and standings, the ranking XLSX and CSV, the cockpit's leaders, each player's card)
  equals a recomputation, by the pure engine, from the confirmed deals alone;
- no deal number and no phone's client id appears twice on a sheet;
- every waiting deal is listed for the arbiter beside the totals.
The ranking PDF's figures, read back with pypdf, are compared after every step that changed
the totals; a step backs the tournament up and restores it, and checks the restored rankings.
A step that changed no row of either app (a refused request, a retry recorded once) leaves every
page, export and count what the last check read: the checks run again only when a row changed.
"""

import csv
import io
import json
import re
from collections import defaultdict
from itertools import count

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.core.deal import Deal as EngineDeal
from scoring.core.deal import DealError
from scoring.core.engine import score_deal
from scoring.core.rules import RULE_SETS
from scoring.documents.backup.export import tournament_export
from scoring.documents.backup.restore import tournament_import
from scoring.live.card import card_deals
from scoring.live.cockpit import cockpit_load
from scoring.live.counted import player_counted_deals, player_counted_penalties
from scoring.live.standings import standings_for
from scoring.models import Deal, ScoreSheet, SheetPlayer
from scoring.sheets.services.deals import deal_delete, deal_record
from scoring.sheets.services.sheets import StaleSheetError, sheet_validate
from scoring.sheets.table_entry import deal_confirm_by_arbiter, links_for_position
from tests.database_state import database_state
from tournament.access.lifecycle import (
    position_close,
    position_reopen,
    tournament_finish,
    tournament_reopen,
)
from tournament.evening.swaps import seat_swap
from tournament.models import Player, Position, Registration, Seat, Table, Tournament
from tournament.players.registrations import registration_withdraw

pytestmark = [pytest.mark.django_db, pytest.mark.engine]

NAMES = ["ARNAUD", "BERTIN", "CHARLES", "DENIS", "ETIENNE", "FABRE", "GIRARD", "HENRY"]
CONTRACTS = ["petite", "garde", "garde_sans", "garde_contre"]
# (oudlers, points) pairs a real deal can have: the taker's points and the bouts they held.
CARDS = st.tuples(st.integers(0, 3), st.integers(0, 91))
SERIAL = count(1)
DOMAIN_ERRORS = (ValidationError, StaleSheetError, DealError)


def engine_scores(deal: Deal) -> list[int]:
    """The pure engine's scores for a stored deal's inputs (what a recount gives)."""
    if deal.passed or deal.cancelled:
        return [0] * 4
    scored = score_deal(
        EngineDeal(
            players=4,
            taker=deal.taker,
            contract=deal.contract,
            oudlers=deal.oudlers,
            points=float(deal.points),
        ),
        rules=RULE_SETS[deal.rule_set],
    )
    return list(scored.scores)


def xlsx_totals(content: bytes) -> dict[str, int]:
    """Name -> total of a ranking workbook's players sheet (the columns by their headers)."""
    sheet = load_workbook(io.BytesIO(content), read_only=True).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    header_at = next(n for n, row in enumerate(rows) if row and "Total" in row)
    header = list(rows[header_at])
    name, total = header.index("Joueur"), header.index("Total")
    return {
        str(row[name]).split()[0]: int(row[total])
        for row in rows[header_at + 1 :]
        if row and row[name] and isinstance(row[total], int | float)
    }


def csv_totals(content: bytes) -> dict[str, int]:
    """Name -> total of the ranking CSV (its title line, then the headings, then the players)."""
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    header = rows[1]
    name, total = header.index("Joueur"), header.index("Total")
    return {row[name].split()[0]: int(row[total]) for row in rows[2:]}


def _text(cell: str) -> str:
    return re.sub(r"<[^>]+>", " ", cell).replace("\u2212", "-").replace("\xa0", " ").strip()


def html_totals(page: str) -> dict[str, int]:
    """Name -> total of the ranking table a page shows (its name and total cells)."""
    totals = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.S):
        name = re.search(r'<td class="name"[^>]*>(.*?)</td>', row, re.S)
        total = re.search(r'<td class="num total"[^>]*>(.*?)</td>', row, re.S)
        if name and total:
            figure = _text(total.group(1)).replace("+", "").replace(" ", "")
            totals[_text(name.group(1)).split()[0]] = int(figure)
    return totals


class WhatCounts(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()
        serial = next(SERIAL)
        self.arbiter = self._arbiter(serial)
        self.tournament = Tournament.objects.create(
            name=f"Soirée {serial}",
            date="2026-11-29",
            entry_mode="phones",
            is_public=True,
            status="running",
            owner=self.arbiter,
        )
        registrations = [
            Registration.objects.create(
                tournament=self.tournament,
                player=Player.objects.create(last_name=f"{name}{serial}"),
                number=n + 1,
            )
            for n, name in enumerate(NAMES)
        ]
        self.position = Position.objects.create(
            tournament=self.tournament, number=1, status="published"
        )
        for number in (1, 2):
            table = Table.objects.create(position=self.position, number=number)
            for seat, direction in enumerate("NESW"):
                Seat.objects.create(
                    table=table,
                    registration=registrations[(number - 1) * 4 + seat],
                    direction=direction,
                )
        self.links = links_for_position(self.position)
        self.registrations = registrations
        self.desk = Client()
        self.desk.force_login(self.arbiter)
        self.phones: dict[tuple[int, int], Client] = {}
        self.swaps = 0  # phones are named after the seating they were bound under
        self.pdf_checked: dict[str, int] | None = None  # the totals the PDF last printed
        self.last_body: tuple[int, int, dict] | None = None
        self.checked_state: str | None = None  # the rows the checks below last read
        self.ranking_page = ""  # the arbiter's ranking page, as check_rankings last read it

    @staticmethod
    def _arbiter(serial):
        from django.contrib.auth.models import User

        return User.objects.create_superuser(f"arbitre-machine-{serial}", password="pw")

    def teardown(self):
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)

    # --- helpers ----------------------------------------------------------------------------

    def sheet(self, table: int) -> ScoreSheet | None:
        return ScoreSheet.objects.filter(
            table__position=self.position, table__number=table + 1
        ).first()

    def player(self, table: int, seat: int) -> Registration:
        return self.registrations[table * 4 + seat]

    def phone(self, table: int, seat: int) -> Client:
        """The player's own phone, bound to them with their code on first use."""
        key = (table, seat)
        if key not in self.phones:
            client = Client()
            client.cookies["tarot_device"] = f"phone-{table}-{seat}-{self.swaps}"
            response = self.post(
                client, "table-identify", table, {"seat": seat, "pin": self.pin(table, seat)}
            )
            # Refused once the position is closed or the tournament finished: the phone then
            # stays unbound, and its steps are refused as any stranger's.
            assert response.status_code < 500, response.content
            self.phones[key] = client
        return self.phones[key]

    def pin(self, table: int, seat: int) -> str:
        return Registration.objects.get(pk=self.player(table, seat).pk).pin

    def post(self, client: Client, name: str, table: int, body: dict):
        response = client.post(
            reverse(name, args=[self.links[table].token]),
            json.dumps(body),
            content_type="application/json",
        )
        assert response.status_code < 500, response.content
        return response

    def version(self, table: int) -> int:
        sheet = self.sheet(table)
        return sheet.version if sheet is not None else 0

    def waiting(self, table: int) -> list[Deal]:
        sheet = self.sheet(table)
        if sheet is None:
            return []
        return list(Deal.objects.filter(sheet=sheet, pending=True).order_by("number"))

    # --- phone steps ------------------------------------------------------------------------

    @rule(
        table=st.integers(0, 1),
        seat=st.integers(0, 3),
        taker=st.integers(0, 3),
        contract=st.sampled_from(CONTRACTS),
        cards=CARDS,
    )
    def phone_enters(self, table, seat, taker, contract, cards):
        oudlers, points = cards
        sheet = self.sheet(table)
        numbers = list(sheet.deals.values_list("number", flat=True)) if sheet else []
        body = {
            "client_id": f"deal-{next(SERIAL):08d}",
            "version": self.version(table),
            "number": max(numbers, default=0) + 1,
            "deal": {
                "taker": taker,
                "contract": contract,
                "oudlers": oudlers,
                "points": points,
                "dealer": 0,
            },
        }
        self.post(self.phone(table, seat), "table-deal-create", table, body)
        self.last_body = (table, seat, body)

    @precondition(lambda self: self.last_body is not None)
    @rule()
    def phone_resends_its_last_deal(self):
        """A retried request (the answer was lost on the Wi-Fi) never records twice."""
        table, seat, body = self.last_body
        self.post(self.phone(table, seat), "table-deal-create", table, body)

    @rule(table=st.integers(0, 1), seat=st.integers(0, 3))
    def phone_confirms(self, table, seat):
        body = {"seat": seat, "pin": self.pin(table, seat), "version": self.version(table)}
        body["deals"] = [deal.pk for deal in self.waiting(table)] or [0]
        self.post(self.phone(table, seat), "table-confirm", table, body)

    @precondition(lambda self: self.last_body is not None)
    @rule(seat=st.integers(0, 3))
    def another_phone_sends_a_deal_typed_offline_under_the_same_number(self, seat):
        """A tablemate's phone, offline meanwhile, sends its own deal typed under the number
        and sheet version the last deal was typed against (a reopened page): a conflict, never
        a renumbered copy."""
        table, _seat, body = self.last_body
        offline = {**body, "client_id": f"offline-{next(SERIAL):08d}"}
        offline["deal"] = {**body["deal"], "points": min(91, body["deal"]["points"] + 1)}
        before = Deal.objects.filter(sheet=self.sheet(table)).count()
        answer = self.post(self.phone(table, seat), "table-deal-create", table, offline)
        if answer.status_code == 409:
            assert Deal.objects.filter(sheet=self.sheet(table)).count() == before

    @rule(table=st.integers(0, 1), seat=st.integers(0, 3), points=st.integers(0, 91))
    def the_enterer_corrects_a_waiting_deal(self, table, seat, points):
        mine = [
            d for d in self.waiting(table) if d.entered_by_player_id == self.player(table, seat).pk
        ]
        if not mine:
            return
        deal = mine[0]
        inputs = {
            "taker": deal.taker,
            "contract": deal.contract,
            "oudlers": deal.oudlers,
            "points": points,
            "dealer": 0,
        }
        body = {"version": self.version(table), "deal": inputs, "pin": self.pin(table, seat)}
        client = self.phone(table, seat)
        answer = client.post(
            reverse("table-deal-correct", args=[self.links[table].token, deal.number]),
            json.dumps(body),
            content_type="application/json",
        )
        assert answer.status_code < 500, answer.content

    @rule(table=st.integers(0, 1), seat=st.integers(0, 3))
    def phone_signs_the_sheet(self, table, seat):
        """A player vouches for the sheet from their own bound phone."""
        self.post(self.phone(table, seat), "table-finish", table, {})

    @rule(table=st.integers(0, 1), seat=st.integers(0, 3), which=st.integers(0, 5))
    def phone_contests(self, table, seat, which):
        deals = list(Deal.objects.filter(sheet=self.sheet(table)).order_by("number"))
        if not deals:
            return
        deal = deals[which % len(deals)]
        body = {"seat": seat, "pin": self.pin(table, seat), "number": deal.number, "note": "Non"}
        self.post(self.phone(table, seat), "table-contest", table, body)

    # --- desk and arbiter steps -------------------------------------------------------------

    @rule(table=st.integers(0, 1), taker=st.integers(0, 3), cards=CARDS)
    def desk_enters(self, table, taker, cards):
        sheet = self.sheet(table)
        if sheet is None:
            from scoring.sheets.services.sheets import sheet_for_table

            sheet = sheet_for_table(
                table=Table.objects.get(position=self.position, number=table + 1)
            )
        oudlers, points = cards
        data = {
            "taker": taker,
            "contract": "garde",
            "oudlers": oudlers,
            "points": points,
            "dealer": 0,
        }
        try:
            deal_record(sheet=sheet, data=data, user=self.arbiter)
        except DOMAIN_ERRORS:
            pass

    @rule(table=st.integers(0, 1), which=st.integers(0, 5))
    def arbiter_confirms(self, table, which):
        waiting = self.waiting(table)
        if waiting:
            deal = waiting[which % len(waiting)]
            try:
                deal_confirm_by_arbiter(
                    deal=deal, user=self.arbiter, expected_version=self.version(table)
                )
            except DOMAIN_ERRORS:
                pass

    @rule(table=st.integers(0, 1), which=st.integers(0, 5))
    def arbiter_deletes(self, table, which):
        deals = list(Deal.objects.filter(sheet=self.sheet(table)).order_by("number"))
        if deals:
            try:
                deal_delete(deal=deals[which % len(deals)], user=self.arbiter)
            except DOMAIN_ERRORS:
                pass

    @rule(table=st.integers(0, 1), validated=st.booleans())
    def arbiter_validates_or_reopens_a_sheet(self, table, validated):
        sheet = self.sheet(table)
        if sheet is None:
            return
        try:
            sheet_validate(
                sheet=sheet, validated=validated, reason="Vérification", user=self.arbiter
            )
        except DOMAIN_ERRORS:
            pass

    @rule(first=st.integers(0, 7), second=st.integers(0, 7))
    def arbiter_swaps_two_players(self, first, second):
        """The arbiter exchanges two players' seats (same table or across tables): refused once
        a table's sheet exists; done, the players' phones bind again at their new seats."""
        registrations = [Registration.objects.get(pk=r.pk) for r in self.registrations]
        try:
            seat_swap(
                position=Position.objects.get(pk=self.position.pk),
                first=registrations[first],
                second=registrations[second],
                user=self.arbiter,
            )
        except DOMAIN_ERRORS:
            return
        self.registrations[first], self.registrations[second] = (
            self.registrations[second],
            self.registrations[first],
        )
        self.swaps += 1
        self.phones.clear()
        self.last_body = None

    @rule(which=st.integers(0, 7))
    def a_player_withdraws(self, which):
        """A withdrawal: the player's deals already played still count, and only those."""
        registration = Registration.objects.get(pk=self.registrations[which].pk)
        try:
            registration_withdraw(registration=registration, user=self.arbiter)
        except DOMAIN_ERRORS:
            pass

    @rule()
    def arbiter_closes_the_position(self):
        try:
            position_close(position=Position.objects.get(pk=self.position.pk), user=self.arbiter)
        except DOMAIN_ERRORS:
            pass

    @rule()
    def arbiter_reopens_the_position(self):
        try:
            position_reopen(
                position=Position.objects.get(pk=self.position.pk),
                reason="Erreur",
                user=self.arbiter,
            )
        except DOMAIN_ERRORS:
            pass

    @rule()
    def arbiter_finishes_then_reopens_the_tournament(self):
        try:
            tournament_finish(
                tournament=Tournament.objects.get(pk=self.tournament.pk), user=self.arbiter
            )
            self.check_rankings()
            tournament_reopen(
                tournament=Tournament.objects.get(pk=self.tournament.pk),
                reason="Erreur",
                user=self.arbiter,
            )
        except DOMAIN_ERRORS:
            pass

    def check_pdf(self, expected: dict[str, int]) -> None:
        """The ranking PDF's figures, read back with pypdf, are the recount's."""
        response = self.desk.get(reverse("print-ranking", args=[self.tournament.pk]))
        assert response.status_code == 200
        pages = PdfReader(io.BytesIO(response.content)).pages
        text = "".join(page.extract_text() for page in pages).replace("\u2212", "-")
        printed = {}
        for line in text.splitlines():
            words = line.replace("\u202f", "").replace("\xa0", "").split()
            for name in expected:
                if name in words:
                    # the line's last figure is the total (after points and penalties)
                    printed[name] = int(words[-1].replace("+", ""))
        assert printed == expected
        self.pdf_checked = expected

    @rule()
    def a_backup_restores_to_the_same_rankings(self):
        document = json.dumps(tournament_export(Tournament.objects.get(pk=self.tournament.pk)))
        roster = list(Player.objects.values_list("pk", flat=True))
        restored = tournament_import(document, user=self.arbiter)
        assert self.totals(restored, public=False) == self.totals(self.tournament, public=False)
        assert self.totals(restored, public=True) == self.totals(self.tournament, public=True)
        restored.delete()
        # The restore's copies of the players go with it: the rows are again those last checked.
        Player.objects.exclude(pk__in=roster).filter(registrations=None).delete()

    # --- what must hold after every step ----------------------------------------------------

    def recount(self) -> dict[str, int]:
        """Each player's total recomputed by the pure engine from the confirmed deals only."""
        totals: dict[str, int] = {r.player.last_name: 0 for r in self.registrations}
        seats = {
            (sheet_id, seat): registration
            for sheet_id, seat, registration in SheetPlayer.objects.filter(
                sheet__tournament=self.tournament
            ).values_list("sheet_id", "seat", "registration__player__last_name")
        }
        for deal in Deal.objects.filter(sheet__tournament=self.tournament, pending=False):
            for seat, points in enumerate(engine_scores(deal)):
                totals[seats[(deal.sheet_id, seat)]] += points
        return totals

    @staticmethod
    def totals(tournament: Tournament, *, public: bool) -> dict[str, int]:
        standings = standings_for(Tournament.objects.get(pk=tournament.pk), public=public)
        return {
            standings.registrations[r.row.key].player.last_name: int(r.row.total)
            for r in standings.players
        }

    @invariant()
    def what_must_hold(self):
        """The checks below, again whenever a step changed a row (the state they read)."""
        if database_state() == self.checked_state:
            return
        self.check_rankings()
        self.one_copy_of_each_deal()
        self.every_waiting_deal_is_listed_for_the_arbiter()
        # Read after the checks: the pages they served stored their renders (the live store).
        self.checked_state = database_state()

    def check_rankings(self):
        expected = self.recount()
        assert self.totals(self.tournament, public=False) == expected
        assert self.totals(self.tournament, public=True) == expected
        response = self.desk.get(reverse("export-ranking-xlsx", args=[self.tournament.pk]))
        assert response.status_code == 200
        shown = xlsx_totals(response.content)
        assert {name: shown.get(name, 0) for name in expected} == expected
        # The PDF is printed again whenever the totals changed (its rendering is the costly
        # check: a step that changed nothing counted prints what was already compared).
        if expected != self.pdf_checked:
            self.check_pdf(expected)
        response = self.desk.get(reverse("export-ranking-csv", args=[self.tournament.pk]))
        assert response.status_code == 200
        assert csv_totals(response.content) == expected
        # The pages as they show them: the arbiter's ranking, the public one.
        ranking = self.desk.get(reverse("ranking", args=[self.tournament.pk]))
        public = Client().get(reverse("public-tournament", args=[self.tournament.pk]))
        for page in (ranking, public):
            assert page.status_code == 200
            assert html_totals(page.content.decode()) == expected
        self.ranking_page = ranking.content.decode()
        # The cockpit's leaders, and each player's card (its running total of counted deals).
        tournament = Tournament.objects.get(pk=self.tournament.pk)
        for ranked in cockpit_load(tournament).top:
            assert int(ranked.row.total) == expected[ranked.row.name.split()[0]], ranked.row
        for registration in self.registrations:
            rows = player_counted_deals(tournament, registration.pk)
            card = card_deals(rows, player_counted_penalties(tournament, registration.pk))
            assert card["deal_total"] == expected[registration.player.last_name]

    def one_copy_of_each_deal(self):
        seen = defaultdict(list)
        for sheet_id, number, client_id in Deal.objects.filter(
            sheet__tournament=self.tournament
        ).values_list("sheet_id", "number", "client_id"):
            seen[(sheet_id, "number", number)].append(1)
            if client_id:
                seen[(sheet_id, "client", client_id)].append(1)
        assert all(len(v) == 1 for v in seen.values()), seen

    def every_waiting_deal_is_listed_for_the_arbiter(self):
        waiting = [d for table in (0, 1) for d in self.waiting(table)]
        if not waiting:
            return
        # The arbiter's ranking page check_rankings just read (no row changed since).
        page = self.ranking_page
        for deal in waiting:
            assert f"table {deal.sheet.table.number}" in page.lower(), deal


WhatCounts.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.mark.slow
def test_what_counts_whatever_the_order_of_steps(db):
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(WhatCounts, settings=WhatCounts.TestCase.settings)
