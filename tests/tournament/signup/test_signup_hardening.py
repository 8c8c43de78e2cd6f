"""The public sign-up page against a hostile visitor: a stamp used once, names that can't hide
characters or pass for someone else, and answers that never say whom the site knows."""

import time

import pytest
from django.urls import reverse

from tournament.core.collation import fold
from tournament.models import Player, Registration, Tournament
from tournament.players.importing import parse_table
from tournament.signup import services as signup
from tournament.signup.checkin import walkin_register

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Open de Mâcon", date="2026-05-09", signup_open=True)


def form(stamp: str, **fields) -> dict:
    return {"last_name": "Lefèvre", "first_name": "Hélène", "licence": "", "club": "",
            "website": "", "stamp": stamp, **fields}  # fmt: skip


def post(client, tournament, stamp: str, **fields):
    return client.post(reverse("signup", args=[tournament.pk]), form(stamp, **fields))


def aged_stamp(seconds: float = 30) -> str:
    return signup.form_stamp(now=time.time() - seconds)


# --- the stamp ------------------------------------------------------------------------------


def test_a_stamp_signs_up_once_and_a_replay_keeps_what_was_typed(client, tournament):
    stamp = aged_stamp()
    assert post(client, tournament, stamp, last_name="Premier").status_code == 302
    replay = post(client, tournament, stamp, last_name="Deuxième")
    assert replay.status_code == 400
    assert "Le formulaire a expiré" in replay.text
    assert 'value="Deuxième"' in replay.text  # what was typed is still there
    assert tournament.registrations.count() == 1
    # The page offers a fresh stamp for the next try.
    assert replay.context["stamp"] != stamp


def test_fifteen_sign_ups_with_one_stamp_register_one(client, tournament):
    stamp = aged_stamp()
    answers = [post(client, tournament, stamp, last_name=f"Robot{i}").status_code
               for i in range(15)]  # fmt: skip
    assert answers.count(302) == 1
    assert tournament.registrations.count() == 1


def test_a_stamp_older_than_an_hour_has_expired(client, tournament):
    stale = post(client, tournament, aged_stamp(signup.MAX_FORM_SECONDS + 60))
    assert stale.status_code == 400 and "expiré" in stale.text
    assert signup.MAX_FORM_SECONDS <= 3600
    assert post(client, tournament, aged_stamp(signup.MAX_FORM_SECONDS - 60)).status_code == 302


def test_a_stamp_of_the_old_format_without_a_nonce_is_refused(client, tournament):
    from django.core import signing

    old = signing.dumps(time.time() - 30, salt=signup.STAMP_SALT)
    response = post(client, tournament, old)
    assert response.status_code == 400 and "expiré" in response.text


# --- names ----------------------------------------------------------------------------------


BIDI_AND_CONTROLS = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u200b",
                     "\x07", "\x1b"]  # fmt: skip


@pytest.mark.parametrize(
    "character", BIDI_AND_CONTROLS, ids=[hex(ord(c)) for c in BIDI_AND_CONTROLS]
)
def test_names_with_bidi_or_control_characters_are_refused_naming_the_field(
    client, tournament, character
):
    response = post(client, tournament, aged_stamp(), last_name=f"DUPRE{character}Jean")
    assert response.status_code == 400
    assert "Nom : " in response.text and "refusé" in response.text
    assert not Registration.objects.exists()
    response = post(client, tournament, aged_stamp(), club=f"Club{character}")
    assert response.status_code == 400 and "Club : " in response.text
    assert not Player.objects.exists()


def test_names_are_nfkc_normalised(client, tournament):
    assert post(client, tournament, aged_stamp(), last_name="ＤＵＰＲＥ", first_name="ﬁfi")
    player = Player.objects.get()
    assert (player.last_name, player.first_name) == ("DUPRE", "fifi")


def test_cyrillic_lookalikes_fold_to_the_latin_name():
    assert fold("DUРRE Jеan") == fold("DUPRE Jean") == "duprejean"  # Р and е are Cyrillic
    assert fold("ΑΝΝΑ") == fold("ANNA")  # Greek capitals


def test_the_database_folds_lookalikes_as_python_does():
    from tournament.players.folding import Fold

    texts = ["DUРRE Jеan", "ΑΝΝΑ Κοτ", "аеорсух АВЕНКМОРСТХ", "αβεηικμνοπρτυχ"]
    Player.objects.bulk_create(Player(last_name=text) for text in texts)
    folded = dict(Player.objects.annotate(f=Fold("last_name")).values_list("last_name", "f"))
    assert folded == {text: fold(text) for text in texts}


def test_a_lookalike_sign_up_is_the_same_person(client, tournament):
    assert (
        post(client, tournament, aged_stamp(), last_name="DUPRE", first_name="Jean").status_code
        == 302
    )
    again = post(client, tournament, aged_stamp(), last_name="DUРRE", first_name="Jеan")
    assert again.status_code == 400 and "déjà inscrit" in again.text
    assert tournament.registrations.count() == 1


def test_the_door_and_the_import_refuse_the_same_characters(tournament):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as caught:
        walkin_register(tournament=tournament, last_name="MARTIN\u202eLéa")
    assert "last_name" in caught.value.message_dict
    preview = parse_table([["nom", "prénom"], ["MARTIN", "Lé\u2066a"]])
    assert not preview.rows
    assert "Prénom" in str(preview.errors[0])


def test_the_desk_player_form_refuses_them_too(arbiter_client, arbiter):
    tournament = Tournament.objects.create(name="Desk", date="2026-05-09")
    response = arbiter_client.post(
        reverse("player-register", args=[tournament.pk]),
        {"last_name": "ROBERT\u202e", "first_name": "Luc"},
    )
    assert response.status_code == 400
    assert not Player.objects.exists()


# --- what the public page says --------------------------------------------------------------


def test_a_known_licence_under_another_name_gets_the_answer_of_a_new_one(client, tournament):
    """The page must not tell a stranger that a licence is on the roster: same redirect,
    and the arbiter sees the conflict on the check-in page."""
    Player.objects.create(last_name="Isnard", first_name="Paul", licence="0999999")
    known = post(client, tournament, aged_stamp(), last_name="Jacquet", licence="0999999")
    unknown = post(client, tournament, aged_stamp(), last_name="Kahn", licence="0888888")
    assert known.status_code == unknown.status_code == 302
    page = client.get(known["Location"])
    assert page.status_code == 200 and "Isnard" not in page.text and "ISNARD" not in page.text
    # The real holder keeps the licence; the sign-up is registered without it, flagged.
    assert Player.objects.get(licence="0999999").last_name == "Isnard"
    jacquet = Registration.objects.get(player__last_name="Jacquet")
    assert jacquet.player.licence in (None, "")
    assert signup.licence_conflicts(tournament)[0]["registration"] == jacquet


def test_the_arbiter_sees_the_licence_conflict_at_the_door(client, arbiter_client, arbiter):
    tournament = Tournament.objects.create(
        name="Open", date="2026-05-09", signup_open=True, owner=arbiter
    )
    Player.objects.create(last_name="Isnard", first_name="Paul", licence="0999999")
    assert post(client, tournament, aged_stamp(), last_name="Jacquet", licence="0999999")
    page = arbiter_client.get(reverse("checkin", args=[tournament.pk])).text
    assert "0999999" in page and "ISNARD" in page and "JACQUET" in page
