"""A backup keeps online registration: the page's settings, who is pré-inscrit or checked in."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.documents.backup import BackupError, tournament_export, tournament_import
from tournament.models import Registration, Tournament
from tournament.signup import checkin
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db

REGISTRATION_FIELDS = ("number", "status", "signup_code", "signed_up_at", "checked_in_at")


def test_sign_up_settings_and_check_ins_survive_a_backup_and_restore(arbiter):
    closes = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    tournament = Tournament.objects.create(
        name="Open",
        date="2026-06-13",
        signup_open=True,
        signup_capacity=48,
        signup_closes_at=closes,
        signup_licence_required=True,
    )
    came, absent = (
        signup.signup_register(tournament=tournament, last_name=name, licence=licence)
        for name, licence in (("Côté", "0412345"), ("Noël", "0412346"))
    )
    checkin.registration_check_in(registration=came, present=True, user=arbiter)
    restored = tournament_import(json.dumps(tournament_export(tournament)), user=arbiter)

    assert restored.pk != tournament.pk
    assert (
        restored.signup_open,
        restored.signup_capacity,
        restored.signup_closes_at,
        restored.signup_licence_required,
    ) == (True, 48, closes, True)
    for original in (came, absent):
        original.refresh_from_db()
        copy = Registration.objects.get(tournament=restored, number=original.number)
        assert [getattr(copy, f) for f in REGISTRATION_FIELDS] == [
            getattr(original, f) for f in REGISTRATION_FIELDS
        ]
    assert restored.registrations.get(status="expected").player.last_name == "Noël"


def test_a_backup_with_an_impossible_capacity_or_two_equal_codes_is_refused(arbiter):
    tournament = Tournament.objects.create(name="Open", date="2026-06-13", signup_open=True)
    for name in ("Côté", "Noël"):
        signup.signup_register(tournament=tournament, last_name=name)
    document = tournament_export(tournament)
    document["sections"]["tournament.tournament"][0]["signup_capacity"] = 0
    with pytest.raises(BackupError, match="signup_capacity"):
        tournament_import(json.dumps(document), user=arbiter)
    document = tournament_export(tournament)
    rows = document["sections"]["tournament.registration"]
    rows[1]["signup_code"] = rows[0]["signup_code"]
    with pytest.raises(BackupError, match="signup_code"):
        tournament_import(json.dumps(document), user=arbiter)
