"""Issue 36, second reproduction: any club's arbiter listed other clubs' licences and holders
(the import preview's "aussi utilisée dans un autre club", one conflict page per licence, a
crafted restore). Now a club that registers, imports or restores a licence sees exactly the
same whether or not another club holds it; the conflict goes to the holding club, at most
LICENCE_CONFLICTS_PER_DAY a day from one club's registrations, counted in one row, logged."""

import json
import logging
import re
from contextlib import contextmanager

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse

from scoring.documents.backup import tournament_export_json
from tests.desk_helpers import register
from tournament.models import LicenceConflict, Player, Registration, Tournament
from tournament.models.limits import Counter

pytestmark = pytest.mark.django_db

A_LICENCES = [f"05{n:05d}" for n in range(10)]  # club A's ten players' licences
FRESH = [f"06{n:05d}" for n in range(10)]  # licences nobody holds


@pytest.fixture
def a_roster(two_clubs):
    for n, licence in enumerate(A_LICENCES):
        player = Player.objects.create(
            last_name=f"Alpha{n}", licence=licence, origin_club=two_clubs["Club Alpha"]
        )
        Registration.objects.create(tournament=two_clubs["private"], player=player, number=n + 2)
    return two_clubs


def same(text: str, licences: list[str]) -> str:
    """The page with what differs by construction taken out: the licences typed (by rank),
    CSRF tokens, ids in addresses."""
    for rank, licence in enumerate(licences):
        text = text.replace(licence, f"<licence {rank}>").replace(
            licence.lstrip("0"), f"<l {rank}>"
        )
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "", text)
    text = re.sub(r'data-etag="[^"]+"', "", text)  # a hash of the tournament's id and revision
    text = re.sub(r"=\d+", "=<id>", text)
    return re.sub(r"/\d+/", "/<id>/", text)


@contextmanager
def then_forgotten():
    """One pass of a comparison, rolled back after: the next pass starts from the same state."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def assert_same(first, second) -> None:
    """Equal, or the differing lines shown."""
    import difflib

    if first != second:
        lines = [str(side).split("\\n") for side in (first, second)]
        diff = difflib.unified_diff(*lines, lineterm="")
        raise AssertionError("\n".join(list(diff)[:60]))


def csv(licences: list[str]) -> SimpleUploadedFile:
    rows = [f"Essai{n};Bob;{licence}" for n, licence in enumerate(licences)]
    rows += ["Libre;Un;", "Libre;Deux;"]  # 12 rows, as in the reproduction
    return SimpleUploadedFile("j.csv", ("nom;prénom;licence\n" + "\n".join(rows)).encode())


def test_the_import_preview_and_its_result_look_the_same_held_or_not(client, a_roster):
    people = a_roster
    pages = []
    for licences in (A_LICENCES, FRESH):
        with then_forgotten():
            pages.append(import_pass(client, people, licences))
    assert_same(pages[0], pages[1])


def import_pass(client, people, licences):
    """Club B imports 12 rows (10 with these licences) and reads what it is shown."""
    evening = Tournament.objects.create(
        name="Import Beta", date="2026-11-27", host_club=people["Club Beta"],
        owner=people["arbitre-b"],
    )  # fmt: skip
    client.force_login(people["arbitre-b"])
    url = reverse("player-import", args=[evening.pk])
    preview = client.post(url, {"file": csv(licences)})
    confirmed = client.post(url, {"confirm": "1"})
    assert confirmed.status_code == 302
    followed = client.get(confirmed["Location"])
    home = client.get("/")
    conflicts = client.get(reverse("licence-conflicts", args=[people["Club Beta"].pk]))
    assert "Alpha" not in preview.text + followed.text + home.text + conflicts.text
    # The conflicts exist when A's licences were imported, for club A only.
    opened = LicenceConflict.objects.filter(existing_club=people["Club Alpha"]).count()
    assert opened == (10 if licences == A_LICENCES else 0)
    return [
        (preview.status_code, same(preview.text, licences)),
        (followed.status_code, same(followed.text, licences)),
        same(home.text, licences),
        same(conflicts.text, licences),
    ]


def test_the_desk_says_the_same_held_or_not(client, two_clubs):
    from tests.tournament.clubs.conftest import HELD

    answers = []
    client.force_login(two_clubs["admin-b"])
    for licence in (HELD, "0612345"):
        with then_forgotten():
            evening = two_clubs["b-evening"]
            response = register(
                client, evening, last_name="Voleur", first_name="Bob", licence=licence
            )
            told = [str(message) for message in get_messages(response.wsgi_request)]
            page = client.get(response["Location"])
            home = client.get("/")
            answers.append((response.status_code, told, same(page.text + home.text, [licence])))
            assert LicenceConflict.objects.count() == (1 if licence == HELD else 0)
    assert_same(answers[0], answers[1])


def test_a_crafted_restore_tells_nothing(client, a_roster):
    """A backup naming A's licences, restored by B: the same answer as with fresh licences."""
    answers = []
    for licences in (A_LICENCES[:3], FRESH[:3]):
        with then_forgotten():
            answers.append(restore_pass(client, a_roster, licences))
    assert_same(answers[0], answers[1])


def restore_pass(client, people, licences):
    """B writes a backup naming these licences, restores it, and reads what it is shown."""
    source = Tournament.objects.create(
        name="Copie", date="2026-11-21", owner=people["admin-b"], host_club=people["Club Beta"]
    )
    copied = []
    for n, licence in enumerate(licences):
        copied.append(Player.objects.create(last_name=f"Copie{n}", licence=licence))
        Registration.objects.create(tournament=source, player=copied[-1], number=n + 1)
    document = tournament_export_json(source)
    assert json.loads(document)["sections"]
    source.delete()
    Player.objects.filter(pk__in=[player.pk for player in copied]).delete()
    client.force_login(people["arbitre-b"])
    raw = SimpleUploadedFile("sauvegarde.json", document.encode())
    response = client.post(reverse("tournament-restore"), {"file": raw})
    assert response.status_code == 302
    page = client.get(response["Location"])
    home = client.get("/")
    assert "Alpha" not in page.text + home.text
    held = LicenceConflict.objects.filter(existing_club=people["Club Alpha"]).count()
    assert held == (3 if licences[0] in A_LICENCES else 0)
    return same(page.text, licences), same(home.text, licences)


def test_a_club_opens_a_bounded_number_of_conflicts_a_day(client, a_roster, settings, caplog):
    settings.LICENCE_CONFLICTS_PER_DAY = 3
    people = a_roster
    client.force_login(people["admin-b"])
    with caplog.at_level(logging.INFO, logger="tournament.players.conflicts"):
        for n, licence in enumerate(A_LICENCES[:5]):
            response = register(client, people["b-evening"], last_name=f"Essai{n}", licence=licence)
            assert response.status_code == 302
    assert people["b-evening"].registrations.count() == 5  # the evening goes on
    assert LicenceConflict.objects.count() == 3
    counter = Counter.objects.get(key=f"licence-conflicts:{people['Club Beta'].pk}")
    assert counter.hits == 5
    opened = [r for r in caplog.records if "opened by" in r.getMessage()]
    refused = [r for r in caplog.records if "not opened" in r.getMessage()]
    assert (len(opened), len(refused)) == (3, 2)
