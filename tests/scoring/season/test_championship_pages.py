"""Championship pages: who may define, edit and read a championship; the form's French errors;
the public page and the per-player breakdown; the PDF and the XLSX read back."""

import io

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import Championship
from tests.club_helpers import join_club
from tests.scoring.season.championship_helpers import championship, evening, people
from tournament.access.roles import ARBITER
from tournament.models import Tournament, TournamentRole

pytestmark = pytest.mark.django_db


def arbiter_account(django_user_model, name):
    user = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
    user.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    join_club(user)
    return user


@pytest.fixture
def club(django_user_model):
    """Two arbiters, each owning one finished evening; the first owns the championship."""
    owner = arbiter_account(django_user_model, "organisateur")
    other = arbiter_account(django_user_model, "voisin")
    p = people("ANNE", "BRUNO", "CLAIRE", "DENIS")
    mine = evening(
        "Soirée de septembre",
        1,
        [{p["ANNE"]: 300, p["BRUNO"]: 100, p["CLAIRE"]: -100, p["DENIS"]: -300}],
        owner=owner,
    )
    second = evening(
        "Soirée d'octobre",
        8,
        [{p["ANNE"]: -300, p["BRUNO"]: 100, p["CLAIRE"]: 500, p["DENIS"]: -300}],
        owner=owner,
    )
    theirs = evening(
        "Tournoi du voisin",
        15,
        [{p["ANNE"]: 100, p["BRUNO"]: -100, p["CLAIRE"]: 0, p["DENIS"]: 0}],
        owner=other,
    )
    c = championship([mine, second], owner=owner, scale=[10, 7, 5, 3], best_of=1)
    return {"owner": owner, "other": other, "p": p, "c": c, "mine": mine, "theirs": theirs,
            "second": second}  # fmt: skip


def form_data(chosen, **changes):
    data = {
        "name": "Challenge 2025",
        "season": "2025-2026",
        "tournaments": [t.pk for t in chosen],
        "method": "rank",
        "scale": "10,7,5,3",
        "floor": "0",
        "best_of": "",
        "min_attendance": "0",
    }
    data.update(changes)
    return data


def test_an_arbiter_creates_a_championship_from_the_tournaments_they_run(client, club):
    client.force_login(club["owner"])
    response = client.post(
        reverse("championship-create"),
        form_data([club["mine"]], tie_breaks=["played", "best_result"], is_public="on"),
    )
    created = Championship.objects.get(name="Challenge 2025")
    assert response.status_code == 302
    assert response["Location"] == reverse("championship-detail", args=[created.pk])
    assert created.owner == club["owner"] and created.is_public
    assert created.scale == [10, 7, 5, 3] and created.tie_breaks == ["played", "best_result"]
    assert list(created.tournaments.all()) == [club["mine"]]


def test_the_tie_breaks_read_in_the_language_chosen(client, club):
    client.force_login(club["owner"])
    assert "Plus de tournois joués" in client.get(reverse("championship-create")).text
    client.post(reverse("set_language"), {"language": "en"})
    english = client.get(reverse("championship-create")).text
    for label in ("More tournaments played", "Best result", "Best place in a tournament"):
        assert label in english
    for label in ("Plus de tournois joués", "Meilleure place dans un tournoi"):
        assert label not in english


def test_a_tournament_the_user_does_not_run_cannot_be_added(client, club):
    client.force_login(club["owner"])
    response = client.post(
        reverse("championship-edit", args=[club["c"].pk]),
        form_data([club["mine"], club["theirs"]]),
    )
    assert response.status_code == 200
    assert "tournaments" in response.context["form"].errors
    assert club["theirs"] not in club["c"].tournaments.all()


def test_a_co_arbiter_of_a_tournament_may_add_it(client, club):
    TournamentRole.objects.create(tournament=club["theirs"], user=club["owner"], role="arbiter")
    client.force_login(club["owner"])
    response = client.post(
        reverse("championship-edit", args=[club["c"].pk]),
        form_data([club["mine"], club["theirs"]]),
    )
    assert response.status_code == 302
    assert club["theirs"] in club["c"].tournaments.all()


def test_another_arbiter_can_neither_read_nor_edit_the_championship(client, club):
    client.force_login(club["other"])
    c = club["c"]
    for name in ("championship-detail", "championship-edit", "championship-pdf",
                 "championship-xlsx"):  # fmt: skip
        assert client.get(reverse(name, args=[c.pk])).status_code == 403, name
    response = client.post(reverse("championship-edit", args=[c.pk]), form_data([club["theirs"]]))
    assert response.status_code == 403
    c.refresh_from_db()
    assert c.name == "Challenge du club"
    assert set(c.tournaments.all()) == {club["mine"], club["second"]}
    player = club["p"]["ANNE"].pk
    url = reverse("championship-player", args=[c.pk, player])
    assert client.get(url).status_code == 403
    assert not client.get(reverse("championship-list")).context["championships"]


def test_a_co_organiser_edits_but_names_nobody_and_adds_only_their_tournaments(client, club):
    c = club["c"]
    c.organisers.add(club["other"])
    client.force_login(club["other"])
    page = client.get(reverse("championship-edit", args=[c.pk]))
    assert page.status_code == 200 and "organisers" not in page.context["form"].fields
    # The owner's tournaments already in stay; their own evening may be added.
    response = client.post(
        reverse("championship-edit", args=[c.pk]),
        form_data([club["mine"], club["second"], club["theirs"]], organisers="voisin"),
    )
    assert response.status_code == 302
    assert set(c.tournaments.all()) == {club["mine"], club["second"], club["theirs"]}
    assert list(c.organisers.all()) == [club["other"]]


def test_the_owner_names_co_organisers_by_username(client, club):
    client.force_login(club["owner"])
    url = reverse("championship-edit", args=[club["c"].pk])
    response = client.post(url, form_data([club["mine"]], organisers="inconnu, voisin"))
    assert response.status_code == 200
    assert "Compte inconnu : inconnu." in response.context["form"].errors["organisers"]
    response = client.post(url, form_data([club["mine"]], organisers="voisin"))
    assert response.status_code == 302
    assert list(club["c"].organisers.all()) == [club["other"]]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"scale": "25,vingt,16"}, "scale", "Barème : « vingt » n'est pas un nombre entier"),
        ({"scale": ""}, "scale", "Barème : indiquez les points de chaque place."),
        ({"scale": "1" + ",1" * 300}, "scale", "Barème : au plus 200 places."),
        ({"best_of": "0"}, "best_of", "supérieure ou égale à 1"),
        ({"floor": "-3"}, "floor", "supérieure ou égale à 0"),
        ({"name": ""}, "name", "Ce champ est obligatoire."),
        ({"tournaments": ["999999"]}, "tournaments", "Sélectionnez un choix valide"),
        # Beyond the database's integers: refused as any unknown choice, not a 500.
        ({"tournaments": ["9" * 30]}, "tournaments", "Sélectionnez un choix valide"),
    ],
)
def test_the_form_answers_in_french_naming_the_field(client, club, changes, field, message):
    client.force_login(club["owner"])
    response = client.post(reverse("championship-create"), form_data([club["mine"]], **changes))
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors[field])
    assert message in errors
    assert not Championship.objects.filter(name="Challenge 2025").exists()


def test_anonymous_visitors_see_only_public_championships(client, club):
    c = club["c"]
    public_url = reverse("public-championship", args=[c.pk])
    assert client.get(public_url).status_code == 404
    assert client.get(reverse("championship-detail", args=[c.pk])).status_code == 302
    Championship.objects.filter(pk=c.pk).update(is_public=True)
    # A public championship shows only public tournaments
    # (tests/scoring/live/test_public_visibility.py).
    Tournament.objects.filter(pk__in=[club["mine"].pk, club["second"].pk]).update(is_public=True)
    page = client.get(public_url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "ANNE" in text and "Challenge du club" in text
    assert reverse("championship-edit", args=[c.pk]) not in text
    player = reverse("public-championship-player", args=[c.pk, club["p"]["CLAIRE"].pk])
    assert client.get(player).status_code == 200
    # The organisers' files stay theirs.
    assert client.get(reverse("championship-xlsx", args=[c.pk])).status_code == 302


def test_the_player_breakdown_says_which_results_counted_and_which_were_dropped(client, club):
    # Best 1 of 2 on 10, 7, 5, 3: ANNE 1st in September (10), 3rd in October (5, dropped).
    client.force_login(club["owner"])
    url = reverse("championship-player", args=[club["c"].pk, club["p"]["ANNE"].pk])
    page = client.get(url)
    assert page.status_code == 200
    assert page.context["rank"] == 1 and page.context["row"].total == 10
    results = {t.name: (s.points, s.counted) for t, s in page.context["results"]}
    assert results == {"Soirée de septembre": (10, True), "Soirée d'octobre": (5, False)}
    text = page.content.decode()
    assert "retenu" in text and "écarté" in text
    assert "1<sup>er</sup> du championnat avec 10 points retenus." in text


def test_the_player_summary_reads_as_french(client, club):
    # DENIS: 4th in September (3 points), 3rd in October (5): best 1 of 2 keeps 5.
    client.force_login(club["owner"])
    url = reverse("championship-player", args=[club["c"].pk, club["p"]["DENIS"].pk])
    page = client.get(url)
    rank = page.context["rank"]
    assert rank > 1 and page.context["row"].total == 5
    assert f"{rank}<sup>e</sup> du championnat avec 5 points retenus." in page.text
    Championship.objects.filter(pk=club["c"].pk).update(scale=[10, 7, 1, 0])
    page = client.get(url)
    assert page.context["row"].total == 1
    assert "du championnat avec 1 point retenu." in page.text


def test_the_xlsx_reads_back_as_the_ranking(client, club):
    # Best 1 of 2: ANNE 10 (Sept.), CLAIRE 10 (Oct.), BRUNO 7, DENIS 3 (4th in Sept., 3rd ex
    # æquo in October: 5).
    #           Sept.  Oct.   kept
    # ANNE      1 10   3  5   10
    # CLAIRE    3  5   1 10   10
    # BRUNO     2  7   2  7    7
    # DENIS     4  3   3  5    5   (DENIS and ANNE share October's 3rd place)
    client.force_login(club["owner"])
    response = client.get(reverse("championship-xlsx", args=[club["c"].pk]))
    assert response.status_code == 200
    workbook = load_workbook(io.BytesIO(response.content))
    sheet = workbook["Classement"]
    rows = [list(row) for row in sheet.iter_rows(min_row=3, values_only=True)]
    assert [(r[0], r[1], r[4], r[5], r[6], r[7]) for r in rows] == [
        (1, "ANNE", 10, 5, 2, 10),
        (1, "CLAIRE", 5, 10, 2, 10),
        (3, "BRUNO", 7, 7, 2, 7),
        (4, "DENIS", 3, 5, 2, 5),
    ]
    detail = workbook["Détail"]
    kept = {
        (r[0], r[2]): r[7] for r in detail.iter_rows(min_row=3, values_only=True) if r[0] == "ANNE"
    }
    assert kept == {("ANNE", "Soirée de septembre"): "oui", ("ANNE", "Soirée d'octobre"): "non"}


def test_the_pdf_reads_back_as_the_ranking(client, club):
    client.force_login(club["owner"])
    response = client.get(reverse("championship-pdf", args=[club["c"].pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Challenge du club" in text and "Classement du championnat" in text
    order = [text.index(name) for name in ("ANNE", "CLAIRE", "BRUNO", "DENIS")]
    assert order == sorted(order)
    assert "(5)" in text  # ANNE's October result, dropped


def test_only_finished_tournaments_count(client, club):
    Tournament.objects.filter(pk=club["second"].pk).update(status=Tournament.Status.RUNNING)
    client.force_login(club["owner"])
    page = client.get(reverse("championship-detail", args=[club["c"].pk]))
    assert [(line.name, line.total) for line in page.context["ranked"]] == [
        ("ANNE", 10),
        ("BRUNO", 7),
        ("CLAIRE", 5),
        ("DENIS", 3),
    ]


def test_the_home_page_leads_arbiters_to_their_championships(client, club):
    client.force_login(club["owner"])
    assert reverse("championship-list") in client.get(reverse("home")).content.decode()
    page = client.get(reverse("championship-list"))
    assert reverse("championship-detail", args=[club["c"].pk]) in page.content.decode()


def test_creating_and_editing_a_championship_leave_who_when_before_and_after(client, club):
    from tournament.models import ChangeLog

    client.force_login(club["owner"])
    client.post(reverse("championship-create"), form_data([club["mine"]]))
    created = Championship.objects.get(name="Challenge 2025")
    client.post(
        reverse("championship-edit", args=[created.pk]),
        form_data([club["mine"], club["second"]], best_of="1"),
    )
    records = list(
        ChangeLog.objects.filter(object_type="championship", object_id=created.pk).order_by("pk")
    )
    assert [r.action for r in records] == ["create", "update"]
    assert all(r.username == "organisateur" and r.tournament_id is None for r in records)
    assert records[0].before is None
    assert records[1].before["best_of"] is None and records[1].after["best_of"] == 1
    assert [t[0] for t in records[1].after["tournaments"]] == sorted(
        [club["mine"].pk, club["second"].pk]
    )
    # Saving without a change records nothing more.
    client.post(
        reverse("championship-edit", args=[created.pk]),
        form_data([club["mine"], club["second"]], best_of="1"),
    )
    assert ChangeLog.objects.filter(object_type="championship").count() == 2
