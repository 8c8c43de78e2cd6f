"""Circuits across clubs: a comité's championship invites clubs A and B; each club's arbiter
puts in their own tournament, never another club's; club C, not invited, sees nothing of it;
the organiser ranks every tournament put in, the public page only the public ones."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Championship
from tests.club_helpers import join_club
from tests.scoring.season.championship_helpers import championship, evening, people
from tournament.models import ChangeLog, Tournament

pytestmark = pytest.mark.django_db

SCALE = [10, 7, 5, 3]


def account(django_user_model, name):
    return django_user_model.objects.create_user(name, password=f"pw-{name}-1")


def hosted(tournament: Tournament, club, *, public: bool = False) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(host_club=club, is_public=public)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def circuit(django_user_model):
    """Comité 44 organises a public circuit inviting clubs A and B. A's evening is public,
    B's private; club C runs its own evening and is not invited. Nothing is in it yet."""
    users = {
        name: account(django_user_model, name)
        for name in ("comite", "arbitre-a", "arbitre-b", "arbitre-c", "second-a")
    }
    comite = join_club(users["comite"], "Comité 44", "admin")
    club_a = join_club(users["arbitre-a"], "Club A")
    join_club(users["second-a"], "Club A")
    club_b = join_club(users["arbitre-b"], "Club B")
    club_c = join_club(users["arbitre-c"], "Club C")
    p = people("ANNE", "BRUNO", "CLAIRE", "DENIS", "ZOECACHEE")
    soiree_a = evening(
        "Soirée ouverte A",
        1,
        [{p["ANNE"]: 300, p["BRUNO"]: 100, p["CLAIRE"]: -100, p["DENIS"]: -300}],
        owner=users["arbitre-a"],
    )
    soiree_b = evening(
        "Soirée secrète B",
        8,
        [{p["CLAIRE"]: 500, p["ANNE"]: 100, p["ZOECACHEE"]: -200, p["BRUNO"]: -400}],
        owner=users["arbitre-b"],
    )
    soiree_c = evening(
        "Tournoi du club C",
        15,
        [{p["ANNE"]: 100, p["BRUNO"]: -100, p["CLAIRE"]: 0, p["DENIS"]: 0}],
        owner=users["arbitre-c"],
    )
    c = championship([], owner=users["comite"], name="Circuit 44", scale=SCALE, is_public=True)
    Championship.objects.filter(pk=c.pk).update(host_club=comite)
    c.participating_clubs.set([club_a, club_b])
    return {
        **users,
        "p": p,
        "c": c,
        "a": hosted(soiree_a, club_a, public=True),
        "b": hosted(soiree_b, club_b),
        "cc": hosted(soiree_c, club_c, public=True),
        "club_a": club_a,
        "club_b": club_b,
        "comite_club": comite,
    }


def add(client, circuit, tournament):
    url = reverse("circuit-tournament-add", args=[circuit["c"].pk, tournament.pk])
    return client.post(url)


def in_circuit(circuit) -> set[str]:
    return set(circuit["c"].tournaments.values_list("name", flat=True))


def both_added(client, circuit):
    for who, tournament in (("arbitre-a", "a"), ("arbitre-b", "b")):
        client.force_login(circuit[who])
        assert add(client, circuit, circuit[tournament]).status_code == 302
    client.logout()


def test_the_organiser_creates_a_circuit_hosted_by_the_comite_inviting_clubs(client, circuit):
    client.force_login(circuit["comite"])
    data = {
        "name": "Circuit 2026",
        "season": "2026",
        "method": "rank",
        "scale": "10,7,5,3",
        "floor": "0",
        "min_attendance": "0",
        "host_club": circuit["comite_club"].pk,
        "participating_clubs": "Club A, Club B",
    }
    response = client.post(reverse("championship-create"), data)
    assert response.status_code == 302, response.context["form"].errors
    created = Championship.objects.get(name="Circuit 2026")
    assert created.host_club == circuit["comite_club"]
    assert set(created.participating_clubs.all()) == {circuit["club_a"], circuit["club_b"]}
    record = ChangeLog.objects.get(object_type="championship", object_id=created.pk)
    assert record.after["host_club"] == "Comité 44"
    assert record.after["participating_clubs"] == ["Club A", "Club B"]
    # The form lists no other club of the server: invited clubs are typed, unknown ones named.
    form = client.get(reverse("championship-create")).text
    assert "Club A" not in form and "Club C" not in form
    data["name"], data["participating_clubs"] = "Circuit fantôme", "Club A, Club Z"
    response = client.post(reverse("championship-create"), data)
    assert "Club inconnu : Club Z." in response.text
    data["participating_clubs"] = "Club A"
    # A club the organiser is not a member of cannot host it.
    data["host_club"] = circuit["club_a"].pk
    data["name"] = "Circuit volé"
    assert client.post(reverse("championship-create"), data).status_code == 200
    assert not Championship.objects.filter(name="Circuit volé").exists()


def test_each_invited_clubs_arbiter_adds_their_tournament_and_it_is_logged_in_their_club(
    client, circuit
):
    both_added(client, circuit)
    assert in_circuit(circuit) == {"Soirée ouverte A", "Soirée secrète B"}
    records = ChangeLog.objects.filter(object_type="championship", object_id=circuit["c"].pk)
    logged = {(r.club.name, r.tournament.name, r.username) for r in records}
    assert logged == {
        ("Club A", "Soirée ouverte A", "arbitre-a"),
        ("Club B", "Soirée secrète B", "arbitre-b"),
    }
    assert all(not r.before["in_circuit"] and r.after["in_circuit"] for r in records)
    # A's arbiter takes theirs out again: logged too.
    client.force_login(circuit["arbitre-a"])
    url = reverse("circuit-tournament-remove", args=[circuit["c"].pk, circuit["a"].pk])
    assert client.post(url).status_code == 302
    assert in_circuit(circuit) == {"Soirée secrète B"}
    last = ChangeLog.objects.order_by("pk").last()
    assert last.club == circuit["club_a"] and last.after["in_circuit"] is False


def test_an_arbiter_can_neither_add_nor_remove_another_clubs_tournament(client, circuit):
    client.force_login(circuit["arbitre-b"])
    assert add(client, circuit, circuit["b"]).status_code == 302
    client.force_login(circuit["arbitre-a"])
    before = ChangeLog.objects.count()
    assert add(client, circuit, circuit["cc"]).status_code == 403  # club C, not invited
    url = reverse("circuit-tournament-remove", args=[circuit["c"].pk, circuit["b"].pk])
    assert client.post(url).status_code == 403
    # Another arbiter of club A, who does not run A's evening, cannot put it in either.
    client.force_login(circuit["second-a"])
    assert add(client, circuit, circuit["a"]).status_code == 403
    assert in_circuit(circuit) == {"Soirée secrète B"}
    assert ChangeLog.objects.count() == before


def test_an_arbiter_of_a_club_that_is_not_invited_sees_and_adds_nothing(client, circuit):
    both_added(client, circuit)
    client.force_login(circuit["arbitre-c"])
    c = circuit["c"]
    assert add(client, circuit, circuit["cc"]).status_code == 403
    assert in_circuit(circuit) == {"Soirée ouverte A", "Soirée secrète B"}
    for name in ("circuit-detail", "championship-detail", "championship-edit"):
        assert client.get(reverse(name, args=[c.pk])).status_code == 403, name
    assert "Circuit 44" not in client.get(reverse("circuit-list")).text
    # What they may read is the public page: B's private evening is not on it.
    public = client.get(reverse("public-championship", args=[c.pk])).text
    assert "Soirée secrète B" not in public and "ZOECACHEE" not in public


def test_an_invited_arbiter_sees_their_tournaments_but_not_another_clubs_private_name(
    client, circuit
):
    both_added(client, circuit)
    client.force_login(circuit["arbitre-a"])
    assert "Circuit 44" in client.get(reverse("circuit-list")).text
    page = client.get(reverse("circuit-detail", args=[circuit["c"].pk]))
    assert page.status_code == 200
    assert [t.name for t in page.context["page"].mine] == ["Soirée ouverte A"]
    assert page.context["page"].others_private == 1
    assert "Soirée secrète B" not in page.text
    assert "1 tournoi privé d'un autre club" in page.text
    # B's arbiter sees A's evening, which is public.
    client.force_login(circuit["arbitre-b"])
    page = client.get(reverse("circuit-detail", args=[circuit["c"].pk]))
    assert "Soirée ouverte A" in page.text
    # A's arbiter is offered only their own tournaments not yet in.
    client.force_login(circuit["arbitre-a"])
    url = reverse("circuit-tournament-remove", args=[circuit["c"].pk, circuit["a"].pk])
    client.post(url)
    page = client.get(reverse("circuit-detail", args=[circuit["c"].pk]))
    assert [t.name for t in page.context["page"].addable] == ["Soirée ouverte A"]


def ranking_of(response) -> list[tuple[int | None, str, int]]:
    return [(line.rank, line.name, line.total) for line in response.context["ranked"]]


def test_the_organiser_sees_the_circuit_standings_of_both_clubs_tournaments(client, circuit):
    both_added(client, circuit)
    client.force_login(circuit["comite"])
    response = client.get(reverse("championship-detail", args=[circuit["c"].pk]))
    # By hand, scale 10, 7, 5, 3: A's evening ANNE 10, BRUNO 7, CLAIRE 5, DENIS 3; B's evening
    # CLAIRE 10, ANNE 7, ZOECACHEE 5, BRUNO 3.
    assert ranking_of(response) == [
        (1, "ANNE", 17),
        (2, "CLAIRE", 15),
        (3, "BRUNO", 10),
        (4, "ZOECACHEE", 5),
        (5, "DENIS", 3),
    ]
    assert "Clubs invités : Club A, Club B." in response.text
    # Told that B's private evening counts here but not on the public page.
    assert [t.name for t in response.context["standings"].private_counted] == ["Soirée secrète B"]


def test_the_public_circuit_page_omits_a_private_tournament(client, circuit):
    both_added(client, circuit)
    response = client.get(reverse("public-championship", args=[circuit["c"].pk]))
    assert response.status_code == 200
    assert "Soirée secrète B" not in response.text and "ZOECACHEE" not in response.text
    assert [t.name for t in response.context["standings"].tournaments] == ["Soirée ouverte A"]
    assert ranking_of(response) == [
        (1, "ANNE", 10),
        (2, "BRUNO", 7),
        (3, "CLAIRE", 5),
        (4, "DENIS", 3),
    ]
    hidden = reverse(
        "public-championship-player", args=[circuit["c"].pk, circuit["p"]["ZOECACHEE"].pk]
    )
    assert client.get(hidden).status_code == 404
    # Made public by its club, it counts.
    Tournament.objects.filter(pk=circuit["b"].pk).update(is_public=True)
    response = client.get(reverse("public-championship", args=[circuit["c"].pk]))
    assert ranking_of(response)[0] == (1, "ANNE", 17)


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_circuit_page_costs_the_same_queries_for_two_and_eight_tournaments(client, circuit):
    both_added(client, circuit)
    client.force_login(circuit["arbitre-a"])
    url = reverse("circuit-detail", args=[circuit["c"].pk])
    few = queries(client, url)
    for day in range(2, 8):
        for who, club in (("arbitre-a", "club_a"), ("arbitre-b", "club_b")):
            extra = evening(
                f"{who} {day}",
                day,
                [{circuit["p"][n]: 0 for n in ("ANNE", "BRUNO", "CLAIRE", "DENIS")}],
                owner=circuit[who],
            )
            hosted(extra, circuit[club], public=day % 2 == 0)
            if who == "arbitre-b" or day % 3:
                circuit["c"].tournaments.add(extra)
    assert queries(client, url) == few


def test_the_host_club_choices_are_the_editors_clubs_and_the_current_host():
    """clubs_of(user) and the championship's host; a superuser chooses among every club."""
    from django.contrib.auth import get_user_model

    from scoring.season.forms import ChampionshipForm

    users = get_user_model().objects
    editor, other, root = (users.create_user(n) for n in ("editor", "other", "root"))
    users.filter(pk=root.pk).update(is_superuser=True)
    root.refresh_from_db()
    mine, _second = join_club(editor, "Club A"), join_club(editor, "Club B")
    comite, _elsewhere = join_club(other, "Comité 44"), join_club(other, "Club C")
    c = championship([], owner=editor, name="Circuit 44", scale=SCALE)

    def choices(user, current) -> list[str]:
        form = ChampionshipForm(user=user, championship=current)
        return [club.name for club in form.fields["host_club"].queryset]

    assert choices(editor, None) == ["Club A", "Club B"]
    assert ChampionshipForm(user=editor).initial["host_club"] == mine.pk
    Championship.objects.filter(pk=c.pk).update(host_club=comite)
    c.refresh_from_db()
    assert choices(editor, c) == ["Club A", "Club B", "Comité 44"]
    assert choices(root, c) == ["Club A", "Club B", "Club C", "Comité 44"]
