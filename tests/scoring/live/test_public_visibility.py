"""Public means public everywhere: a public championship's page, PDF and XLSX and the public
season statistics count only what the tournaments' own public pages count (published, confirmed,
validated where the tournament asks), never a private tournament nor another club's; the merge
page lists only the tournaments its user may see."""

import datetime
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import Deal, DealScore, ScoreSheet, SheetPlayer
from tests.scoring.season.championship_helpers import championship, evening, people
from tournament.models import Club, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

NAMES = ("ANNE", "BRUNO", "CLAIRE", "DENIS")


def publish(*tournaments: Tournament, **settings) -> None:
    Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).update(is_public=True, **settings)


def phone_deal(sheet: ScoreSheet, scores: list[int], *, pending: bool) -> Deal:
    """A deal as the table's phones leave it: `pending` until an opponent confirms it."""
    number = sheet.deals.count() + 1
    deal = Deal.objects.create(
        sheet=sheet, number=number, players=len(scores), scores=scores, adjusted=True,
        pending=pending,
    )  # fmt: skip
    for seated in SheetPlayer.objects.filter(sheet=sheet):
        DealScore.objects.create(
            deal=deal,
            registration_id=seated.registration_id,
            seat=seated.seat,
            points=scores[seated.seat],
        )
    return deal


@pytest.fixture
def season(arbiter):
    """One finished evening, public, publishing only validated sheets: ANNE first, DENIS last.
    The championship holding it is public."""
    p = people(*NAMES)
    evening_ = evening(
        "Soirée publique",
        1,
        [
            {p["ANNE"]: 300, p["BRUNO"]: 100, p["CLAIRE"]: -100, p["DENIS"]: -300},
            {p["ANNE"]: 0, p["BRUNO"]: 0, p["CLAIRE"]: 0, p["DENIS"]: 0},
        ],
        owner=arbiter,
    )
    publish(evening_, public_requires_validation=True)
    c = championship([evening_], owner=arbiter, scale=[10, 7, 5, 3], is_public=True)
    sheets = list(ScoreSheet.objects.filter(tournament=evening_).order_by("table__position"))
    return {"p": p, "c": c, "evening": evening_, "sheets": sheets}


def public_order(client, c) -> list[str]:
    response = client.get(reverse("public-championship", args=[c.pk]))
    assert response.status_code == 200
    return [line.name for line in response.context["ranked"]]


def pdf_order(client, c) -> list[str]:
    response = client.get(reverse("championship-pdf", args=[c.pk]))
    assert response.status_code == 200
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    return sorted(NAMES, key=text.index)


def xlsx_rows(client, c) -> list[tuple]:
    response = client.get(reverse("championship-xlsx", args=[c.pk]))
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content))["Classement"]
    return [row for row in sheet.iter_rows(min_row=3, values_only=True) if row[0] is not None]


def the_tournaments_public_order(client, tournament) -> list[str]:
    response = client.get(reverse("public-tournament", args=[tournament.pk]))
    return [ranked.row.name for ranked in response.context["standings"].players]


EXPECTED = ["ANNE", "BRUNO", "CLAIRE", "DENIS"]


def test_an_unconfirmed_phone_deal_counts_nowhere_in_the_championship(client, season):
    # DENIS's garde contre entered on a phone, nobody of the other side confirmed it: +1440.
    phone_deal(season["sheets"][1], [-480, -480, -480, 1440], pending=True)
    assert the_tournaments_public_order(client, season["evening"]) == EXPECTED
    assert public_order(client, season["c"]) == EXPECTED
    client.force_login(season["c"].owner)
    assert pdf_order(client, season["c"]) == EXPECTED
    assert [(row[0], row[1]) for row in xlsx_rows(client, season["c"])] == [
        (1, "ANNE"), (2, "BRUNO"), (3, "CLAIRE"), (4, "DENIS"),
    ]  # fmt: skip


def test_a_sheet_not_validated_counts_nowhere_when_the_tournament_publishes_only_validated(
    client, season
):
    sheet = season["sheets"][1]
    phone_deal(sheet, [-480, -480, -480, 1440], pending=False)
    ScoreSheet.objects.filter(pk=sheet.pk).update(status=ScoreSheet.Status.COMPLETE)
    assert the_tournaments_public_order(client, season["evening"]) == EXPECTED
    assert public_order(client, season["c"]) == EXPECTED
    client.force_login(season["c"].owner)
    assert pdf_order(client, season["c"]) == EXPECTED
    assert [row[1] for row in xlsx_rows(client, season["c"])] == EXPECTED
    # Validated, it counts everywhere.
    ScoreSheet.objects.filter(pk=sheet.pk).update(status=ScoreSheet.Status.VALIDATED)
    assert public_order(client, season["c"])[0] == "DENIS"


def test_a_private_tournament_never_appears_in_a_public_championship(client, season, arbiter):
    p = season["p"]
    secret = Player.objects.create(last_name="SECRET", club="Club")
    hidden = evening(
        "Interne privé",
        8,
        [{secret: 900, p["ANNE"]: -300, p["BRUNO"]: -300, p["CLAIRE"]: -300}],
        owner=arbiter,
    )
    season["c"].tournaments.add(hidden)
    c = season["c"]
    page = client.get(reverse("public-championship", args=[c.pk]))
    html = page.content.decode()
    assert "SECRET" not in html and "Interne privé" not in html
    assert [t.name for t in page.context["standings"].tournaments] == ["Soirée publique"]
    player = reverse("public-championship-player", args=[c.pk, secret.pk])
    assert client.get(player).status_code == 404
    client.force_login(arbiter)
    assert "SECRET" not in " ".join(row[1] for row in xlsx_rows(client, c))
    response = client.get(reverse("championship-pdf", args=[c.pk]))
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "SECRET" not in text and "Interne privé" not in text
    # Its organisers are told why it is left out.
    page = client.get(reverse("championship-detail", args=[c.pk]))
    assert [t.name for t in page.context["standings"].withheld] == ["Interne privé"]
    assert "Tournois privés, laissés hors de ce classement public : Interne privé." in page.text
    # Made public, it counts.
    publish(hidden)
    assert "SECRET" in public_order(client, c)


# --- the public season statistics --------------------------------------------------------------


def statistics_season(client, tournament, player) -> list[str]:
    entry = Registration.objects.get(tournament=tournament, player=player)
    response = client.get(reverse("public-player-statistics", args=[tournament.pk, entry.pk]))
    assert response.status_code == 200
    return [row["tournament"].name for row in response.context["rows"]]


def test_the_public_season_statistics_hold_no_private_tournament_even_for_its_arbiter(
    client, arbiter
):
    p = people(*NAMES)
    bilans = {p["ANNE"]: 30, p["BRUNO"]: -10, p["CLAIRE"]: -10, p["DENIS"]: -10}
    shown = evening("Soirée publique", 1, [bilans], owner=arbiter)
    evening("Interne privé", 8, [bilans], owner=arbiter)
    publish(shown)
    assert statistics_season(client, shown, p["ANNE"]) == ["Soirée publique"]
    client.force_login(arbiter)  # runs the private evening: the public page still hides it
    assert statistics_season(client, shown, p["ANNE"]) == ["Soirée publique"]


def test_another_clubs_tournament_is_not_in_a_clubs_public_season_statistics(client, arbiter):
    """Issue 27: the season is the host club's public tournaments, by roster entry. The printed
    organiser text proves nothing: here both clubs print the same one (a joint flyer), and club
    B's public open, which ANNE played with the same roster entry, stays out of club A's page."""
    club_a = Club.objects.create(name="Club A")
    club_b = Club.objects.create(name="Club B")
    p = people(*NAMES)
    bilans = {p["ANNE"]: 30, p["BRUNO"]: -10, p["CLAIRE"]: -10, p["DENIS"]: -10}
    ours = evening("Soirée du club A", 1, [bilans], owner=arbiter)
    second = evening("Deuxième soirée du club A", 8, [bilans], owner=arbiter)
    theirs = evening("Open du club B", 15, [bilans], owner=arbiter)
    publish(ours, second, theirs, club="Comité de l'Anjou")
    Tournament.objects.filter(pk__in=[ours.pk, second.pk]).update(host_club=club_a)
    Tournament.objects.filter(pk=theirs.pk).update(host_club=club_b)
    assert statistics_season(client, ours, p["ANNE"]) == [
        "Soirée du club A",
        "Deuxième soirée du club A",
    ]
    entry = Registration.objects.get(tournament=ours, player=p["ANNE"])
    html = client.get(reverse("public-player-statistics", args=[ours.pk, entry.pk])).text
    assert "Open du club B" not in html
    assert statistics_season(client, theirs, p["ANNE"]) == ["Open du club B"]
    # The deals of club B's open (+30 there too) are not in club A's season figures either.
    response = client.get(reverse("public-player-statistics", args=[ours.pk, entry.pk]))
    assert response.context["season"]["stats"].deals == 2


# --- the merge page ----------------------------------------------------------------------------


def test_the_merge_page_lists_only_the_tournaments_its_user_may_see(
    client, arbiter, django_user_model
):
    other = django_user_model.objects.create_user("autre-club", password="pw-autre-1")
    ours = Tournament.objects.create(name="Soirée du club A", date=datetime.date(2025, 9, 1))
    ours.owner = arbiter
    ours.save()
    hidden = Tournament.objects.create(
        name="Interne du club B", date=datetime.date(2025, 9, 8), owner=other
    )
    shown = Tournament.objects.create(
        name="Open public du club B", date=datetime.date(2025, 9, 15), owner=other, is_public=True
    )
    keep = Player.objects.create(last_name="MARTIN", first_name="Paul", club="Club A")
    twin = Player.objects.create(last_name="MARTIN", first_name="Paul", club="Club B")
    Registration.objects.create(tournament=ours, player=keep, number=1)
    Registration.objects.create(tournament=hidden, player=twin, number=1)
    Registration.objects.create(tournament=shown, player=twin, number=1)
    client.force_login(arbiter)
    response = client.get(reverse("player-merge") + f"?garder={keep.pk}")
    assert response.status_code == 200
    html = response.content.decode()
    # Issue 27: another club's roster entry (which played only that club's tournaments, public
    # or not) is not offered to this club at all, so none of its tournaments is named.
    assert "Soirée du club A" in html
    assert "Open public du club B" not in html and "Interne du club B" not in html
    # Nor may its id be forced: another club's entry answers 404.
    forced = client.get(reverse("player-merge") + f"?garder={twin.pk}")
    assert forced.status_code == 404


def test_the_merge_page_names_no_tournament_of_another_club_a_visitor_played(
    client, arbiter, django_user_model
):
    """A player of club B who came to club A's evening is A's to see and merge, but A's desk
    names none of B's tournaments, public ones included: they are counted, not named."""
    from tests.club_helpers import join_club, roster_club

    other = django_user_model.objects.create_user("autre-club", password="pw-autre-1")
    club_b = join_club(other, "Club B", "admin")
    ours = Tournament.objects.create(
        name="Soirée du club A", date=datetime.date(2025, 9, 1), owner=arbiter,
        host_club=roster_club(),
    )  # fmt: skip
    theirs = Tournament.objects.create(
        name="Open public du club B", date=datetime.date(2025, 9, 15), owner=other,
        host_club=club_b, is_public=True,
    )  # fmt: skip
    visitor = Player.objects.create(last_name="MARTIN", first_name="Paul", origin_club=club_b)
    Registration.objects.create(tournament=ours, player=visitor, number=1)
    Registration.objects.create(tournament=theirs, player=visitor, number=1)
    client.force_login(arbiter)
    html = client.get(reverse("player-merge") + f"?garder={visitor.pk}").content.decode()
    assert "Soirée du club A" in html
    assert "Open public du club B" not in html
    assert "1 tournoi que vous ne voyez pas" in html
