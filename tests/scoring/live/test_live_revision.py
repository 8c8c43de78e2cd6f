"""The tournament's live revision: every write through a service moves it, in the write's own
transaction (a refused write leaves it), and no read of a live page does."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from scoring.sheets.services import deal_record
from tests.scoring.live.test_shared_standings import WRITES, built, sheet  # noqa: F401
from tournament.access import throttle
from tournament.access.audit import revision_of, settings_save
from tournament.evening.clock import clock_start
from tournament.evening.hall import hall_announcement_set, hall_link_create
from tournament.models import Position, Revision

pytestmark = pytest.mark.django_db

MORE_WRITES = {
    "setting saved": lambda b: settings_save(
        b["tournament"], ["tie_breaks"], {"tie_breaks": ["tables_won"]}
    ),
    "hall announcement": lambda b: hall_announcement_set(tournament=b["tournament"], text="Pause"),
    "clock started": lambda b: clock_start(
        position=Position.objects.get(pk=b["positions"][1].pk), minutes=30
    ),
}


@pytest.mark.parametrize("kind", [*WRITES, *MORE_WRITES])
def test_a_write_through_each_service_moves_the_revision(built, kind):  # noqa: F811
    tournament = built["tournament"]
    before = revision_of(tournament.pk)
    {**WRITES, **MORE_WRITES}[kind](built)
    assert revision_of(tournament.pk) > before


def test_a_write_rolled_back_leaves_the_revision(built):  # noqa: F811
    tournament = built["tournament"]
    before = revision_of(tournament.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        WRITES["deal recorded"](built)
        assert revision_of(tournament.pk) > before  # moved inside the write's transaction
        raise RuntimeError
    assert revision_of(tournament.pk) == before


def test_no_read_of_a_live_page_moves_the_revision(client, arbiter_client, built):  # noqa: F811
    tournament = built["tournament"]
    hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    deal_record(
        sheet=sheet(built, 1, 1),
        data=dict(taker=2, contract="garde", oudlers=3, points=41, players=4),
    )
    registration = built["registrations"]["C"]
    before = revision_of(tournament.pk)
    reads = [
        reverse("public-tournament", args=[tournament.pk]),
        reverse("public-standings-partial", args=[tournament.pk]),
        reverse("public-player", args=[tournament.pk, registration.pk]),
        reverse("hall-screen", args=[tournament.hall_token]),
        reverse("hall-slides", args=[tournament.hall_token]),
    ]
    for _twice in range(2):  # computed and stored, then served from the store
        for url in reads:
            assert client.get(url).status_code == 200, url
        for name in ("tournament-detail", "cockpit-live", "ranking"):
            assert arbiter_client.get(reverse(name, args=[tournament.pk])).status_code == 200
    assert revision_of(tournament.pk) == before


def test_a_sheets_own_write_leaves_the_other_tables_revision(built):  # noqa: F811
    """Revision.common, which the tables' phone pages read: a deal moves the tournament's
    revision (every public page shows it) but not common; a write beyond one sheet moves both."""
    tournament = built["tournament"]
    row = Revision.objects.get(pk=tournament.pk)
    deal_record(
        sheet=sheet(built, 1, 1),
        data=dict(taker=2, contract="garde", oudlers=3, points=41, players=4),
    )
    after_deal = Revision.objects.get(pk=tournament.pk)
    assert after_deal.number > row.number and after_deal.common == row.common
    MORE_WRITES["hall announcement"](built)
    after_setting = Revision.objects.get(pk=tournament.pk)
    assert after_setting.number > after_deal.number and after_setting.common > row.common


def test_a_code_attempt_moves_the_cockpit_alone(client, arbiter_client, built):  # noqa: F811
    """A phone typing its code (or anyone guessing one) shows on the cockpit only (a locked
    code): the public pages and the hall stay a 304, the cockpit answers anew."""
    tournament = built["tournament"]
    hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    public = [
        reverse("public-standings-partial", args=[tournament.pk]),
        reverse("public-player", args=[tournament.pk, built["registrations"]["C"].pk]),
        reverse("hall-slides", args=[tournament.hall_token]),
    ]
    cockpit = reverse("cockpit-live", args=[tournament.pk])
    tags = {url: client.get(url)["ETag"] for url in public}
    cockpit_tag = arbiter_client.get(cockpit)["ETag"]
    before = revision_of(tournament.pk)

    links = {"tournament_id": tournament.pk, "registration_id": None, "table_id": None}
    assert throttle.gate("pin:guess", allowance=5, lock=60.0, links=links)
    throttle.hit("pin:typed", 60.0, links=links)

    assert revision_of(tournament.pk) == before
    assert revision_of(tournament.pk, attempts=True) == before + 2
    for url, tag in tags.items():
        assert client.get(url, headers={"if-none-match": tag}).status_code == 304, url
    answer = arbiter_client.get(cockpit, headers={"if-none-match": cockpit_tag})
    assert answer.status_code == 200 and answer["ETag"] != cockpit_tag
