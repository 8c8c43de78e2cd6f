"""Passwords are stored with PBKDF2 outside the tests; the tests' fast hasher is theirs alone."""

import importlib

import pytest
from django.conf import global_settings
from django.contrib.auth.hashers import check_password, get_hasher, make_password


def test_the_site_hashes_with_pbkdf2_and_its_full_iterations():
    site = importlib.import_module("tournament.settings")
    hashers = getattr(site, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert not any("MD5" in hasher or "Unsalted" in hasher for hasher in hashers)


def test_the_tests_use_the_fast_hasher_first(settings):
    assert settings.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.MD5PasswordHasher"


@pytest.mark.django_db
def test_an_account_logs_in_with_the_real_hasher(client, django_user_model, settings):
    settings.PASSWORD_HASHERS = list(global_settings.PASSWORD_HASHERS)
    user = django_user_model.objects.create_user("reel", password="un-vrai-mot-de-passe")
    algorithm, iterations, *_ = user.password.split("$")
    assert algorithm == "pbkdf2_sha256"
    assert int(iterations) == get_hasher("pbkdf2_sha256").iterations >= 1_000_000
    assert check_password("un-vrai-mot-de-passe", user.password)
    assert not check_password("un-faux", user.password)
    response = client.post("/connexion/", {"username": "reel", "password": "un-vrai-mot-de-passe"})
    assert response.status_code == 302
    assert make_password("x").startswith("pbkdf2_sha256$")
