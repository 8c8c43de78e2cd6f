"""The thin layer joining registration and seating rules to the database.

Every write is a keyword-only function named `<thing>_<action>` running in one transaction.
Errors a user can fix are raised as ValidationError with a translated message; nothing is
written when one is raised.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from .importing import ImportPreview, ImportRow, normalise
from .models import Player, Position, Registration, Seat, Table, Team, Tournament

TOURNAMENT_FIELDS = (
    "name",
    "date",
    "venue",
    "club",
    "format",
    "positions_count",
    "deals_per_table_4",
    "deals_per_table_5",
    "deals_per_table_3",
    "remainder",
    "rule_set",
)


# --- tournaments -----------------------------------------------------------------------------


def tournament_create(*, data: dict[str, Any], owner=None) -> Tournament:
    tournament = Tournament(owner=owner, **{k: data[k] for k in TOURNAMENT_FIELDS if k in data})
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, data: dict[str, Any]) -> Tournament:
    played = last_played_position(tournament)
    if data.get("positions_count", tournament.positions_count) < played:
        raise ValidationError(
            {
                "positions_count": _(
                    "%(played)s positions sont déjà publiées : le tournoi ne peut pas en "
                    "compter moins."
                )
                % {"played": played}
            }
        )
    if data.get("format", tournament.format) != tournament.format and tournament.teams.exists():
        raise ValidationError(
            {"format": _("Des équipes existent déjà : supprimez-les avant de changer de formule.")}
        )
    for key in TOURNAMENT_FIELDS:
        if key in data:
            setattr(tournament, key, data[key])
    tournament.full_clean()
    tournament.save()
    # Drafts beyond the new count are not part of the tournament any more.
    tournament.positions.filter(
        number__gt=tournament.positions_count, status=Position.Status.DRAFT
    ).delete()
    return tournament


def last_played_position(tournament: Tournament) -> int:
    """The number of the last published or closed position, 0 before the first one."""
    return (
        tournament.positions.exclude(status=Position.Status.DRAFT).aggregate(n=Max("number"))["n"]
        or 0
    )


# --- players and registrations ---------------------------------------------------------------


def player_search(*, query: str, limit: int = 20) -> list[Player]:
    """Roster players whose name, licence or club starts with the query's words."""
    words = query.split()
    if not words or len(query.strip()) < 2:
        return []
    players = Player.objects.all()
    for word in words:
        players = players.filter(
            Q(last_name__icontains=word)
            | Q(first_name__icontains=word)
            | Q(licence__istartswith=word)
            | Q(club__icontains=word)
        )
    return list(players.order_by("last_name", "first_name")[:limit])


def _licence_taken(licence: str | None, *, exclude_pk: int | None = None) -> Player | None:
    if not licence:
        return None
    return Player.objects.filter(licence=licence).exclude(pk=exclude_pk).first()


def _next_number(tournament: Tournament) -> int:
    return (tournament.registrations.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def player_register(
    *,
    tournament: Tournament,
    player: Player | None = None,
    last_name: str = "",
    first_name: str = "",
    licence: str = "",
    club: str = "",
    team: Team | None = None,
    user=None,
) -> Registration:
    """Register a roster player, or a new one created on the roster from the given fields.

    Once positions have been published, the player joins at the first position still to play.
    """
    if player is None:
        licence = (licence or "").replace(" ", "")
        other = _licence_taken(licence)
        if other is not None:
            raise ValidationError(
                {
                    "licence": _("La licence %(licence)s est déjà celle de %(player)s.")
                    % {"licence": licence, "player": other.full_name}
                }
            )
        player = Player(last_name=last_name, first_name=first_name, licence=licence, club=club)
        player.full_clean(validate_constraints=False)
        player.save()
    if tournament.registrations.filter(player=player).exists():
        raise ValidationError(
            _("%(player)s est déjà inscrit à ce tournoi.") % {"player": player.full_name}
        )
    if team is not None:
        _check_team_room(team, adding=1)
    registration = Registration.objects.create(
        tournament=tournament,
        player=player,
        team=team,
        number=_next_number(tournament),
        first_position=last_played_position(tournament) + 1,
    )
    if registration.first_position > 1:
        _log(
            tournament,
            registration,
            "create",
            None,
            {"player": player.full_name, "first_position": registration.first_position},
            user,
        )
    return registration


def registration_add_late(
    *, tournament: Tournament, player: Player | None = None, user=None, **fields: Any
) -> Registration:
    """A late arrival: registered to play from the first position not yet published."""
    return player_register(tournament=tournament, player=player, user=user, **fields)


@transaction.atomic
def registration_withdraw(*, registration: Registration, user=None) -> Registration:
    """The player stops after the last published position; drafts must then be re-planned."""
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(_("Ce joueur a déjà déclaré forfait."))
    before = {"status": registration.status, "withdrawn_after": registration.withdrawn_after}
    registration.status = Registration.Status.WITHDRAWN
    registration.withdrawn_after = last_played_position(registration.tournament)
    registration.save(update_fields=["status", "withdrawn_after"])
    _log(
        registration.tournament,
        registration,
        "update",
        before,
        {"status": registration.status, "withdrawn_after": registration.withdrawn_after},
        user,
    )
    return registration


@transaction.atomic
def registration_reinstate(*, registration: Registration, user=None) -> Registration:
    """Undo a withdrawal recorded by mistake."""
    before = {"status": registration.status, "withdrawn_after": registration.withdrawn_after}
    registration.status = Registration.Status.ACTIVE
    registration.withdrawn_after = None
    registration.save(update_fields=["status", "withdrawn_after"])
    _log(registration.tournament, registration, "update", before, {"status": "active"}, user)
    return registration


def active_registrations(tournament: Tournament, position_number: int) -> list[Registration]:
    """Who plays a given position: present, arrived and not withdrawn before it."""
    return [
        r
        for r in tournament.registrations.select_related("player", "team")
        if r.plays_position(position_number)
    ]


# --- teams -----------------------------------------------------------------------------------


def _check_team_room(team: Team, *, adding: int, already: int | None = None) -> None:
    size = team.tournament.team_size
    if size is None:
        raise ValidationError(_("Ce tournoi est individuel : il n'y a pas d'équipes."))
    current = team.members.count() if already is None else already
    if current + adding > size:
        raise ValidationError(
            _("L'équipe %(team)s aurait %(count)s joueurs : la formule en prévoit %(size)s.")
            % {"team": team.name, "count": current + adding, "size": size}
        )


@transaction.atomic
def team_assign(
    *, tournament: Tournament, name: str, registrations: Sequence[Registration]
) -> Team:
    """Create the team (or complete an existing one of that name) with the given players."""
    size = tournament.team_size
    if size is None:
        raise ValidationError(_("Ce tournoi est individuel : il n'y a pas d'équipes."))
    name = " ".join(name.split())
    if not name:
        raise ValidationError({"name": _("Donnez un nom à l'équipe.")})
    foreign = [r for r in registrations if r.tournament_id != tournament.pk]
    if foreign:
        raise ValueError("registrations from another tournament")
    team, _created = Team.objects.get_or_create(tournament=tournament, name=name)
    joining = [r for r in registrations if r.team_id != team.pk]
    others = [r for r in joining if r.team_id is not None]
    if others:
        raise ValidationError(
            _("%(player)s est déjà dans l'équipe %(team)s.")
            % {"player": others[0].player.full_name, "team": others[0].team.name}
        )
    _check_team_room(team, adding=len(joining))
    Registration.objects.filter(pk__in=[r.pk for r in joining]).update(team=team)
    return team


@transaction.atomic
def team_remove_member(*, registration: Registration) -> None:
    team = registration.team
    registration.team = None
    registration.save(update_fields=["team"])
    if team is not None and not team.members.exists():
        team.delete()


# --- import ----------------------------------------------------------------------------------


def import_check(*, tournament: Tournament, preview: ImportPreview) -> ImportPreview:
    """Check parsed rows against the roster and the tournament; adds errors by line number.

    Rows matching a roster player (same licence, or same name when neither has a licence)
    reuse that player instead of creating a duplicate.
    """
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    for row in preview.rows:
        row.player_id = None
        player = _roster_match(row)
        if player is False:
            preview.error(
                row.line,
                _("La licence %(licence)s appartient à un autre joueur du fichier des joueurs.")
                % {"licence": row.licence},
            )
            continue
        if player is not None:
            if player.pk in registered:
                preview.error(
                    row.line,
                    _("%(player)s est déjà inscrit à ce tournoi.") % {"player": player.full_name},
                )
                continue
            row.player_id = player.pk
    _check_import_teams(tournament, preview)
    return preview


def _roster_match(row: ImportRow) -> Player | None | bool:
    """The roster player this row names, None for a new player, False for a licence clash."""
    if row.licence:
        player = Player.objects.filter(licence=row.licence).first()
        if player is None:
            return None
        if (normalise(player.last_name), normalise(player.first_name)) != row.key:
            return False
        return player
    candidates = [
        p
        for p in Player.objects.filter(last_name__iexact=row.last_name)
        if (normalise(p.last_name), normalise(p.first_name)) == row.key
    ]
    return candidates[0] if len(candidates) == 1 else None


def _check_import_teams(tournament: Tournament, preview: ImportPreview) -> None:
    teamed = [row for row in preview.rows if row.team]
    if not teamed:
        return
    size = tournament.team_size
    if size is None:
        preview.error(
            teamed[0].line,
            _("Colonne « équipe » remplie alors que le tournoi est individuel."),
        )
        return
    existing = {normalise(team.name): team.members.count() for team in tournament.teams.all()}
    counts: dict[str, list[ImportRow]] = {}
    for row in teamed:
        counts.setdefault(normalise(row.team), []).append(row)
    for key, rows in counts.items():
        total = existing.get(key, 0) + len(rows)
        if total > size:
            preview.error(
                rows[-1].line,
                _("L'équipe %(team)s aurait %(count)s joueurs : la formule en prévoit %(size)s.")
                % {"team": rows[0].team, "count": total, "size": size},
            )


@transaction.atomic
def import_apply(
    *, tournament: Tournament, rows: Iterable[ImportRow], user=None
) -> list[Registration]:
    """Create players, registrations and teams for every row, or nothing at all."""
    preview = import_check(tournament=tournament, preview=ImportPreview(rows=list(rows)))
    if preview.errors:
        raise ValidationError(
            [
                _("Ligne %(line)s : %(message)s") % {"line": e.line, "message": e.message}
                for e in preview.errors
            ]
        )
    teams = {normalise(t.name): t for t in tournament.teams.all()}
    created = []
    for row in preview.rows:
        team = None
        if row.team:
            key = normalise(row.team)
            if key not in teams:
                teams[key] = Team.objects.create(tournament=tournament, name=row.team)
            team = teams[key]
        player = Player.objects.get(pk=row.player_id) if row.player_id else None
        created.append(
            player_register(
                tournament=tournament,
                player=player,
                last_name=row.last_name,
                first_name=row.first_name,
                licence=row.licence,
                club=row.club,
                team=team,
                user=user,
            )
        )
    return created


# --- history ---------------------------------------------------------------------------------


def _log(tournament, obj, action: str, before, after, user) -> None:
    from scoring.models import ChangeLog

    ChangeLog.objects.create(
        tournament=tournament,
        object_type=obj._meta.model_name,
        object_id=obj.pk,
        action=action,
        before=before,
        after=after,
        user=user if user is not None and user.is_authenticated else None,
    )


# --- reading positions -----------------------------------------------------------------------


def position_plan(position: Position) -> list[Table]:
    """The position's tables, each with `seat_list` in table order (N, E, S, W, 5th)."""
    tables = list(position.tables.prefetch_related("seats__registration__player"))
    for table in tables:
        table.seat_list = sorted(table.seats.all(), key=lambda seat: seat.index)
    return tables


def who_sits_where(position: Position) -> list[dict[str, Any]]:
    """Every seated player of a position, alphabetically, with table and seat."""
    seats = Seat.objects.filter(table__position=position).select_related(
        "table", "registration__player"
    )
    rows = [
        {
            "name": seat.registration.player.full_name,
            "number": seat.registration.number,
            "table": seat.table.number,
            "seat": seat.get_direction_display(),
            "registration": seat.registration,
        }
        for seat in seats
    ]
    rows.sort(key=lambda row: (normalise(row["name"]), row["number"]))
    return rows


def itinerary(registration: Registration) -> list[dict[str, Any]]:
    """The player's table, seat and opponents at every position of the tournament."""
    tournament = registration.tournament
    seats = {
        seat.table.position_id: seat
        for seat in registration.seats.select_related("table__position")
    }
    rows = []
    for position in tournament.positions.all():
        seat = seats.get(position.pk)
        if seat is None:
            rows.append(
                {
                    "position": position.number,
                    "status": position.get_status_display(),
                    "table": "—",
                    "seat": _("ne joue pas"),
                    "opponents": "",
                }
            )
            continue
        others = (
            Seat.objects.filter(table=seat.table)
            .exclude(pk=seat.pk)
            .select_related("registration__player")
        )
        rows.append(
            {
                "position": position.number,
                "status": position.get_status_display(),
                "table": seat.table.number,
                "seat": seat.get_direction_display(),
                "opponents": ", ".join(
                    o.registration.player.full_name for o in sorted(others, key=lambda s: s.index)
                ),
            }
        )
    return rows


def start_labels(tournament: Tournament) -> dict[int, str]:
    """Registration pk → start label ("3 N") for the whole tournament in one query."""
    labels = {}
    seats = Seat.objects.filter(table__position__tournament=tournament).select_related(
        "table__position", "registration"
    )
    for seat in seats:
        if seat.table.position.number == seat.registration.first_position:
            labels[seat.registration_id] = seat.label
    return labels


def positions_overview(tournament: Tournament) -> list[dict[str, Any]]:
    """One line per planned position number: the Position (or None), its tables, staleness.

    A draft is stale when the players it seats are not those who will play it (a withdrawal
    or a late arrival since it was generated): it must be re-planned before publishing.
    """
    existing = {p.number: p for p in tournament.positions.prefetch_related("tables__seats")}
    registrations = list(tournament.registrations.all())
    lines = []
    for number in range(1, max([tournament.positions_count, *existing]) + 1):
        position = existing.get(number)
        line: dict[str, Any] = {"number": number, "position": position, "stale": False}
        if position is not None:
            seated = {s.registration_id for t in position.tables.all() for s in t.seats.all()}
            line["tables"] = len(position.tables.all())
            line["players"] = len(seated)
            if position.status == Position.Status.DRAFT:
                expected = {r.pk for r in registrations if r.plays_position(number)}
                line["stale"] = seated != expected
        lines.append(line)
    return lines
