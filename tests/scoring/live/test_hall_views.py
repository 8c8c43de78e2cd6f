"""The hall screen: a revocable secret link, no login, only what is published, ETag-polled."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.documents import backup
from scoring.live.versioned import COALESCE_MAX_SECONDS as KEEP_SECONDS
from scoring.live.views.hall import HALL
from scoring.models import Deal, LiveArtifact
from tests.desk_helpers import DEALS_004, NAMES_004, deal_post, make_tournament, table_sheet
from tournament.evening import clock, hall
from tournament.models import ChangeLog, Player, Position, Registration, Seat, Table, Tournament
from tournament.models.audit import revision_bump

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(arbiter_client):
    """Position 1 published (two tables, the first one's deals typed), position 2 in draft
    seating a player who plays nowhere else."""
    tournament, position = make_tournament(tables=2, names=NAMES_004)
    sheet = table_sheet(arbiter_client, position, 1)
    for fields in DEALS_004:
        deal_post(arbiter_client, sheet, fields)
    draft = Position.objects.create(tournament=tournament, number=2)
    table = Table.objects.create(position=draft, number=1)
    late = Registration.objects.create(
        tournament=tournament, player=Player.objects.create(last_name="RETARDATAIRE"), number=99
    )
    Seat.objects.create(table=table, registration=late, direction="N")
    hall.hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    return tournament, position, sheet


def screen(token: str, client=None):
    return (client or Client()).get(reverse("hall-screen", args=[token]))


def test_the_hall_screen_opens_without_login_and_shows_the_published_position(evening):
    tournament, _position, _sheet = evening
    response = screen(tournament.hall_token)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Position 1 : qui est où" in html
    assert "Position 1 : plan des tables" in html
    for name in NAMES_004.values():
        assert name in html
    assert "Classement provisoire" in html
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert response["Referrer-Policy"] == "no-referrer"


def test_a_draft_position_never_shows(evening):
    tournament, _position, _sheet = evening
    html = screen(tournament.hall_token).content.decode()
    assert "RETARDATAIRE" not in html
    assert "Position 2" not in html
    slides = Client().get(reverse("hall-slides", args=[tournament.hall_token])).content.decode()
    assert "RETARDATAIRE" not in slides and "Position 2" not in slides


def test_deals_waiting_for_a_phone_confirmation_count_nowhere_on_the_screen(evening):
    tournament, _position, sheet = evening
    html = screen(tournament.hall_token).content.decode()
    assert ">1346<" in html  # DUPONT's total from 004's five deals
    Deal.objects.filter(sheet=sheet, number=5).update(pending=True)
    revision_bump(tournament.pk)  # as every write does, in its transaction
    html = screen(tournament.hall_token).content.decode()
    assert ">1346<" not in html


def test_a_revoked_or_renewed_link_answers_404(evening):
    tournament, _position, _sheet = evening
    old = tournament.hall_token
    assert len(old) == 43
    hall.hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.hall_token != old
    assert screen(old).status_code == 404
    assert Client().get(reverse("hall-slides", args=[old])).status_code == 404
    assert screen(tournament.hall_token).status_code == 200
    hall.hall_link_revoke(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.hall_token is None
    for token in (old, "x" * 43, "None", ""):
        if token:
            assert screen(token).status_code == 404, token


def test_the_link_is_created_and_revoked_from_the_cockpit_and_logged(arbiter_client, evening):
    tournament, _position, _sheet = evening
    hall.hall_link_revoke(tournament=tournament)
    page = arbiter_client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert "Créer le lien de l&#x27;écran de salle" in page or "Créer le lien de l'écran" in page
    response = arbiter_client.post(reverse("hall-link-create", args=[tournament.pk]))
    assert response.status_code == 302
    tournament.refresh_from_db()
    token = tournament.hall_token
    page = arbiter_client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert reverse("hall-screen", args=[token]) in page
    arbiter_client.post(reverse("hall-link-revoke", args=[tournament.pk]))
    assert screen(token).status_code == 404
    changes = ChangeLog.objects.filter(object_type="tournament", tournament=tournament)
    assert not any(token in str(change.after) for change in changes)  # a credential
    assert [c.after for c in changes.order_by("pk")][-2:] == [
        {"hall_link": "new"},
        {"hall_link": False},
    ]


def test_the_announcement_is_set_from_the_cockpit_and_shown(arbiter_client, evening):
    tournament, _position, _sheet = evening
    url = reverse("hall-announcement", args=[tournament.pk])
    arbiter_client.post(url, {"hall_announcement": "  Remise des prix\n à 18 h  "})
    tournament.refresh_from_db()
    assert tournament.hall_announcement == "Remise des prix à 18 h"
    assert "Remise des prix à 18 h" in screen(tournament.hall_token).content.decode()
    response = arbiter_client.post(url, {"hall_announcement": "x" * 201}, follow=True)
    assert "Annonce en salle : 200 caractères au plus" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.hall_announcement == "Remise des prix à 18 h"


def test_the_slides_answer_304_until_something_changes_with_the_clock_in_a_header(
    arbiter_client, evening
):
    tournament, position, sheet = evening
    url = reverse("hall-slides", args=[tournament.hall_token])
    client = Client()
    first = client.get(url)
    assert first.status_code == 200 and "no-store" in first["Cache-Control"]
    assert first["X-Position-Clock"].startswith('{"position": 1')
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    clock.clock_start(position=position)
    started = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert started.status_code == 200  # the clock's history record moves the fingerprint
    assert '"running": true' in started["X-Position-Clock"]
    # An unchanged screen still gets the seconds left with its 304.
    still = client.get(url, HTTP_IF_NONE_MATCH=started["ETag"])
    assert still.status_code == 304
    assert '"running": true' in still["X-Position-Clock"]
    deal_post(arbiter_client, table_sheet(arbiter_client, position, 2), DEALS_004[0])
    assert client.get(url, HTTP_IF_NONE_MATCH=started["ETag"]).status_code == 200


def slow(tournament: Tournament) -> None:
    """The slides as if they had taken a second to render: kept KEEP_SECONDS."""
    renders = LiveArtifact.objects.filter(tournament=tournament, what=HALL)
    renders.update(computed_at=timezone.now(), compute_seconds=1)


def test_served_slides_are_kept_a_poll_period_whatever_comes(arbiter_client, evening, settings):
    """With the public standings coalesced (as served), slides rendered less than a few times
    their computing time ago (at most KEEP_SECONDS) are kept: a deal does not re-render the
    room's plan at once; past that, it shows."""
    settings.LIVE_STANDINGS_COALESCE = 10
    tournament, position, _sheet = evening
    url = reverse("hall-slides", args=[tournament.hall_token])
    client = Client()
    first = client.get(url)
    slow(tournament)
    deal_post(arbiter_client, table_sheet(arbiter_client, position, 2), DEALS_004[0])
    LiveArtifact.objects.filter(what="ranking").update(
        computed_at=timezone.now() - timedelta(minutes=1)
    )
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    renders = LiveArtifact.objects.filter(tournament=tournament, what=HALL)
    renders.update(computed_at=timezone.now() - timedelta(seconds=KEEP_SECONDS + 1))
    later = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert later.status_code == 200 and later["ETag"] != first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=later["ETag"]).status_code == 304


def test_the_screen_opens_on_the_slides_its_polls_get(arbiter_client, evening, settings):
    """A screen (re)opened while slides are kept shows those, under their ETag: its first poll
    answers 304, not a 200 going back to older standings than the page showed."""
    settings.LIVE_STANDINGS_COALESCE = 10
    tournament, position, _sheet = evening
    url = reverse("hall-slides", args=[tournament.hall_token])
    client = Client()
    slides = client.get(url)
    slow(tournament)
    deal_post(arbiter_client, table_sheet(arbiter_client, position, 2), DEALS_004[0])
    LiveArtifact.objects.filter(what="ranking").update(
        computed_at=timezone.now() - timedelta(minutes=1)
    )
    html = screen(tournament.hall_token, client).content.decode()
    assert f'data-etag="{slides["ETag"].removeprefix("W/").strip(chr(34))}"' in html
    assert slides.content.decode() in html
    assert client.get(url, HTTP_IF_NONE_MATCH=slides["ETag"]).status_code == 304
    # Once the slides are no longer kept, the screen opens on the new standings.
    renders = LiveArtifact.objects.filter(tournament=tournament, what=HALL)
    renders.update(computed_at=timezone.now() - timedelta(seconds=KEEP_SECONDS + 1))
    html = screen(tournament.hall_token, client).content.decode()
    assert f'data-etag="{slides["ETag"].removeprefix("W/").strip(chr(34))}"' not in html


def test_publishing_the_next_position_shows_it(arbiter_client, evening):
    tournament, position, _sheet = evening
    Position.objects.filter(tournament=tournament, number=2).delete()
    draft = Position.objects.create(tournament=tournament, number=2)
    for table in position.tables.all():
        copy = Table.objects.create(position=draft, number=table.number)
        for seat in table.seats.all():
            Seat.objects.create(
                table=copy, registration=seat.registration, direction=seat.direction
            )
    Registration.objects.filter(number=99).delete()
    # Position 1's sheets are still coming in: the arbiter confirms publishing anyway.
    response = arbiter_client.post(
        reverse("position-publish", args=[tournament.pk, 2]), {"confirm": "1"}
    )
    assert response.status_code == 302
    html = screen(tournament.hall_token).content.decode()
    assert "Position 2 : qui est où" in html
    assert "Position 1 : qui est où" not in html


def test_a_restored_backup_gets_no_hall_link(evening, arbiter):
    tournament, _position, _sheet = evening
    restored = backup.tournament_import(backup.tournament_export_json(tournament), user=arbiter)
    assert restored.hall_token is None
    assert Tournament.objects.get(pk=tournament.pk).hall_token == tournament.hall_token
    assert screen(tournament.hall_token).status_code == 200


def test_the_hall_screen_queries_do_not_grow_with_the_tournament(arbiter_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for tables in (1, 8):
        tournament, position = make_tournament(tables=tables, name=f"Salle {tables}")
        for number in range(1, tables + 1):
            deal_post(arbiter_client, table_sheet(arbiter_client, position, number), DEALS_004[0])
        hall.hall_link_create(tournament=tournament)
        tournament.refresh_from_db()
        clock.clock_start(position=position)
        with CaptureQueriesContext(connection) as ctx:
            assert (
                Client().get(reverse("hall-slides", args=[tournament.hall_token])).status_code
                == 200
            )
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_team_tournaments_show_the_team_standings(arbiter_client):
    from tournament.models import Team

    tournament, position = make_tournament(tables=1, names=NAMES_004, format="duo")
    team = Team.objects.create(tournament=tournament, name="Les Sudistes")
    Registration.objects.filter(tournament=tournament, seats__direction__in=["S", "W"]).update(
        team=team
    )
    sheet = table_sheet(arbiter_client, position, 1)
    for fields in DEALS_004:
        deal_post(arbiter_client, sheet, fields)
    hall.hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    html = screen(tournament.hall_token).content.decode()
    assert "Classement par équipes" in html
    assert "Les Sudistes" in html
