"""Online pre-registration: the services behind the public sign-up page (is it open, spam
and throttling, signing up). Checking in at the door is tournament.signup.checkin.

A player who signs up online is registered as "pré-inscrit" (Registration.Status.EXPECTED): they
play no position and appear in no ranking until an arbiter checks them in, which makes them
"présent" (ACTIVE) from the first position not yet published; never opening online
registration keeps every registration present."""

from __future__ import annotations

import secrets
import time
from typing import Any, Required, TypedDict, Unpack

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournament.access import throttle
from tournament.access.audit import change_record, settings_save
from tournament.access.lifecycle import ensure_tournament_open, locked_tournament
from tournament.access.scopes import club_players
from tournament.core.collation import fold
from tournament.models import Player, Position, Registration, Tournament
from tournament.players import identity
from tournament.players.checks import licence_check_queue
from tournament.players.licence import licence_clean
from tournament.players.names import person_clean
from tournament.players.registrations import next_number

# The settings of the registration page (its own form, logged like the others).
SIGNUP_FIELDS = ("signup_open", "signup_capacity", "signup_closes_at", "signup_licence_required")

# Sign-up codes: no 0/O, 1/I/L to misread at the door.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8

# Spam: a form sent sooner than this after it was shown was not typed by a person…
MIN_FORM_SECONDS = 3
# …and one shown longer ago than this is stale: an hour is ample to type four fields, and a
# stamp is single-use anyway (its nonce is marked used for at least this long).
MAX_FORM_SECONDS = 3600
STAMP_SALT = "tournament.signup.stamp"
# Sign-up attempts per client address and window (seconds), successful or not.
THROTTLE_ATTEMPTS = 10
THROTTLE_SECONDS = 600


# --- is the page open? ---------------------------------------------------------------------


def places_left(tournament: Tournament) -> int | None:
    """Places left under the capacity (None: no limit). Withdrawn players free their place."""
    if tournament.signup_capacity is None:
        return None
    taken = tournament.registrations.exclude(status=Registration.Status.WITHDRAWN).count()
    return max(0, tournament.signup_capacity - taken)


def signup_refusal(tournament: Tournament, *, now=None) -> str | None:
    """Why the page takes no sign-up right now (a French sentence), or None when it does."""
    now = now or timezone.now()
    if not tournament.signup_open or tournament.status == Tournament.Status.FINISHED:
        return _("Les inscriptions en ligne sont fermées.")
    if tournament.signup_closes_at is not None and now >= tournament.signup_closes_at:
        closed = formats.date_format(
            timezone.localtime(tournament.signup_closes_at), "DATETIME_FORMAT"
        )
        return _("Les inscriptions en ligne sont closes depuis le %(date)s.") % {"date": closed}
    if tournament.positions.exclude(status=Position.Status.DRAFT).exists():
        return _("Le tournoi a commencé : inscrivez-vous auprès de l'arbitre, sur place.")
    if places_left(tournament) == 0:
        return _("Complet : les %(count)s places sont prises.") % {
            "count": tournament.signup_capacity
        }
    return None


@transaction.atomic
def signup_settings_update(*, tournament: Tournament, data: dict[str, Any], user=None):
    """Open or close the registration page, set its capacity, closing time and licence rule."""
    tournament = locked_tournament(tournament)
    ensure_tournament_open(tournament)
    settings_save(tournament, SIGNUP_FIELDS, data, user)
    return tournament


# --- spam ----------------------------------------------------------------------------------


def form_stamp(*, now: float | None = None) -> str:
    """A signed note of when the form was shown, with a random nonce, sent back with it (the
    time trap). Each stamp registers at most one sign-up (spam_check marks its nonce used)."""
    shown = time.time() if now is None else now
    return signing.dumps({"t": shown, "n": secrets.token_urlsafe(12)}, salt=STAMP_SALT)


def _stale() -> ValidationError:
    return ValidationError(
        _("Le formulaire a expiré : rechargez la page et recommencez."), code="stale"
    )


def spam_check(*, honeypot: str, stamp: str, now: float | None = None) -> None:
    """Refuse what a robot sends: the hidden field filled in, or a form sent back too fast,
    too late, twice, or not shown by us at all.

    A stamp is used up by the first sign-up that passes these checks, through one atomic
    counter (tournament.access.throttle.hit): a replayed stamp, even sent in parallel from several
    processes, is counted twice and refused as expired. Call this outside a transaction that
    could roll back, so that the nonce stays used."""
    now = time.time() if now is None else now
    if honeypot:
        raise ValidationError(_("Inscription refusée."), code="spam")
    try:
        shown = signing.loads(stamp or "", salt=STAMP_SALT, max_age=MAX_FORM_SECONDS)
    except signing.BadSignature as error:  # SignatureExpired included
        raise _stale() from error
    if not isinstance(shown, dict):  # a stamp of the old format, without a nonce
        raise _stale()
    when, nonce = shown.get("t"), shown.get("n")
    if not isinstance(when, int | float) or not isinstance(nonce, str) or not nonce:
        raise _stale()
    if now - when > MAX_FORM_SECONDS:
        raise _stale()
    if now - when < MIN_FORM_SECONDS:
        raise ValidationError(
            _("Formulaire envoyé trop vite : vérifiez vos informations et renvoyez-le."),
            code="fast",
        )
    if throttle.hit(f"stamp:{nonce}", MAX_FORM_SECONDS, now=now) > 1:
        raise _stale()  # already used: a replay


def throttle_hit(address: str | None) -> bool:
    """Count one sign-up attempt from this address; True when it is over the limit (counted
    for every server process alike: tournament.access.throttle)."""
    count = throttle.hit(f"signup-attempts:{address or 'unknown'}", THROTTLE_SECONDS)
    return count > THROTTLE_ATTEMPTS


# --- signing up ----------------------------------------------------------------------------


def _new_code(tournament: Tournament) -> str:
    taken = set(
        tournament.registrations.exclude(signup_code=None).values_list("signup_code", flat=True)
    )
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def format_code(code: str | None) -> str:
    """A sign-up code as shown: "ABCD-EFGH"."""
    return f"{code[:4]}-{code[4:]}" if code else ""


def normalise_code(text: str) -> str:
    return "".join(c for c in (text or "").upper() if c in CODE_ALPHABET)


class TypedPerson(TypedDict, total=False):
    """Someone as typed in (on the sign-up page, or at the door): a last name at least."""

    last_name: Required[str]
    first_name: str
    licence: str
    club: str


class Person(TypedDict):
    """Someone typed in, cleaned: every field there, names with their spaces folded."""

    last_name: str
    first_name: str
    licence: str
    club: str


def clean_person(typed: TypedPerson) -> Person:
    """The names as the roster keeps them (tournament.players.names: invisible and control
    characters refused, naming the field; NFKC; single spaces); the licence as typed, which each way
    of registering checks its own way."""
    names = person_clean(
        {
            "last_name": typed["last_name"] or "",
            "first_name": typed.get("first_name") or "",
            "club": typed.get("club") or "",
        }
    )
    return {
        "last_name": names["last_name"],
        "first_name": names["first_name"],
        "licence": typed.get("licence") or "",
        "club": names["club"],
    }


def _same_person(registration: Registration, last_name: str, first_name: str, club: str) -> bool:
    player = registration.player
    return (fold(player.last_name), fold(player.first_name), fold(player.club)) == (
        fold(last_name),
        fold(first_name),
        fold(club),
    )


def duplicate_of(
    tournament: Tournament, *, last_name: str, first_name: str, licence: str, club: str
) -> Registration | None:
    """The registration of this tournament that is the same person: same licence, or same name
    and club ignoring accents and case (unless both carry different licences)."""
    for registration in tournament.registrations.select_related("player"):
        other = registration.player.licence or ""
        if licence and other == licence:
            return registration
        if licence and other and other != licence:
            continue  # two licences: two people, however alike their names
        if _same_person(registration, last_name, first_name, club):
            return registration
    return None


def _roster_match(tournament: Tournament, person: Person) -> identity.RosterMatch:
    """What the tournament's club roster holds for this sign-up (tournament.access.scopes: the
    roster the desk checks a typed licence against; another club's private entry is never
    matched): the one roster look-up (identity.roster_player_for)."""
    typed = identity.Typed(
        person["last_name"], person["first_name"], person["club"], person["licence"]
    )
    return identity.roster_player_for(typed, among=club_players(tournament.host_club_id))


def _roster_player(match: identity.RosterMatch) -> Player | None:
    """The roster player this sign-up names, None for a new one: the club's holder of its
    licence (same name: checked before), or else, with no licence typed, the one player of
    that name and club on the tournament's club roster."""
    if match.typed.licence:
        found = match.holder
    else:
        found = match.namesakes[0] if len(match.namesakes) == 1 else None
    return None if found is None else Player.objects.get(pk=found.pk)


def _check_fields(tournament: Tournament, *, last_name: str, licence: str) -> None:
    errors = {}
    if not fold(last_name):
        errors["last_name"] = _("Nom : indiquez votre nom.")
    if tournament.signup_licence_required and not licence:
        errors["licence"] = _("Licence FFT : elle est obligatoire pour ce tournoi.")
    if errors:
        raise ValidationError(errors)


def _signup_person(tournament: Tournament, typed: TypedPerson) -> Person:
    """What the visitor typed, cleaned as every form cleans it, the licence too; the refusals
    by field (a name is required, and a licence when the tournament asks for one)."""
    person = clean_person(typed)
    try:
        person["licence"] = licence_clean(person["licence"])
    except ValidationError as error:
        raise ValidationError({"licence": error.messages}) from None
    _check_fields(tournament, last_name=person["last_name"], licence=person["licence"])
    return person


def _signup_player(tournament: Tournament, person: Person) -> tuple[Player, str]:
    """The roster player who signs up: the one the sign-up names, or a new one; and the
    licence typed if the club's roster holds it under another name (then not kept). Refused
    when that person is registered in this tournament already."""
    conflict = ""
    match = _roster_match(tournament, person)
    if match.holder is not None and not match.same_name:
        conflict, person["licence"] = person["licence"], ""
        match = _roster_match(tournament, person)
    if duplicate_of(tournament, **person) is not None:
        raise ValidationError(
            _(
                "Vous êtes déjà inscrit à ce tournoi (même licence, ou même nom et même club). "
                "Si ce n'est pas vous, adressez-vous à l'arbitre."
            ),
            code="duplicate",
        )
    player = _roster_player(match)
    if player is None:
        # An entry of the tournament's club, as the desk makes (players.registrations); a
        # tournament of no club (an install from before clubs) adds one of no club, as before.
        licence = person["licence"] or None
        player = Player(**{**person, "licence": licence}, origin_club_id=tournament.host_club_id)
        # Only another club's entry can hold the licence now (the club's own was matched):
        # compared after the response, as the desk's (players.checks).
        player.full_clean(validate_constraints=False)
        identity.roster_entry_save(player)
        licence_check_queue(newcomer=player)
    elif player.registrations.filter(tournament=tournament).exists():  # matched by name
        raise ValidationError(_("Vous êtes déjà inscrit à ce tournoi."), code="duplicate")
    return player, conflict


@transaction.atomic
def signup_register(
    *, tournament: Tournament, now=None, **typed: Unpack[TypedPerson]
) -> Registration:
    """A player signs up on the public page: registered as pré-inscrit, with a code to show.

    The tournament row is locked first, so that two sign-ups racing for the last place are
    counted one after the other (SQLite's IMMEDIATE transactions serialise them the same way).
    """
    now = now or timezone.now()
    tournament = locked_tournament(tournament)
    refusal = signup_refusal(tournament, now=now)
    if refusal is not None:
        raise ValidationError(refusal, code="closed")
    person = _signup_person(tournament, typed)
    # What a stranger learns here (_signup_player). A licence the club's roster holds under
    # another name is not refused (that would tell which licences the site knows): the sign-up
    # goes through as with a new licence, registered without it, and the arbiter sees the
    # conflict at check-in (licence_conflicts). A licence only another club's entry holds is
    # a new licence here, the conflict flagged for both clubs; the answer is the same. The one
    # refusal left, a double sign-up, needs what was typed to match a registration of this
    # tournament (the same name and club, or the same licence *and* name): it never names or
    # hints at anybody the visitor did not name in full. A new licence saved just now by a
    # sign-up or desk of another tournament of the club: looked up again, that entry.
    try:
        player, conflict = _signup_player(tournament, person.copy())
    except identity.LicenceTaken:
        player, conflict = _signup_player(tournament, person.copy())
    registration = Registration.objects.create(
        tournament=tournament,
        player=player,
        number=next_number(tournament),
        status=Registration.Status.EXPECTED,
        signed_up_at=now,
        signup_code=_new_code(tournament),
    )
    change_record(
        tournament=tournament,
        obj=registration,
        action="create",
        before=None,
        after={
            "player": player.full_name,
            "status": registration.status,
            "online": True,
            **({CONFLICT_KEY: conflict} if conflict else {}),
        },
        user=None,
    )
    return registration


CONFLICT_KEY = "licence_conflict"  # in the sign-up's history: the licence typed, not kept


class LicenceConflict(TypedDict):
    registration: Registration
    licence: str
    holder: Player | None


def licence_conflicts(tournament: Tournament) -> list[LicenceConflict]:
    """Sign-ups that typed a licence the club's roster holds under another name, for the arbiter
    to check at the door: each registration, the licence typed and its holder when it is on this
    club's roster (None otherwise, e.g. a sign-up recorded before the sign-up matched the club's
    roster only: another club's entry is never named; three queries)."""
    typed: dict[int, str] = {
        object_id: after[CONFLICT_KEY]
        for object_id, after in tournament.changes.filter(
            object_type="registration", action="create", after__has_key=CONFLICT_KEY
        ).values_list("object_id", "after")
        if object_id is not None and isinstance(after, dict)
    }
    registrations = tournament.registrations.select_related("player").filter(pk__in=typed)
    # Only a holder on this club's roster is named: another club's entry stays out of sight.
    holders = {
        p.licence: p
        for p in club_players(tournament.host_club_id).filter(licence__in=set(typed.values()))
    }
    return [
        {
            "registration": registration,
            "licence": typed[registration.pk],
            "holder": holders.get(typed[registration.pk]),
        }
        for registration in sorted(registrations, key=lambda r: r.number)
    ]
