"""Issue 36's property: for any sequence of registrations, imports, merges and licence-conflict
steps by two clubs' staff (each of them trying the other's people too), with deals played at
the desk in each club's evening before it finishes, no finished tournament's names or results
(every deal's score of every player) change, and no page served to one club names a private person
of the other (one shared by consent, a merge both clubs agreed to, is no longer private)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from scoring.models import DealScore
from tests.club_helpers import join_club
from tests.desk_helpers import DEALS_004, deal_post, table_sheet
from tournament.models import LicenceConflict, Player, Position, Registration, Seat, Tournament

pytestmark = pytest.mark.django_db

CLUBS = ("A", "B")
ROLES = ("admin", "arbiter")
LICENCES = {"A": ["0510001", "0510002"], "B": ["0610001", "0610002"]}
FRESH = ["0710001", "0710002"]
PAYLOADS = [
    {"resolution": "merge", "entry": "newcomer"},
    {"resolution": "merge", "entry": "existing"},
    {"resolution": "correct", "entry": "existing"},
    {"resolution": "correct", "entry": "newcomer"},
    {"accept": "1"},
    {"accept": "0"},
]


PLAYED: list[int] = []  # finished evenings whose deals were compared, over all examples


def results(tournament_id: int) -> list[tuple]:
    """What a finished tournament shows of its people: each registration and the name on it,
    and each deal's score of each of them."""
    registrations = (
        Registration.objects.filter(tournament_id=tournament_id)
        .order_by("pk")
        .values_list("pk", "number", "status", "player_id", "player__last_name", "player__licence")
    )
    scores = (
        DealScore.objects.filter(deal__sheet__tournament_id=tournament_id)
        .order_by("deal__number", "registration_id")
        .values_list("deal__number", "registration_id", "registration__player_id", "points")
    )
    return [*registrations, *scores]


class TwoClubs(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        from django.contrib.auth import get_user_model

        # Each example from the same database: its writes are rolled back in teardown.
        self.atomic = transaction.atomic()
        self.atomic.__enter__()
        self.count = 0
        self.clients: dict[tuple[str, str], Client] = {}
        self.running: dict[str, Tournament] = {}
        self.club_pk: dict[str, int] = {}
        self.private: dict[str, set[str]] = {"A": set(), "B": set()}
        self.finished: dict[int, list[tuple]] = {}
        users = get_user_model().objects
        for club in CLUBS:
            admin = users.create_user(f"admin-{club}-{id(self)}")
            arbiter = users.create_user(f"arbitre-{club}-{id(self)}")
            name = f"Club {club} {id(self)}"
            self.club_pk[club] = join_club(admin, name, "admin").pk
            join_club(arbiter, name, "arbiter")
            for role, user in (("admin", admin), ("arbiter", arbiter)):
                self.clients[(club, role)] = Client()
                self.clients[(club, role)].force_login(user)
            # The arbiter runs the club's evening with its administrator (a co-arbiter).
            running = Tournament.objects.create(
                name=f"Soirée {club}", date="2026-11-28", host_club_id=self.club_pk[club],
                owner=admin,
            )  # fmt: skip
            running.roles.create(user=arbiter, role="arbiter")
            self.running[club] = running
            past = Tournament.objects.create(
                name=f"Nocturne {club}", date="2026-10-01", host_club_id=self.club_pk[club],
                owner=admin, is_public=False,
            )  # fmt: skip
            for n, licence in enumerate(LICENCES[club]):
                last = self.name(club)
                player = Player.objects.create(
                    last_name=last, licence=licence, origin_club_id=self.club_pk[club]
                )
                Registration.objects.create(tournament=past, player=player, number=n + 1)
            Tournament.objects.filter(pk=past.pk).update(status=Tournament.Status.FINISHED)
            self.finished[past.pk] = results(past.pk)

    def name(self, club: str) -> str:
        """A new private person of `club`, named so that no name holds another."""
        self.count += 1
        name = f"PRIV{club}Q{self.count}Q"
        self.private[club].add(name)
        return name

    @rule(
        club=st.sampled_from(CLUBS),
        role=st.sampled_from(ROLES),
        licence=st.sampled_from([*LICENCES["A"], *LICENCES["B"], *FRESH, ""]),
    )
    def register(self, club, role, licence):
        url = reverse("player-register", args=[self.running[club].pk])
        self.clients[(club, role)].post(url, {"last_name": self.name(club), "licence": licence})

    @rule(
        club=st.sampled_from(CLUBS),
        role=st.sampled_from(ROLES),
        licences=st.lists(st.sampled_from([*LICENCES["A"], *LICENCES["B"], *FRESH]), max_size=3),
    )
    def import_file(self, club, role, licences):
        rows = "\n".join(f"{self.name(club)};;{licence}" for licence in licences)
        client = self.clients[(club, role)]
        url = reverse("player-import", args=[self.running[club].pk])
        content = f"nom;prénom;licence\n{rows}".encode()
        client.post(url, {"file": SimpleUploadedFile("j.csv", content)})
        client.post(url, {"confirm": "1"})

    @rule(club=st.sampled_from(CLUBS), role=st.sampled_from(ROLES), data=st.data())
    def merge(self, club, role, data):
        pks = list(Player.objects.order_by("pk").values_list("pk", flat=True))
        if len(pks) < 2:
            return
        keep = pks[data.draw(st.integers(0, 99)) % len(pks)]
        drop = pks[data.draw(st.integers(0, 99)) % len(pks)]
        self.clients[(club, role)].post(reverse("player-merge"), {"keep": keep, "drop": drop})

    @rule(club=st.sampled_from(CLUBS), role=st.sampled_from(ROLES), data=st.data())
    def conflict_step(self, club, role, data):
        conflicts = list(LicenceConflict.objects.order_by("pk"))
        if not conflicts:
            return
        conflict = conflicts[data.draw(st.integers(0, 99)) % len(conflicts)]
        names = {p.last_name for p in (conflict.existing, conflict.newcomer) if p is not None}
        payload = data.draw(st.sampled_from(PAYLOADS))
        self.clients[(club, role)].post(reverse("licence-conflict", args=[conflict.pk]), payload)
        conflict.refresh_from_db()
        if conflict.status == "resolved" and conflict.resolution == "merge":
            for private in self.private.values():  # one person now, by both clubs' consent
                private -= names

    @rule(club=st.sampled_from(CLUBS), deals=st.integers(1, 3))
    def play_deals(self, club, deals):
        """The club's administrator types deals at the desk on the evening's table."""
        client = self.clients[(club, "admin")]
        sheet = self.sheet(club)
        played = sheet.deals.count()
        for fields in DEALS_004[played : played + deals]:
            response = deal_post(client, sheet, fields)
            assert response.status_code == 200, response.content.decode()[:300]
        assert sheet.deals.count() == min(len(DEALS_004), played + deals)

    def sheet(self, club):
        """The evening's one table (four of its players seated at the first call), its sheet."""
        running, client = self.running[club], self.clients[(club, "admin")]
        position = running.positions.first()
        if position is None:
            url = reverse("player-register", args=[running.pk])
            for _ in range(4 - running.registrations.filter(status="active").count()):
                client.post(url, {"last_name": self.name(club), "other_player": "1"})
            position = Position.objects.create(tournament=running, number=1, status="published")
            table = position.tables.create(number=1, game="four")
            active = running.registrations.filter(status="active").order_by("pk")[:4]
            for direction, registration in zip("NESW", active, strict=True):
                Seat.objects.create(table=table, registration=registration, direction=direction)
        return table_sheet(client, position)

    @rule(club=st.sampled_from(CLUBS))
    def finish_the_evening(self, club):
        """The evening ends, deals played (some played now if none were): its results are
        locked; a new evening starts."""
        running = self.running[club]
        if not DealScore.objects.filter(deal__sheet__tournament=running).exists():
            self.play_deals(club, 2)
        Tournament.objects.filter(pk=running.pk).update(status=Tournament.Status.FINISHED)
        self.finished[running.pk] = results(running.pk)
        assert any(len(row) == 4 for row in self.finished[running.pk])  # deals' scores
        PLAYED.append(running.pk)
        self.running[club] = Tournament.objects.create(
            name=f"Soirée {club} {self.count}", date="2026-11-29",
            host_club_id=running.host_club_id, owner=running.owner,
        )  # fmt: skip
        self.running[club].roles.create(user=running.roles.get().user, role="arbiter")

    @invariant()
    def finished_tournaments_keep_their_results(self):
        for pk, before in self.finished.items():
            assert results(pk) == before, f"finished tournament {pk} changed"

    @invariant()
    def no_page_names_the_other_clubs_private_people(self):
        for club in CLUBS:
            other = self.private["B" if club == "A" else "A"]
            if not other:
                continue
            client = self.clients[(club, "admin")]
            urls = [
                reverse("home"),
                reverse("licence-conflicts", args=[self.club_pk[club]]),
                reverse("player-list", args=[self.running[club].pk]),
                reverse("player-search") + "?q=PRIV",
                *(reverse("licence-conflict", args=[pk]) for pk in self.conflict_ids()),
            ]
            for url in urls:
                text = client.get(url).content.decode()
                shown = sorted(name for name in other if name in text)
                assert not shown, (club, url, shown)

    def teardown(self):
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)

    def conflict_ids(self) -> list[int]:
        return list(LicenceConflict.objects.order_by("pk").values_list("pk", flat=True))


@pytest.mark.slow
def test_two_clubs_never_rewrite_finished_results_nor_show_each_others_people(db):
    run_state_machine_as_test(
        TwoClubs,
        settings=settings(
            max_examples=12,
            stateful_step_count=10,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
    assert PLAYED, "no evening with deals was finished: the property checked no results"
