"""Issue 36, tried from outside after the first fixes: two ways a club still learnt whether
another club holds a licence. (1) A conflict's page answered 403 to another club for a conflict
that exists and 404 for one that doesn't: ids are sequential, so a club read from the next id
whether its own registration had opened one. (2) Past the day's allowance of conflicts (or with
none opened), the public "parcours" joined two clubs' entries by their licence alone: club B,
typing A's player's licence, had A's public results listed under B's entry and its own
tournament added to A's player's history."""

import re

import pytest
from django.urls import reverse

from tournament.models import LicenceConflict, Player, Registration, Tournament
from tournament.players.conflicts import conflict_flag

pytestmark = pytest.mark.django_db


def test_another_clubs_conflict_is_a_404_as_a_missing_one(client, two_clubs):
    newcomer = Player.objects.create(
        last_name="Voleur", licence=two_clubs["held"].licence, origin_club=two_clubs["Club Beta"]
    )
    conflict = conflict_flag(
        licence=newcomer.licence, existing=two_clubs["held"], newcomer=newcomer, user=None
    )
    assert conflict is not None
    missing = (LicenceConflict.objects.order_by("-pk").values_list("pk", flat=True).first()) + 1
    client.force_login(two_clubs["arbitre-b"])
    seen = client.get(reverse("licence-conflict", args=[conflict.pk]))
    absent = client.get(reverse("licence-conflict", args=[missing]))
    assert (seen.status_code, absent.status_code) == (404, 404)

    def page(answer, pk):
        text = answer.content.decode().replace(f"/conflits-licence/{pk}/", "/<id>/")
        return re.sub(r'(CSRFToken": "|value=")[^"]{40,}"', "", text)

    assert page(seen, conflict.pk) == page(absent, missing)
    client.force_login(two_clubs["admin-a"])  # the holding club still opens it
    assert client.get(reverse("licence-conflict", args=[conflict.pk])).status_code == 200


def test_the_public_history_never_joins_two_clubs_entries_by_a_licence(client, two_clubs):
    alpha, beta = two_clubs["Club Alpha"], two_clubs["Club Beta"]
    a_public = Tournament.objects.create(
        name="Publique Alpha", date="2026-10-02", host_club=alpha, owner=two_clubs["admin-a"],
        is_public=True, status=Tournament.Status.FINISHED,
    )  # fmt: skip
    a_entry = Registration.objects.create(tournament=a_public, player=two_clubs["held"], number=1)
    b_evening = two_clubs["b-evening"]
    Tournament.objects.filter(pk=b_evening.pk).update(is_public=True)
    # B's entry with A's licence and no open conflict (past B's allowance, or never opened).
    copy = Player.objects.create(
        last_name="Titulaire", first_name="Alice", licence=two_clubs["held"].licence,
        origin_club=beta,
    )  # fmt: skip
    b_entry = Registration.objects.create(tournament=b_evening, player=copy, number=1)
    assert not LicenceConflict.objects.exists()
    b_page = client.get(reverse("public-person", args=[b_evening.pk, b_entry.pk]))
    a_page = client.get(reverse("public-person", args=[a_public.pk, a_entry.pk]))
    assert b_page.status_code == a_page.status_code == 200
    assert "Publique Alpha" not in b_page.content.decode()
    assert "Soirée Beta" not in a_page.content.decode()
    assert "Publique Alpha" in a_page.content.decode()


def test_a_visitor_is_sent_to_the_login_whether_or_not_the_conflict_exists(client, two_clubs):
    newcomer = Player.objects.create(
        last_name="Voleur", licence=two_clubs["held"].licence, origin_club=two_clubs["Club Beta"]
    )
    conflict = conflict_flag(
        licence=newcomer.licence, existing=two_clubs["held"], newcomer=newcomer, user=None
    )
    answers = [
        client.get(reverse("licence-conflict", args=[pk])) for pk in (conflict.pk, conflict.pk + 1)
    ]
    assert [answer.status_code for answer in answers] == [302, 302]
    assert all(answer["Location"].startswith("/connexion/") for answer in answers)
