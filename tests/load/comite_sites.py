"""The Django steps of tests/load/test_send_results_two_servers.py, each run in a process of its
own on one of the two databases (`python -m tests.load.comite_sites STEP OUT [ARGS]`): the
club's laptop (SQLite) and the comité's server (PostgreSQL) share nothing but HTTP.

- `seed-comite OUT`: the comité's server: the club (its administrator), a circuit of the comité
  inviting it, another club; keys: the club's (entering the circuit), a revoked one of the club,
  the other club's.
- `seed-laptop OUT`: the laptop: the same club by name, its arbiter (a login), and a finished
  tournament with every kind of incident (tests/scoring/documents/report_tournament.py).
- `configure OUT URL KEY`: the laptop's comité settings (plain http allowed: loopback).
- `document OUT`: the document the laptop sends (its source, once it has one).
- `correct OUT`: on the laptop: reopen the tournament, record a forgotten penalty, finish it.
- `read-comite OUT`: what the comité's server holds: versions, tournaments, players, the
  circuit's counted tournaments.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ARBITER = "arbitre-du-club"
ARBITER_PASSWORD = "portable-" + "mot-de-passe-9"
CLUB = "Club de Tarot de Chalon"
OTHER_CLUB = "Club de Mâcon"
SOURCE_WHEN_NONE = "source-before-any-sending"


def seed_comite(out: str) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from scoring.models import Championship
    from scoring.upload.keys import upload_key_issue, upload_key_revoke
    from tournament.models import Club, ClubMember

    admin = get_user_model().objects.create_user("admin-chalon", password="pw-admin-chalon-1")
    club = Club.objects.create(name=CLUB)
    ClubMember.objects.create(club=club, user=admin, role=ClubMember.Role.ADMIN)
    comite = Club.objects.create(name="Comité de Saône-et-Loire")
    circuit = Championship.objects.create(
        name="Circuit 71", host_club=comite, scale=[20, 15, 10], is_public=True
    )
    circuit.participating_clubs.add(club)
    other = Club.objects.create(name=OTHER_CLUB)
    _row, good = upload_key_issue(club=club, user=admin, championships=[circuit])
    revoked_row, revoked = upload_key_issue(club=club, user=admin)
    upload_key_revoke(club=club, key_id=revoked_row.pk)
    _row, other_key = upload_key_issue(club=other, user=None)
    keys = {"good": good, "revoked": revoked, "other_club": other_key}
    Path(out).write_text(json.dumps({"keys": keys, "circuit": circuit.pk}))


def seed_laptop(out: str) -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from tests.scoring.documents.report_tournament import build_report_tournament
    from tournament.models import Club, ClubMember, Tournament

    arbiter = get_user_model().objects.create_user(ARBITER, password=ARBITER_PASSWORD)
    arbiter.is_superuser = arbiter.is_staff = True
    arbiter.save()
    club = Club.objects.create(name=CLUB)
    ClubMember.objects.create(club=club, user=arbiter, role=ClubMember.Role.ADMIN)
    tournament = build_report_tournament(arbiter)["tournament"]
    Tournament.objects.filter(pk=tournament.pk).update(
        host_club=club, owner=arbiter, is_public=True
    )
    Path(out).write_text(json.dumps({"tournament": tournament.pk}))


def configure(out: str, url: str, key: str) -> None:
    from scoring.upload.send import comite_server_save

    # Plain http on the loopback, explicitly allowed as the settings page allows it (HTTPS and
    # its certificate check: tests/scoring/upload/test_https_certificate.py).
    comite_server_save(url=url, key=key, allow_http=url.startswith("http://"))
    Path(out).write_text("{}")


def _tournament():
    from tournament.models import Tournament

    return Tournament.objects.get()


def document(out: str) -> None:
    from scoring.upload.send import sending_of, upload_document

    tournament = _tournament()
    sending = sending_of(tournament)
    source = sending.source if sending is not None else SOURCE_WHEN_NONE
    Path(out).write_bytes(upload_document(tournament, source=source))


def correct(out: str) -> None:
    from scoring.sheets.services import incident_record
    from tournament.access.lifecycle import tournament_finish, tournament_reopen

    tournament = tournament_reopen(tournament=_tournament(), reason="Pénalité oubliée")
    incident_record(
        tournament=tournament,
        kind="ethics",
        registration=tournament.registrations.order_by("number").first(),
        decision="Avertissement",
        penalty_points=25,
    )
    tournament_finish(tournament=tournament)
    Path(out).write_text("{}")


def move_laptop(out: str) -> None:
    """The evening moves to another laptop: backed up, gone from here, restored (--owner)."""
    from django.core.management import call_command

    backup = Path(out).with_suffix(".backup.json")
    call_command("backup_tournament", _tournament().pk, output=str(backup), verbosity=0)
    _tournament().delete()
    call_command("restore_tournament", str(backup), owner=ARBITER, verbosity=0)
    Path(out).write_text(json.dumps({"tournament": _tournament().pk}))


def read_comite(out: str, circuit: str) -> None:
    from scoring.models import Championship
    from scoring.season.championships import championship_standings
    from scoring.uploads import ReceivedVersion, UploadKey
    from tournament.models import LicenceConflict, Player, Tournament

    standings = championship_standings(Championship.objects.get(pk=int(circuit)))
    versions = list(
        ReceivedVersion.objects.order_by("club", "source", "number").values(
            "club__name", "source", "number", "digest", "tournament_id"
        )
    )
    Path(out).write_text(
        json.dumps(
            {
                "versions": versions,
                "tournaments": list(
                    Tournament.objects.order_by("pk").values("pk", "name", "host_club__name")
                ),
                "players": Player.objects.count(),
                "conflicts": LicenceConflict.objects.count(),
                "incidents": {t.pk: t.incidents.count() for t in Tournament.objects.order_by("pk")},
                "circuit_finished": [t.pk for t in standings.finished],
                "circuit_ranked": len(standings.ranking.ranked),
                "keys_used": list(
                    UploadKey.objects.exclude(last_used_at=None).values_list("prefix", flat=True)
                ),
            }
        )
    )


if __name__ == "__main__":
    from bench.common import setup_django

    setup_django()
    step, out, *args = sys.argv[1:]
    steps = {
        "seed-comite": seed_comite,
        "seed-laptop": seed_laptop,
        "configure": configure,
        "document": document,
        "correct": correct,
        "move-laptop": move_laptop,
        "read-comite": read_comite,
    }
    steps[step](out, *args)
