"""Licence conflicts (issues 27 and 36): club B holds a licence under a false name; club A
registers the real holder for tonight (allowed, and A is told nothing: the same page as for a
licence nobody holds); the conflict goes to B, the club that held the licence, which proposes
a settlement; A learns of it from that proposal and accepts or refuses it; a superuser may
settle alone. Each side sees its own entry only; logged in both clubs; a third club sees
nothing and may do nothing."""

import pytest
from django.urls import reverse

from tests.club_helpers import join_club
from tests.desk_helpers import register
from tournament.models import ChangeLog, LicenceConflict, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

LICENCE = "0412345"
SECRET = "Nocturne secrète du club B"
NOTICE = "autre club"  # any hint at another club's entry, on A's pages


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
    people["secret"] = secret
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
    assert NOTICE not in page
    assert "Faussaire" not in page and SECRET not in page
    client.logout()
    return LicenceConflict.objects.get()


def test_registering_a_licence_another_club_holds_is_allowed_and_flagged_for_the_holder(
    client, clubs, flagged
):
    registration = clubs["tonight"].registrations.get()
    real = registration.player
    assert (real.last_name, real.licence, real.origin_club) == ("Vrai", LICENCE, clubs["Club A"])
    assert (flagged.existing, flagged.newcomer) == (clubs["false"], real)
    assert flagged.status == LicenceConflict.Status.OPEN
    # Written in the holding club's history only (A's would tell A), naming no one.
    logs = ChangeLog.objects.filter(object_type="licenceconflict", action="create")
    assert list(logs.values_list("club__name", flat=True)) == ["Club B"]
    assert "Faussaire" not in str(list(logs.values_list("after", flat=True)))
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


def test_the_conflict_goes_to_the_holding_club_only_until_it_proposes(client, clubs, flagged):
    page = as_user(client, clubs["arbitre-b"]).get(
        reverse("licence-conflicts", args=[clubs["Club B"].pk])
    )
    assert page.status_code == 200
    assert reverse("licence-conflict", args=[flagged.pk]) in page.text
    # A, the registering club, and C have no trace of it: their lists, the page, the home page.
    for who, club in (("arbitre-a", "Club A"), ("arbitre-c", "Club C")):
        as_user(client, clubs[who])
        own = client.get(reverse("licence-conflicts", args=[clubs[club].pk]))
        assert own.status_code == 200 and LICENCE not in own.text
        assert client.get(reverse("licence-conflict", args=[flagged.pk])).status_code in (403, 404)
        assert "conflit de licence" not in client.get("/").text
        response = resolve(client, flagged, resolution="merge", entry="newcomer")
        assert response.status_code in (403, 404)
    flagged.refresh_from_db()
    assert flagged.status == LicenceConflict.Status.OPEN
    assert Player.objects.count() == 2


def test_each_side_sees_its_own_entry_only(client, clubs, flagged):
    page = as_user(client, clubs["arbitre-b"]).get(reverse("licence-conflict", args=[flagged.pk]))
    assert page.status_code == 200
    assert "FAUSSAIRE Gaston" in page.text and SECRET in page.text
    assert "VRAI" not in page.text and "Club A" not in page.text
    propose(client, flagged, resolution="correct", entry="existing", note="Appelez Paul.")
    page = as_user(client, clubs["arbitre-a"]).get(reverse("licence-conflict", args=[flagged.pk]))
    assert page.status_code == 200
    assert "VRAI Jean" in page.text and "Appelez Paul." in page.text
    assert "FAUSSAIRE" not in page.text and SECRET not in page.text and "Club B" not in page.text


def resolve(client, conflict, **fields):
    return client.post(reverse("licence-conflict", args=[conflict.pk]), fields)


def propose(client, conflict, **fields):
    response = resolve(client, conflict, **fields)
    assert response.status_code == 302, response.content.decode()
    conflict.refresh_from_db()
    assert conflict.status == LicenceConflict.Status.PROPOSED
    return response


def reopen(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)


def test_a_merge_by_consent_keeps_both_histories_on_one_person_logged_in_both_clubs(
    client, clubs, flagged
):
    reopen(clubs["secret"])  # B's entry is the one merged away: its tournament must be open
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="merge", entry="newcomer")
    assert Player.objects.count() == 2  # nothing moves before A consents
    as_user(client, clubs["arbitre-a"])
    assert resolve(client, flagged, accept="1").status_code == 302
    [person] = Player.objects.all()
    assert (person.last_name, person.licence) == ("Vrai", LICENCE)
    past = Registration.objects.get(pk=clubs["past"].pk)
    assert (past.player, past.number, past.tournament.name) == (person, 7, SECRET)
    assert clubs["tonight"].registrations.get().player == person
    flagged.refresh_from_db()
    assert flagged.status == LicenceConflict.Status.RESOLVED
    assert flagged.resolution == LicenceConflict.Resolution.MERGE
    assert (flagged.resolved_by, flagged.consented_by) == (clubs["arbitre-a"], clubs["arbitre-a"])
    assert flagged.proposed_by == clubs["arbitre-b"]
    logs = ChangeLog.objects.filter(object_type="licenceconflict", action="update")
    assert sorted(set(logs.values_list("club__name", flat=True))) == ["Club A", "Club B"]
    page = as_user(client, clubs["arbitre-b"]).get(reverse("licence-conflict", args=[flagged.pk]))
    assert "Fiches fusionnées" in page.text


def test_a_finished_tournament_is_never_rewritten_by_a_settlement(client, clubs, flagged):
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="merge", entry="newcomer")
    as_user(client, clubs["arbitre-a"])
    refused = resolve(client, flagged, accept="1")
    assert refused.status_code == 400
    assert "tournoi terminé" in refused.text and SECRET not in refused.text
    assert Registration.objects.get(pk=clubs["past"].pk).player == clubs["false"]
    assert Player.objects.count() == 2


def test_a_refused_proposal_opens_the_conflict_again_with_the_answer(client, clubs, flagged):
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="correct", entry="newcomer")
    as_user(client, clubs["arbitre-a"])
    assert resolve(client, flagged, accept="0", note="C'est bien sa licence.").status_code == 302
    flagged.refresh_from_db()
    assert flagged.status == LicenceConflict.Status.OPEN
    assert Player.objects.get(last_name="Vrai").licence == LICENCE
    page = as_user(client, clubs["arbitre-b"]).get(reverse("licence-conflict", args=[flagged.pk]))
    assert "C&#x27;est bien sa licence." in page.text


def test_a_correction_by_consent_takes_the_licence_off_the_false_entry(client, clubs, flagged):
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="correct", entry="existing")
    as_user(client, clubs["arbitre-a"])
    assert resolve(client, flagged, accept="1").status_code == 302
    false = Player.objects.get(pk=clubs["false"].pk)
    assert false.licence is None  # a licence, not a name or a result: the finished one may keep
    assert Registration.objects.get(pk=clubs["past"].pk).player == false
    assert clubs["tonight"].registrations.get().player.licence == LICENCE
    again = resolve(client, flagged, accept="1")
    assert again.status_code in (400, 403, 404)
    assert Player.objects.count() == 2


def test_a_correction_to_a_licence_another_club_uses_is_no_oracle(client, clubs, flagged):
    """Checked against the entry's own club only: another club's roster never answers."""
    Player.objects.create(last_name="Tiers", licence="0999999", origin_club=clubs["Club C"])
    Player.objects.create(last_name="Autre", licence="0888888", origin_club=clubs["Club B"])
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="correct", entry="existing", licence="888888")
    as_user(client, clubs["arbitre-a"])
    refused = resolve(client, flagged, accept="1")
    assert refused.status_code == 400
    assert "La licence 0888888 est déjà utilisée." in refused.text
    assert resolve(client, flagged, accept="0").status_code == 302
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="correct", entry="existing", licence="999999")
    as_user(client, clubs["arbitre-a"])
    assert resolve(client, flagged, accept="1").status_code == 302
    assert Player.objects.get(pk=clubs["false"].pk).licence == "0999999"
    # Club C, which held that licence, now has a conflict of its own (B is told nothing).
    assert LicenceConflict.objects.filter(
        existing_club=clubs["Club C"], newcomer=clubs["false"], status="open"
    ).exists()


def test_a_superuser_may_settle_alone(client, clubs, flagged, django_user_model):
    boss = django_user_model.objects.create_superuser("chef", password="pw-chef-1")
    as_user(client, boss)
    page = client.get(reverse("licence-conflict", args=[flagged.pk]))
    assert "FAUSSAIRE Gaston" in page.text and "VRAI Jean" in page.text
    assert resolve(client, flagged, resolution="merge", entry="existing").status_code == 302
    [person] = Player.objects.all()
    assert person.last_name == "Faussaire"  # the one the superuser kept
    assert set(Registration.objects.values_list("player", flat=True)) == {person.pk}


def test_the_import_preview_says_nothing_of_a_licence_held_elsewhere(client, clubs):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("player-import", args=[clubs["tonight"].pk])
    as_user(client, clubs["arbitre-a"])
    content = "nom;prénom;licence\nVrai;Jean;412345\nFaussaire;Gaston;\n".encode()
    preview = client.post(url, {"file": SimpleUploadedFile("j.csv", content)})
    assert preview.status_code == 200
    assert "autre club" not in preview.text and "conflit" not in preview.text
    assert "doublon probable" not in preview.text
    assert SECRET not in preview.text and "Gaston (" not in preview.text
    confirmed = client.post(url, {"confirm": "1"})
    assert confirmed.status_code == 302
    assert "autre club" not in client.get(confirmed["Location"]).text
    assert clubs["tonight"].registrations.count() == 2
    conflict = LicenceConflict.objects.get()  # for the holding club
    assert (conflict.existing, conflict.newcomer.last_name) == (clubs["false"], "Vrai")


def test_the_home_page_of_the_holder_leads_to_the_conflict_then_the_other_club(
    client, clubs, flagged
):
    page = as_user(client, clubs["arbitre-b"]).get("/").text
    assert f'href="{reverse("licence-conflicts", args=[clubs["Club B"].pk])}"' in page
    assert "1 conflit de licence attend votre décision" in page
    assert "conflit de licence" not in as_user(client, clubs["arbitre-a"]).get("/").text
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="correct", entry="existing")
    assert "conflit de licence" not in client.get("/").text  # B waits now
    page = as_user(client, clubs["arbitre-a"]).get("/").text
    assert "1 conflit de licence attend votre décision" in page
    assert "conflit de licence" not in as_user(client, clubs["arbitre-c"]).get("/").text


def test_the_check_in_page_never_names_another_club_holder_of_a_licence_signed_up_online(
    client, clubs
):
    from tournament.players.checks import licence_checks_process
    from tournament.signup import services as signup

    tonight = clubs["tonight"]
    Tournament.objects.filter(pk=tonight.pk).update(signup_open=True)
    tonight.refresh_from_db()
    online = signup.signup_register(
        tournament=tonight, last_name="Vrai", first_name="Jean", licence=LICENCE
    )
    assert signup.licence_conflicts(tonight) == []
    assert not LicenceConflict.objects.exists()  # compared once the response is sent
    licence_checks_process()
    assert LicenceConflict.objects.get().newcomer == online.player
    page = as_user(client, clubs["arbitre-a"]).get(reverse("checkin", args=[tonight.pk])).text
    assert LICENCE in page and "VRAI" in page and "FAUSSAIRE" not in page


def test_two_answers_from_stale_pages_settle_once(clubs, flagged):
    from django.core.exceptions import ValidationError

    from tournament.clubs.settlement import conflict_answer, conflict_propose

    conflict_propose(
        conflict=flagged, user=clubs["arbitre-b"], resolution="correct", entry="existing"
    )
    stale = LicenceConflict.objects.get(pk=flagged.pk)
    conflict_answer(conflict=flagged, user=clubs["arbitre-a"], accept=True)
    with pytest.raises(ValidationError, match="déjà résolu"):
        conflict_answer(conflict=stale, user=clubs["arbitre-a"], accept=True)
    assert Player.objects.count() == 2
    updates = ChangeLog.objects.filter(object_type="licenceconflict", action="update")
    assert updates.count() == 4  # the proposal and the settlement, each in both clubs


def test_entries_registered_in_one_tournament_are_not_merged_but_may_be_corrected(
    client, clubs, flagged
):
    Registration.objects.create(tournament=clubs["tonight"], player=clubs["false"], number=2)
    reopen(clubs["secret"])
    as_user(client, clubs["arbitre-b"])
    propose(client, flagged, resolution="merge", entry="newcomer")
    as_user(client, clubs["arbitre-a"])
    refused = resolve(client, flagged, accept="1")
    assert refused.status_code == 400
    assert "Fusion refusée : les deux fiches sont inscrites au même tournoi ;" in refused.text
    assert Player.objects.count() == 2
