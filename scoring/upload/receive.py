"""The comité's server takes a sent tournament: every check before anything is written, then one
transaction that stores it as the next version of what the club sent.

A sent document is a tournament's backup (scoring.documents.backup) with, beside its sections,
the club it names, the laptop's identifier of the tournament (`source`) and the arbiter's report
(`report`: its ranking's totals, its staff). It is checked as a restore checks a file (sizes,
every row, every deal scored again by the engine), and more: it must be the key's club's, the
tournament finished, the per-seat scores the engine's and the report's totals those the server
computes. The same document sent twice (a retry after a cut, a double click) is stored once:
its digest names it. A refusal stores nothing.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.deal import is_int
from scoring.documents.arbiter_report import arbiter_report
from scoring.documents.backup import (
    MAX_BACKUP_BYTES,
    BackupError,
    tournament_check,
    tournament_write,
)
from scoring.documents.backup.document import Sections, check_document, parse_backup
from scoring.documents.backup.plan import Plan
from scoring.documents.backup.sending import SOURCE_RE
from scoring.documents.report_records import sent_records
from scoring.models import Deal
from scoring.season.circuits import circuit_tournament_add
from scoring.upload.keys import enterable_championships
from scoring.upload.replace import tournament_replace, unlicensed_players_match
from scoring.uploads import ReceivedVersion, UploadKey
from tournament.models import Club, Tournament


class Refused(Exception):
    """The document is not taken; the message says why, in French. Nothing was stored."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Received:
    version: ReceivedVersion
    created: bool  # False: this very document was already received (a retry)


def too_big() -> Refused:
    return Refused(
        _("Document trop volumineux : un envoi fait au plus %(size)s Mo, comme une sauvegarde.")
        % {"size": MAX_BACKUP_BYTES // (1024 * 1024)},
        status=413,
    )


def results_receive(*, key: UploadKey, raw: bytes) -> Received:
    """Check the document sent with `key` and store it as its club's next version."""
    if len(raw) > MAX_BACKUP_BYTES:
        raise too_big()
    club = key.club
    try:
        data = parse_backup(raw)
        sections = check_document(data)
    except BackupError as exc:
        raise Refused(str(exc)) from exc
    source = data.get("source")
    if not isinstance(source, str) or not SOURCE_RE.match(source):
        raise Refused(_("Document incomplet : l'identifiant du tournoi (source) manque."))
    club_check(data.get("club"), club)
    try:
        sent_records(data.get("report"))
    except ValueError as exc:
        raise Refused(
            _("Document incomplet : les arbitres ou les appels du rapport sont illisibles.")
        ) from exc
    digest = hashlib.sha256(raw).hexdigest()
    already = _already(club, source, digest)
    if already is not None:
        _used(key)  # a retry is a use of the key too: the keys' page says when it last sent
        return Received(already, created=False)
    if sections["tournament.tournament"][0].get("status") != Tournament.Status.FINISHED:
        raise Refused(_("Le tournoi n'est pas terminé : seul un tournoi terminé s'envoie."))
    owner = key.created_by
    try:
        plan = tournament_check(raw, user=owner, club=club)
    except BackupError as exc:
        raise Refused(str(exc)) from exc
    deal_scores_check(sections, {file_key: deal for file_key, deal in plan.rows(Deal)})
    try:
        return _store(key, plan, data, source=source, digest=digest, raw=raw)
    except BackupError as exc:
        raise Refused(str(exc)) from exc
    except IntegrityError:
        # The same document, sent at the same instant: the other request stored it.
        already = _already(club, source, digest)
        if already is None:
            raise
        _used(key)
        return Received(already, created=False)


@transaction.atomic
def _store(key: UploadKey, plan: Plan, data: dict, *, source: str, digest: str, raw: bytes):
    """Write the checked tournament as the next version, in one transaction: a refusal here
    (its report's totals) rolls everything back."""
    club, owner = key.club, key.created_by
    # One sending of a club at a time: versions are numbered one after the other.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    already = _already(club, source, digest)
    if already is not None:
        return Received(already, created=False)
    previous = ReceivedVersion.objects.filter(club=club, source=source).order_by("number").last()
    kept = previous.tournament if previous is not None else None
    if kept is not None:
        unlicensed_players_match(plan, previous=kept)
    tournament = tournament_write(plan, user=owner)
    if kept is not None:
        # The same tournament, its content replaced: its id, public link and championships stay.
        tournament = tournament_replace(kept=kept, new=tournament)
    report = arbiter_report(tournament)
    totals_check(data.get("report"), {line.number: line.total for line in report.ranking})
    _enter_circuits(tournament, key, owner)
    version = ReceivedVersion.objects.create(
        club=club,
        source=source,
        number=previous.number + 1 if previous else 1,
        digest=digest,
        document=raw.decode("utf-8-sig"),
        report=data.get("report") or {},
        tournament=tournament,
        key=key,
    )
    _used(key)
    return Received(version, created=True)


def _used(key: UploadKey) -> None:
    UploadKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())


def _already(club: Club, source: str, digest: str) -> ReceivedVersion | None:
    return ReceivedVersion.objects.filter(club=club, source=source, digest=digest).first()


def _folded(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().split())


def club_check(named: Any, club: Club) -> None:
    """The document names the key's club: by its FFT number when both have one, else by name.
    The key decides the club; a document naming another is refused, never filed elsewhere."""
    if not isinstance(named, dict) or not isinstance(named.get("name"), str):
        raise Refused(_("Document incomplet : il ne nomme pas le club qui l'envoie."))
    code = named.get("code")
    if isinstance(code, str) and code.strip() and club.code:
        same = _folded(code) == _folded(club.code)
    else:
        same = _folded(named["name"]) == _folded(club.name)
    if same:
        return
    if _folded(named["name"]) == _folded(club.name):
        # Same name, another FFT number: the numbers are what differs, say them.
        raise Refused(
            _(
                "Refusé : ce document est celui du club n° FFT « %(named)s », et cette clé est "
                "celle du club n° FFT « %(club)s » (tous deux nommés « %(name)s »). Un club "
                "n'envoie que ses propres tournois."
            )
            % {"named": str(code)[:20], "club": club.code, "name": club.name},
            status=403,
        )
    raise Refused(
        _(
            "Refusé : ce document est celui du club « %(named)s », et cette clé est celle "
            "du club « %(club)s ». Un club n'envoie que ses propres tournois."
        )
        % {"named": named["name"][:100], "club": club.name},
        status=403,
    )


def deal_scores_check(sections: Sections, deals: dict[Any, Deal]) -> None:
    """Each per-seat score the document stores is the engine's score of its deal (a restore
    rebuilds them; a sent tournament whose stored scores disagree is refused)."""
    for row in sections["scoring.dealscore"]:
        deal = deals.get(row.get("deal"))
        seat, points = row.get("seat"), row.get("points")
        if deal is None or not is_int(seat) or not 0 <= seat < len(deal.scores):
            raise Refused(_("Score enregistré d'une donne qui n'existe pas dans le document."))
        expected = deal.scores
        if points != expected[seat]:
            raise Refused(
                _(
                    "Refusé : donne %(number)s de la feuille %(sheet)s, place %(seat)s : le "
                    "document enregistre %(points)s, le calcul de la donne donne %(expected)s."
                )
                % {
                    "number": deal.number,
                    "sheet": deal.sheet_id,
                    "seat": seat + 1,
                    "points": str(points)[:20],
                    "expected": expected[seat],
                }
            )


def totals_check(report: Any, computed: dict[int, int]) -> None:
    """The arbiter's report's totals (by player number) are those the deals give here."""
    ranking = report.get("ranking") if isinstance(report, dict) else None
    if not isinstance(ranking, list):
        raise Refused(_("Document incomplet : le rapport de l'arbitre manque."))
    sent: dict[Any, Any] = {}
    for line in ranking:
        if isinstance(line, dict):
            sent[line.get("number")] = line.get("total")
    for number in sorted(set(computed) | {n for n in sent if is_int(n)}):
        if sent.get(number) != computed.get(number):
            raise Refused(
                _(
                    "Refusé : total du joueur n° %(number)s : le rapport dit %(sent)s, les "
                    "donnes du document donnent %(computed)s."
                )
                % {
                    "number": number,
                    "sent": str(sent.get(number, "—"))[:20],
                    "computed": computed.get(number, "—"),
                }
            )
    if len(sent) != len(computed):
        raise Refused(_("Refusé : le classement du rapport ne correspond pas aux inscrits."))


def _enter_circuits(tournament: Tournament, key: UploadKey, owner) -> None:
    """The key's circuits count the tournament, entered by the circuits' own service as the
    key's owner (who runs it: the restore made them its owner), asked the same rights as on
    the circuit's page; a circuit it is already in (a version before) keeps it once. A key
    whose owner may no longer enter it (they left the club) enters nothing."""
    for championship in enterable_championships(key.club).filter(
        pk__in=key.championships.values("pk")
    ):
        if owner is None:
            return
        try:
            circuit_tournament_add(user=owner, championship=championship, tournament=tournament)
        except PermissionDenied:
            continue
