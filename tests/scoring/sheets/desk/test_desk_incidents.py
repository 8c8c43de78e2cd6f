"""Incidents and their consequences: penalties, barred bidders, cancelled deals, adjusted scores."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.core.penalties import Penalty, penalty_adjustments
from scoring.live.standings import standings_for
from scoring.models import Incident
from tests.desk_helpers import (
    DEALS_004,
    deal_post,
    incident_post,
)

NORD, EST, SUD, OUEST = 0, 1, 2, 3


def test_a_charged_penalty_only_takes_points_from_the_culprit():
    assert penalty_adjustments([Penalty("a", 50, table=("a", "b", "c", "d"))]) == {"a": -50}


def test_a_shared_penalty_stays_zero_sum_and_splits_the_remainder_in_table_order():
    totals = penalty_adjustments([Penalty("b", 50, shared=True, table=("a", "b", "c", "d"))])
    assert totals == {"b": -50, "a": 17, "c": 17, "d": 16}
    assert sum(totals.values()) == 0


def test_penalties_add_up_per_player():
    totals = penalty_adjustments([Penalty("a", 10), Penalty("a", 20), Penalty("b", 0)])
    assert totals == {"a": -30}


def registration_at(sheet, seat):
    return sheet.players.get(seat=seat).registration


def incident(client, tournament, sheet, seat, **fields):
    """Report an incident of the player at `seat` on the sheet: (the player, the response)."""
    culprit = registration_at(sheet, seat)
    return culprit, incident_post(client, tournament, sheet, culprit, **fields)


def sheet_html(client, sheet) -> str:
    return client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()


@pytest.mark.django_db
def test_a_renonce_with_penalty_points_shows_a_separate_line(
    arbiter_client, after_position_1, sheet_004
):
    tournament, sheet = after_position_1, sheet_004
    culprit, response = incident(
        arbiter_client, tournament, sheet, SUD, kind="renonce_taker", deal_number=5,
        penalty_points=50, decision="Pénalité de 50 points",
    )  # fmt: skip
    assert response.status_code == 302
    html = sheet_html(arbiter_client, sheet)
    assert 'id="penalties"' in html and "-50" in html
    assert "1296" in html  # Sud's bilan with the penalty: 1346 − 50
    assert "Renonce du preneur" in html
    assert penalty_adjustments_ranked(tournament) == {culprit.pk: -50}
    # The deal rows still sum to zero: the penalty is outside them.
    assert sum(sum(d.scores) for d in sheet.deals.all()) == 0


def penalty_adjustments_ranked(tournament) -> dict[int, int]:
    """Each registration's signed penalty adjustment as the ranking counts it (non-zero ones)."""
    rows = standings_for(tournament).rows_by_key
    return {pk: row.penalty for pk, row in rows.items() if row.penalty}


@pytest.mark.django_db
def test_the_organiser_s_default_amount_applies_and_may_be_shared(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    tournament.penalty_defaults = {"carte_exposee": 30}
    tournament.share_penalties = True
    tournament.save()
    culprit, _response = incident(arbiter_client, tournament, sheet, NORD, kind="carte_exposee")
    recorded = Incident.objects.get()
    assert recorded.penalty_points == 30 and recorded.shared
    totals = penalty_adjustments_ranked(tournament)
    assert totals[culprit.pk] == -30 and sum(totals.values()) == 0 and len(totals) == 4


@pytest.mark.django_db
def test_after_a_fausse_donne_the_culprit_may_not_bid_on_that_deal(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    incident(arbiter_client, tournament, sheet, EST, kind="fausse_donne", deal_number=1)
    html = sheet_html(arbiter_client, sheet)
    assert "fausse donne et ne peut pas enchérir" in html
    html = deal_post(arbiter_client, sheet, DEALS_004[0]).content.decode()  # Est takes
    assert sheet.deals.count() == 0
    assert "ne peut pas enchérir" in html
    deal_post(arbiter_client, sheet, {**DEALS_004[0], "taker": "N", "poignees": ""})
    assert sheet.deals.get().dealer == 0  # the same dealer dealt again


@pytest.mark.django_db
def test_a_revoke_in_defence_bars_the_next_deal_and_the_taker_may_skip_the_score(
    arbiter_client, desk_sheet_004
):
    tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[2] | {"taker": "N", "poignees": ""})  # lost
    deal = sheet.deals.get()
    assert deal.scores[NORD] < 0
    incident(arbiter_client, tournament, sheet, OUEST, kind="renonce_defence", deal_number=1)
    html = sheet_html(arbiter_client, sheet)
    assert "renonce en défense à la donne 1" in html
    deal_post(arbiter_client, sheet, {**DEALS_004[1], "taker": "O"})
    assert sheet.deals.count() == 1  # Ouest may not take deal 2
    adjust_url = reverse("deal-adjust", args=[deal.pk])
    assert "Ne pas marquer le score" in arbiter_client.get(adjust_url).content.decode()
    sheet.refresh_from_db()
    arbiter_client.post(
        reverse("deal-score-recorded", args=[deal.pk]),
        {"action": "not_recorded", "version": sheet.version},
    )
    deal.refresh_from_db()
    assert deal.score_not_recorded and deal.scores == [0, 0, 0, 0]
    assert "score non marqué" in sheet_html(arbiter_client, sheet)


@pytest.mark.django_db
def test_the_score_is_always_recorded_without_a_revoke(arbiter_client, desk_sheet_004):
    _tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[2])
    deal = sheet.deals.get()
    sheet.refresh_from_db()
    arbiter_client.post(
        reverse("deal-score-recorded", args=[deal.pk]),
        {"action": "not_recorded", "version": sheet.version},
    )
    deal.refresh_from_db()
    assert not deal.score_not_recorded and deal.scores != [0, 0, 0, 0]


@pytest.mark.django_db
def test_a_petit_sec_cancels_the_deal(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[0])
    incident(
        arbiter_client, tournament, sheet, NORD, kind="petit_sec", deal_number=1, penalty_points=0
    )
    deal = sheet.deals.get()
    assert deal.cancelled and deal.scores == [0, 0, 0, 0]
    html = sheet_html(arbiter_client, sheet)
    assert "Donne annulée" in html and "0 donnes sur 5" in html


@pytest.mark.django_db
def test_an_adjusted_score_replaces_the_row_with_a_reason(arbiter_client, desk_sheet_004):
    _tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[0])  # Est's garde, won
    deal = sheet.deals.get()
    url = reverse("deal-adjust", args=[deal.pk])
    sheet.refresh_from_db()
    response = arbiter_client.post(url, {"version": sheet.version, "margin": 10, "reason": ""})
    assert "obligatoire" in response.content.decode()
    response = arbiter_client.post(
        url, {"version": sheet.version, "margin": 10, "reason": "Renonce du preneur"}
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    # Garde declared lost by 10: (25 + 10) × 2 = 70 to each defender.
    assert deal.adjusted and deal.scores == [70, -210, 70, 70]
    assert deal.computed_scores == [-106, 318, -106, -106]
    html = sheet_html(arbiter_client, sheet)
    assert "score arbitral" in html and "Score arbitral" in html
    sheet.refresh_from_db()
    response = arbiter_client.post(
        url,
        {"version": sheet.version, "reason": "x", "score_0": 10, "score_1": 0, "score_2": 0,
         "score_3": 0},
    )  # fmt: skip
    assert "doivent faire zéro" in response.content.decode()
    arbiter_client.post(reverse("deal-adjust-clear", args=[deal.pk]), {"version": sheet.version})
    deal.refresh_from_db()
    assert not deal.adjusted and deal.scores == deal.computed_scores


@pytest.mark.django_db
def test_the_incident_log_filters_by_type_position_table_and_player(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    nord, _response = incident(
        arbiter_client, tournament, sheet, NORD, kind="ethics", note="remarque déplacée",
        penalty_points=0,
    )  # fmt: skip
    incident(arbiter_client, tournament, sheet, EST, kind="lateness", note="dix minutes",
             penalty_points=0)  # fmt: skip
    url = reverse("incident-list", args=[tournament.pk])
    html = arbiter_client.get(url).content.decode()
    assert "remarque déplacée" in html and "dix minutes" in html
    html = arbiter_client.get(url, {"kind": "lateness"}).content.decode()
    assert "dix minutes" in html and "remarque déplacée" not in html
    html = arbiter_client.get(url, {"player": nord.pk}).content.decode()
    assert "remarque déplacée" in html and "dix minutes" not in html
    html = arbiter_client.get(url, {"position": 1, "table": 1}).content.decode()
    assert "remarque déplacée" in html and "dix minutes" in html
    html = arbiter_client.get(url, {"table": 2}).content.decode()
    assert "Aucun incident" in html


@pytest.mark.django_db
def test_only_arbiters_set_the_default_penalties(scorer, arbiter_client, desk_sheet_004):
    tournament, _sheet = desk_sheet_004
    url = reverse("penalty-settings", args=[tournament.pk])
    scorer_client = Client()
    scorer_client.force_login(scorer)
    assert scorer_client.get(url).status_code == 403
    response = arbiter_client.post(url, {"kind_renonce_taker": 40, "share_penalties": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.penalty_defaults == {"renonce_taker": 40} and tournament.share_penalties
