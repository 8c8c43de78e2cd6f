"""The arbiter validates sheets; with 'validated sheets only', the public sees just those."""

import pytest

from scoring.live.standings import standings_for
from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table
from tests.tournament.access.test_roles_every_url import tournament_with_a_sheet
from tournament.models import ChangeLog, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(arbiter):
    """A published table with a deal, run by the `arbiter` fixture."""
    return tournament_with_a_sheet("Open", arbiter)


def public_total(tournament_pk: int) -> int:
    standings = standings_for(Tournament.objects.get(pk=tournament_pk), public=True)
    return sum(abs(ranked.row.total) for ranked in standings.players)


def test_validation_puts_a_sheet_on_the_public_standings(arbiter_client, world):
    tournament = Tournament.objects.get(pk=world["tournament"])
    tournament.public_requires_validation = True
    tournament.save()
    assert public_total(tournament.pk) == 0
    sheet = ScoreSheet.objects.get(pk=world["sheet"])
    response = arbiter_client.post(
        f"/feuilles/{sheet.pk}/validation/", {"validated": "1", "version": sheet.version}
    )
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.VALIDATED
    assert public_total(tournament.pk) > 0
    assert ChangeLog.objects.filter(object_type="sheet_status", sheet=sheet).exists()
    page = arbiter_client.get(f"/feuilles/{sheet.pk}/")
    assert "Validée par l'arbitre" in page.text


def test_validation_of_a_stale_sheet_is_refused(arbiter_client, world):
    sheet = ScoreSheet.objects.get(pk=world["sheet"])
    old = sheet.version
    deal_record(
        sheet=sheet_for_table(table=sheet.table),
        data={"players": 4, "taker": 1, "contract": "prise", "oudlers": 1, "points": 60},
    )
    response = arbiter_client.post(
        f"/feuilles/{sheet.pk}/validation/", {"validated": "1", "version": old}
    )
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.status != ScoreSheet.Status.VALIDATED


def test_scorers_cannot_validate(client, scorer, world):
    client.force_login(scorer)
    sheet = ScoreSheet.objects.get(pk=world["sheet"])
    response = client.post(f"/feuilles/{sheet.pk}/validation/", {"validated": "1"})
    assert response.status_code == 403


def test_tournament_form_sets_tie_breaks_and_validation_policy(arbiter_client, world):
    tournament = Tournament.objects.get(pk=world["tournament"])
    form = arbiter_client.get(f"/tournois/{tournament.pk}/modifier/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "tie_breaks"}
    data.update(
        date="2026-11-21",
        public_requires_validation="on",
        tie_breaks=["fewest_penalties"],
        is_public="on",
    )
    response = arbiter_client.post(f"/tournois/{tournament.pk}/modifier/", data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.public_requires_validation
    assert tournament.tie_breaks == ["fewest_penalties"]
