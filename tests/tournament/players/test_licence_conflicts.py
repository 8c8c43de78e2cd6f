"""Issue 27's licence conflict: club B holds a licence under a false name; club A registers the
real holder for tonight (allowed, flagged, nothing of B's entry shown); either club's arbiter
resolves it (merge: both histories on one person; or correction), logged in both clubs; a third
club sees nothing and may do nothing."""

import pytest
from django.urls import reverse

from tests.club_helpers import join_club
from tests.desk_helpers import register
from tournament.models import ChangeLog, LicenceConflict, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

LICENCE = "0412345"
SECRET = "Nocturne secrète du club B"
NOTICE = "Ce numéro de licence est aussi utilisé dans un autre club ; un conflit est signalé."


@pytest.fixture
def clubs(django_user_model):
    people = {}
    for name, club in (("arbitre-a", "Club A"), ("arbitre-b", "Club B"), ("arbitre-c", "Club C")):
        people[name] = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
        people[club] = join_club(people[name], club, "arbiter")
    b = people["Club B"]
    # Club B's false entry, which played B's private (finished) tournament.
    false = Player.objects.create(
        last_name="Faussaire", first_name="Gaston", licence=LICENCE, origin_club=b
    )
    secret = Tournament.objects.create(
        name=SECRET,
        date="2026-10-01",
        host_club=b,
        owner=people["arbitre-b"],
        status=Tournament.Status.FINISHED,
    )
    people["past"] = Registration.objects.create(tournament=secret, player=false, number=7)
    people["false"] = false
    people["tonight"] = Tournament.objects.create(
        name="Soirée du club A", date="2026-11-26", host_club=people["Club A"],
        owner=people["arbitre-a"],
    )  # fmt: skip
    return people


def as_user(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def flagged(client, clubs):
    """Club A's arbiter registers the real holder for tonight: the conflict it flags."""
    as_user(client, clubs["arbitre-a"])
    response = register(
        client, clubs["tonight"], last_name="Vrai", first_name="Jean", licence="412345"
    )
    assert response.status_code == 302, response.content
    page = client.get(response["Location"]).content.decode()
    assert NOTICE in page
    assert "Faussaire" not in page and SECRET not in page
    client.logout()
    return LicenceConflict.objects.get()


def test_registering_a_licence_another_club_holds_is_allowed_and_flagged(client, clubs, flagged):
    registration = clubs["tonight"].registrations.get()
    real = registration.player
    assert (real.last_name, real.licence, real.origin_club) == ("Vrai", LICENCE, clubs["Club A"])
    assert (flagged.existing, flagged.newcomer) == (clubs["false"], real)
    assert flagged.status == LicenceConflict.Status.OPEN
    # The flag is written in both clubs' histories, naming no one.
    logs = ChangeLog.objects.filter(object_type="licenceconflict", action="create")
    assert sorted(logs.values_list("club__name", flat=True)) == ["Club A", "Club B"]
    assert "Faussaire" not in str(list(logs.values_list("after", flat=True)))
    # A's page of tonight's players works and shows nothing of B's entry.
    page = as_user(client, clubs["arbitre-a"]).get(
        reverse("player-list", args=[clubs["tonight"].pk])
    )
    assert page.status_code == 200
    assert "Vrai".upper() in page.text and "Faussaire".upper() not in page.text
    card = client.get(reverse("player-itinerary", args=[clubs["tonight"].pk, registration.pk]))
    assert card.status_code == 200 and "FAUSSAIRE" not in card.text


def test_within_one_club_a_licence_under_another_name_is_still_refused(client, clubs):
    as_user(client, clubs["arbitre-b"])
    mine = Tournament.objects.create(
        name="Soirée B", date="2026-11-26", host_club=clubs["Club B"], owner=clubs["arbitre-b"]
    )
    response = register(client, mine, last_name="Autre", licence=LICENCE)
    assert response.status_code == 400
    assert "La licence 0412345 est déjà celle de FAUSSAIRE Gaston." in response.text
    assert not LicenceConflict.objects.exists()


def test_the_conflict_is_listed_for_both_clubs_arbiters_not_for_a_third(client, clubs, flagged):
    for who, club in (("arbitre-a", "Club A"), ("arbitre-b", "Club B")):
        page = as_user(client, clubs[who]).get(reverse("licence-conflicts", args=[clubs[club].pk]))
        assert page.status_code == 200
        assert reverse("licence-conflict", args=[flagged.pk]) in page.text
    as_user(client, clubs["arbitre-c"])
    # Club C's own list does not have it; A's list and the conflict itself are refused.
    own = client.get(reverse("licence-conflicts", args=[clubs["Club C"].pk]))
    assert own.status_code == 200 and LICENCE not in own.text
    for url in (
        reverse("licence-conflicts", args=[clubs["Club A"].pk]),
        reverse("licence-conflict", args=[flagged.pk]),
    ):
        assert client.get(url).status_code in (403, 404)
    response = client.post(
        reverse("licence-conflict", args=[flagged.pk]),
        {"resolution": "merge", "entry": "newcomer"},
    )
    assert response.status_code in (403, 404)
    flagged.refresh_from_db()
    assert flagged.status == LicenceConflict.Status.OPEN
    assert Player.objects.count() == 2


def test_club_a_sees_the_name_under_the_licence_never_b_private_tournaments(client, clubs, flagged):
    page = as_user(client, clubs["arbitre-a"]).get(reverse("licence-conflict", args=[flagged.pk]))
    assert page.status_code == 200
    assert "FAUSSAIRE Gaston" in page.text and "VRAI Jean" in page.text
    assert SECRET not in page.text
    assert "(et 1 tournoi privé d'un autre club)" in page.text
    # B's arbiter sees its own tournament's name.
    page = as_user(client, clubs["arbitre-b"]).get(reverse("licence-conflict", args=[flagged.pk]))
    assert SECRET in page.text


def resolve(client, conflict, **fields):
    return client.post(reverse("licence-conflict", args=[conflict.pk]), fields)


def test_a_merge_keeps_both_histories_on_one_person_logged_in_both_clubs(client, clubs, flagged):
    as_user(client, clubs["arbitre-a"])
    response = resolve(client, flagged, resolution="merge", entry="newcomer")
    assert response.status_code == 302
    [person] = Player.objects.all()
    assert (person.last_name, person.licence) == ("Vrai", LICENCE)
    # B's past tournament keeps its registration (same row, same number), now this person's;
    # A's registration of tonight is there too.
    past = Registration.objects.get(pk=clubs["past"].pk)
    assert (past.player, past.number, past.tournament.name) == (person, 7, SECRET)
    assert clubs["tonight"].registrations.get().player == person
    flagged.refresh_from_db()
    assert flagged.status == LicenceConflict.Status.RESOLVED
    assert flagged.resolution == LicenceConflict.Resolution.MERGE
    assert flagged.resolved_by == clubs["arbitre-a"]
    logs = ChangeLog.objects.filter(object_type="licenceconflict", action="update")
    assert sorted(logs.values_list("club__name", flat=True)) == ["Club A", "Club B"]
    # B still sees the person (through its tournament); the page shows the merge.
    page = as_user(client, clubs["arbitre-b"]).get(reverse("licence-conflict", args=[flagged.pk]))
    assert "Fiches fusionnées" in page.text


def test_a_resolved_conflict_is_locked_and_a_double_post_resolves_once(client, clubs, flagged):
    as_user(client, clubs["arbitre-b"])
    assert resolve(client, flagged, resolution="correct", entry="existing").status_code == 302
    again = resolve(client, flagged, resolution="merge", entry="newcomer")
    assert again.status_code == 400
    assert "Ce conflit de licence est déjà résolu : il ne peut plus être modifié." in again.text
    assert Player.objects.count() == 2
    assert ChangeLog.objects.filter(object_type="licenceconflict", action="update").count() == 2


def test_a_correction_takes_the_licence_off_the_false_entry_which_keeps_its_history(
    client, clubs, flagged
):
    as_user(client, clubs["arbitre-b"])
    assert resolve(client, flagged, resolution="correct", entry="existing").status_code == 302
    false = Player.objects.get(pk=clubs["false"].pk)
    assert false.licence is None
    assert Registration.objects.get(pk=clubs["past"].pk).player == false
    real = clubs["tonight"].registrations.get().player
    assert real.licence == LICENCE
    logs = ChangeLog.objects.filter(object_type="licenceconflict", action="update")
    assert sorted(logs.values_list("club__name", flat=True)) == ["Club A", "Club B"]
    assert {log.user for log in logs} == {clubs["arbitre-b"]}


def test_a_correction_to_a_licence_already_used_is_refused_naming_the_field(client, clubs, flagged):
    Player.objects.create(last_name="Tiers", licence="0999999", origin_club=clubs["Club C"])
    as_user(client, clubs["arbitre-a"])
    response = resolve(client, flagged, resolution="correct", entry="existing", licence="999999")
    assert response.status_code == 400
    assert "La licence 0999999 est déjà utilisée." in response.text
    flagged.refresh_from_db()
    assert flagged.status == LicenceConflict.Status.OPEN


def test_a_superuser_may_resolve(client, clubs, flagged, django_user_model):
    boss = django_user_model.objects.create_superuser("chef", password="pw-chef-1")
    as_user(client, boss)
    assert resolve(client, flagged, resolution="merge", entry="existing").status_code == 302
    [person] = Player.objects.all()
    assert person.last_name == "Faussaire"  # the one the superuser kept
    assert set(Registration.objects.values_list("player", flat=True)) == {person.pk}


def test_the_import_flags_a_licence_held_elsewhere_and_never_prints_the_other_entry(client, clubs):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("player-import", args=[clubs["tonight"].pk])
    as_user(client, clubs["arbitre-a"])
    # The real holder by licence, and a namesake of B's entry with no licence: neither is
    # matched with B's entry (A's roster only), neither is refused.
    content = "nom;prénom;licence\nVrai;Jean;412345\nFaussaire;Gaston;\n".encode()
    preview = client.post(url, {"file": SimpleUploadedFile("j.csv", content)})
    assert preview.status_code == 200
    assert "un conflit sera signalé" in preview.text
    assert "doublon probable" not in preview.text
    assert "appartient à un autre joueur" not in preview.text
    assert SECRET not in preview.text and "Gaston (" not in preview.text
    assert client.post(url, {"confirm": "1"}).status_code == 302
    assert clubs["tonight"].registrations.count() == 2
    conflict = LicenceConflict.objects.get()
    assert conflict.existing == clubs["false"]
    assert conflict.newcomer.last_name == "Vrai"
    assert Player.objects.filter(last_name="Faussaire").count() == 2  # A's namesake is new


def test_the_home_page_of_either_club_leads_to_the_conflict_a_third_club_sees_none(
    client, clubs, flagged
):
    for who, club in (("arbitre-a", "Club A"), ("arbitre-b", "Club B")):
        page = as_user(client, clubs[who]).get("/").text
        assert f'href="{reverse("licence-conflicts", args=[clubs[club].pk])}"' in page
        assert "1 conflit de licence à résoudre" in page
    assert "conflit de licence" not in as_user(client, clubs["arbitre-c"]).get("/").text


def test_the_check_in_page_never_names_another_club_holder_of_a_licence_signed_up_online(
    client, clubs
):
    from tournament.signup import services as signup

    tonight = clubs["tonight"]
    Tournament.objects.filter(pk=tonight.pk).update(signup_open=True)
    tonight.refresh_from_db()
    online = signup.signup_register(
        tournament=tonight, last_name="Vrai", first_name="Jean", licence=LICENCE
    )
    # Another club's entry holds no licence on club A's roster: the sign-up is a new entry of
    # club A with the licence, and the conflict is flagged between the clubs, as at the desk.
    assert signup.licence_conflicts(tonight) == []
    assert LicenceConflict.objects.get().newcomer == online.player
    page = as_user(client, clubs["arbitre-a"]).get(reverse("checkin", args=[tonight.pk])).text
    assert LICENCE in page and "VRAI" in page and "FAUSSAIRE" not in page


def test_two_resolutions_from_stale_pages_resolve_once(clubs, flagged):
    from django.core.exceptions import ValidationError

    from tournament.players.conflicts import conflict_resolve

    stale = LicenceConflict.objects.get(pk=flagged.pk)  # the other arbiter's page, still open
    conflict_resolve(
        conflict=flagged, resolution="correct", entry="existing", user=clubs["arbitre-b"]
    )
    with pytest.raises(ValidationError, match="déjà résolu"):
        conflict_resolve(
            conflict=stale, resolution="merge", entry="newcomer", user=clubs["arbitre-a"]
        )
    assert Player.objects.count() == 2
    assert ChangeLog.objects.filter(object_type="licenceconflict", action="update").count() == 2


def test_entries_registered_in_one_tournament_are_not_merged_but_may_be_corrected(
    client, clubs, flagged
):
    # B's false entry also played tonight at A's (a walk-in): merging would seat one person twice.
    Registration.objects.create(tournament=clubs["tonight"], player=clubs["false"], number=2)
    as_user(client, clubs["arbitre-a"])
    refused = resolve(client, flagged, resolution="merge", entry="newcomer")
    assert refused.status_code == 400
    assert "Fusion refusée : les deux fiches sont inscrites au même tournoi ;" in refused.text
    assert Player.objects.count() == 2
    assert resolve(client, flagged, resolution="correct", entry="existing").status_code == 302
