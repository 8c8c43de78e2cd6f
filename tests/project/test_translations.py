"""The English interface: a complete catalogue, and real pages that switch language."""

import ast
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from tournament.models import Tournament

PO = Path(django_settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
PLACEHOLDER = re.compile(r"%\([^)]+\)[sdif]|%[sd]")


def catalogue_entries(path: Path) -> list[dict]:
    """The entries of a .po file: flags, msgid, msgid_plural and msgstr (or msgstr[n])."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": set()}
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"].update(flag.strip() for flag in line[2:].split(","))
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                entry[key] += ast.literal_eval(line)
            elif line.strip():
                key, _, rest = line.partition(" ")
                entry[key] = ast.literal_eval(rest)
        if entry.get("msgid"):
            entries.append(entry)
    return entries


def translations(entry: dict) -> list[str]:
    return [value for key, value in entry.items() if key.startswith("msgstr")]


def test_english_catalogue_has_no_untranslated_or_fuzzy_entry():
    entries = catalogue_entries(PO)
    assert len(entries) > 500
    untranslated = [e["msgid"] for e in entries if not all(translations(e))]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert untranslated == []
    assert fuzzy == []


def test_english_catalogue_keeps_every_placeholder():
    for entry in catalogue_entries(PO):
        if "msgid_plural" in entry:
            # The singular may leave the count out ("Register this player").
            expected = sorted(PLACEHOLDER.findall(entry["msgid_plural"]))
            assert sorted(PLACEHOLDER.findall(entry["msgstr[1]"])) == expected, entry["msgid"]
            assert set(PLACEHOLDER.findall(entry["msgstr[0]"])) <= set(expected), entry["msgid"]
        else:
            expected = sorted(PLACEHOLDER.findall(entry["msgid"]))
            assert sorted(PLACEHOLDER.findall(entry["msgstr"])) == expected, entry["msgid"]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
def test_msgfmt_counts_no_untranslated_or_fuzzy_message():
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", os.devnull, str(PO)],
        capture_output=True,
        text=True,
        check=True,
    )
    statistics = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ translated messages\.", statistics), statistics


def test_home_page_is_french_by_default_and_english_on_request(db, client, english_catalogue):
    french = client.get(reverse("home")).content.decode()
    assert "Tournois" in french
    assert "Aucun tournoi pour le moment." in french
    assert '<html lang="fr"' in french

    english = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tournaments" in english
    assert "No tournaments yet." in english
    assert "Arbiter login" in english
    assert "Tournois" not in english


def test_login_page_in_english(db, client, english_catalogue):
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Arbiter login" in html
    assert "Log in" in html
    assert "Se connecter" not in html


def test_language_menu_switches_a_tournament_page_to_english(arbiter_client, english_catalogue):
    tournament = Tournament.objects.create(name="Open de Chalon", date="2026-11-21")
    url = reverse("tournament-detail", args=[tournament.pk])

    french = arbiter_client.get(url).content.decode()
    for text in ("Tableau de bord", "Formule", "Donnes par position", "Individuel"):
        assert text in french
    assert "Dashboard" not in french

    response = arbiter_client.post(reverse("set_language"), {"language": "en", "next": url})
    assert response.status_code == 302
    english = arbiter_client.get(url).content.decode()
    for text in ("Dashboard", "Players", "Rounds", "Score entry", "Ranking", "Printing"):
        assert text in english
    for text in ("Format", "Deals per round", "Individual", "none generated", "Edit the settings"):
        assert text in english
    for text in ("Tableau de bord", "Donnes par position", "Modifier les réglages"):
        assert text not in english


def test_the_phone_pages_script_catalogue_is_complete_and_served_in_english(client):
    js = PO.with_name("djangojs.po")
    entries = catalogue_entries(js)
    assert len(entries) >= 15
    assert [e["msgid"] for e in entries if not all(translations(e)) or "fuzzy" in e["flags"]] == []
    client.cookies["django_language"] = "en"
    english = client.get(reverse("javascript-catalog")).content.decode()
    assert "Deals %(numbers)s confirmed." in english
    client.cookies["django_language"] = "fr"
    french = client.get(reverse("javascript-catalog")).content.decode()
    assert "Deals %(numbers)s confirmed." not in french


def test_no_french_message_is_taken_over_by_another_catalogue_in_french():
    """Our source language is French: in French every message must come back unchanged.

    Django's own French catalogue translates English words, and some of ours are French words
    spelt the same ("Close" → "Fermer" made every closed position read as a verb). A message
    given a context (pgettext) or different words no longer collides.
    """
    from django.utils import translation

    collisions = []
    with translation.override("fr"):
        for entry in catalogue_entries(PO):
            context = entry.get("msgctxt")
            if "msgid_plural" in entry:
                for count in (1, 2):
                    source = entry["msgid"] if count == 1 else entry["msgid_plural"]
                    got = (
                        translation.npgettext(context, entry["msgid"], entry["msgid_plural"], count)
                        if context
                        else translation.ngettext(entry["msgid"], entry["msgid_plural"], count)
                    )
                    if got != source:
                        collisions.append((source, got))
            else:
                got = (
                    translation.pgettext(context, entry["msgid"])
                    if context
                    else translation.gettext(entry["msgid"])
                )
                if got != entry["msgid"]:
                    collisions.append((entry["msgid"], got))
    assert collisions == []


def test_no_script_message_is_taken_over_in_french(client):
    client.cookies["django_language"] = "fr"
    catalogue = client.get(reverse("javascript-catalog")).content.decode()
    taken = [
        e["msgid"]
        for e in catalogue_entries(PO.with_name("djangojs.po"))
        if json_string(e["msgid"]) in catalogue
    ]
    assert taken == []


def json_string(text: str) -> str:
    import json

    return json.dumps(text)


def test_a_closed_position_reads_close_not_fermer_in_french():
    from django.utils import translation

    from tournament.models import Position

    with translation.override("fr"):
        assert str(Position.Status.CLOSED.label) == "Close"
        assert str(Position.Status.PUBLISHED.label) == "Publiée"


def test_the_language_menu_names_english_in_english_on_a_french_page(db, client):
    html = client.get(reverse("home")).content.decode()
    assert 'title="English"' in html
    assert "Anglais" not in html


def test_error_pages_speak_french_not_djangos_english(db, client, django_user_model):
    """A closed sign-up page, a revoked hall link or a private tournament answer 404, an
    account without a role 403: the person reads why in French, never "Not Found"."""
    from django.template.loader import render_to_string

    missing = client.get("/public/999999/")
    assert missing.status_code == 404
    assert "Page introuvable" in missing.text and "Not Found" not in missing.text
    assert '<html lang="fr">' in missing.text

    tournament = Tournament.objects.create(name="Open privé", date="2026-11-21")
    stranger = django_user_model.objects.create_user("voisin", password="pw-voisin-1")
    client.force_login(stranger)
    refused = client.get(reverse("tournament-detail", args=[tournament.pk]))
    assert refused.status_code == 403
    assert "Accès refusé" in refused.text and "Forbidden" not in refused.text

    # Rendered by Django without a request: no base template, no database.
    assert "Erreur du serveur" in render_to_string("500.html")
    assert "Requête invalide" in render_to_string("400.html")
