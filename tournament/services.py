"""The thin layer joining registration and seating rules to the database.

Every write is a keyword-only function named `<thing>_<action>` running in one transaction.
Errors a user can fix are raised as ValidationError with a translated message; nothing is
written when one is raised.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from . import hooks, identity, seating
from .audit import change_record
from .collation import fold_words, person_key
from .folding import Fold
from .importing import (
    DUPLICATE,
    NEW,
    REGISTERED,
    ROSTER,
    SKIP,
    USE_EXISTING,
    ImportPreview,
    ImportRow,
    normalise,
)
from .licence import licence_clean
from .lifecycle import ensure_position_open, ensure_tournament_open
from .models import (
    DIRECTIONS,
    Player,
    Position,
    Registration,
    Seat,
    Table,
    Team,
    Tournament,
    sheet_order_key,
)

# The settings an arbiter edits: the settings form shows exactly these.
TOURNAMENT_FIELDS = (
    "name",
    "date",
    "venue",
    "club",
    "format",
    "positions_count",
    "position_minutes",
    "deals_per_table_4",
    "deals_per_table_5",
    "deals_per_table_3",
    "remainder",
    "rule_set",
    "is_public",
    "entry_mode",
    "sheet_style",
    "public_requires_validation",
    "normalise_tables",
    "tie_breaks",
)


# --- tournaments -----------------------------------------------------------------------------


def tournament_create(*, data: dict[str, Any], owner=None) -> Tournament:
    tournament = Tournament(owner=owner, **{k: data[k] for k in TOURNAMENT_FIELDS if k in data})
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, data: dict[str, Any], user=None) -> Tournament:
    ensure_tournament_open(tournament)
    before = {key: _json_value(getattr(tournament, key)) for key in TOURNAMENT_FIELDS}
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
    new_count = data.get("positions_count", tournament.positions_count)
    if new_count < tournament.positions_count:
        # Lowering the count deletes the drafts beyond it: never with typed sheets.
        refuse_typed_drafts(tournament, new_count + 1)
    for key in TOURNAMENT_FIELDS:
        if key in data:
            setattr(tournament, key, data[key])
    tournament.full_clean()
    tournament.save()
    after = {key: _json_value(getattr(tournament, key)) for key in TOURNAMENT_FIELDS}
    changed = [key for key in TOURNAMENT_FIELDS if before[key] != after[key]]
    if changed:
        change_record(
            tournament=tournament,
            obj=tournament,
            action="update",
            before={k: before[k] for k in changed},
            after={k: after[k] for k in changed},
            user=user,
        )
    # Drafts beyond the new count are not part of the tournament any more.
    tournament.positions.filter(
        number__gt=tournament.positions_count, status=Position.Status.DRAFT
    ).delete()
    return tournament


def _json_value(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def last_played_position(tournament: Tournament) -> int:
    """The number of the last published or closed position, 0 before the first one."""
    return (
        tournament.positions.exclude(status=Position.Status.DRAFT).aggregate(n=Max("number"))["n"]
        or 0
    )


# --- players and registrations ---------------------------------------------------------------


def player_search(*, query: str, limit: int = 20) -> list[Player]:
    """Roster players whose name or club holds each of the query's words, or whose licence
    holds it; accents, case and punctuation ignored ("cote" finds CÔTÉ). One query."""
    words = fold_words(query)
    if not words or len(query.strip()) < 2:
        return []
    players = Player.objects.annotate(
        folded_last=Fold("last_name"), folded_first=Fold("first_name"), folded_club=Fold("club")
    )
    for word in words:
        players = players.filter(
            Q(folded_last__contains=word)
            | Q(folded_first__contains=word)
            | Q(licence__contains=word)  # "412345" finds 0412345
            | Q(folded_club__contains=word)
        )
    found = players.order_by("folded_last", "folded_first", "pk")[:limit]
    return sorted(found, key=lambda p: person_key(p.last_name, p.first_name))


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
    other_player: bool = False,
    user=None,
) -> Registration:
    """Register a roster player, or a new one created on the roster from the given fields.

    A new player whose licence is on the roster is that roster player (refused when the names
    differ: a mistyped licence). One with the name and club of a roster player raises
    identity.LikelyDuplicate unless `other_player` says the arbiter checked it is someone else.
    Once positions have been published, the player joins at the first position still to play.
    """
    ensure_tournament_open(tournament)
    if player is None:
        try:
            licence = licence_clean(licence)
        except ValidationError as invalid:
            raise ValidationError({"licence": invalid.messages}) from None
        holder = identity.players_by_licence([licence]).get(licence)
        if holder is not None:
            if holder.key != (normalise(last_name), normalise(first_name)):
                raise ValidationError(
                    {
                        "licence": _("La licence %(licence)s est déjà celle de %(player)s.")
                        % {"licence": licence, "player": holder.full_name}
                    }
                )
            player = Player.objects.get(pk=holder.pk)  # the same licence: the same person
        else:
            if not other_player:
                duplicates = identity.likely_duplicates(
                    last_name=last_name, first_name=first_name, club=club, licence=licence
                )
                if duplicates:
                    raise identity.LikelyDuplicate(duplicates)
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
    change_record(
        tournament=tournament,
        obj=registration,
        action="create",
        before=None,
        after={"player": player.full_name, "first_position": registration.first_position},
        user=user,
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
    ensure_tournament_open(registration.tournament)
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(_("Ce joueur a déjà déclaré forfait."))
    before = {"status": registration.status, "withdrawn_after": registration.withdrawn_after}
    registration.status = Registration.Status.WITHDRAWN
    registration.withdrawn_after = last_played_position(registration.tournament)
    registration.save(update_fields=["status", "withdrawn_after"])
    change_record(
        tournament=registration.tournament,
        obj=registration,
        action="update",
        before=before,
        after={"status": registration.status, "withdrawn_after": registration.withdrawn_after},
        user=user,
    )
    return registration


@transaction.atomic
def registration_reinstate(*, registration: Registration, user=None) -> Registration:
    """Undo a withdrawal recorded by mistake."""
    ensure_tournament_open(registration.tournament)
    before = {"status": registration.status, "withdrawn_after": registration.withdrawn_after}
    registration.status = Registration.Status.ACTIVE
    registration.withdrawn_after = None
    registration.save(update_fields=["status", "withdrawn_after"])
    change_record(
        tournament=registration.tournament,
        obj=registration,
        action="update",
        before=before,
        after={"status": "active"},
        user=user,
    )
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
    *, tournament: Tournament, name: str, registrations: Sequence[Registration], user=None
) -> Team:
    """Create the team (or complete an existing one of that name) with the given players."""
    ensure_tournament_open(tournament)
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
    change_record(
        tournament=tournament,
        obj=team,
        action="update",
        before=None,
        after={"members": [r.number for r in joining]},
        user=user,
    )
    return team


@transaction.atomic
def team_remove_member(*, registration: Registration, user=None) -> None:
    ensure_tournament_open(registration.tournament)
    team = registration.team
    if team is not None:
        change_record(
            tournament=registration.tournament,
            obj=registration,
            action="update",
            before={"team": team.name},
            after={"team": None},
            user=user,
        )
    registration.team = None
    registration.save(update_fields=["team"])
    if team is not None and not team.members.exists():
        team.delete()


# --- import ----------------------------------------------------------------------------------


def import_check(*, tournament: Tournament, preview: ImportPreview) -> ImportPreview:
    """Say what the import does with each row (ImportRow.status); adds errors by line number.

    A row whose licence is on the roster is that player (an error when the names differ);
    one already registered in the tournament (same licence, or same name and club) is
    skipped; one with the name and club of another roster player is a likely duplicate for the
    arbiter to decide; any other row is a new player. A fixed number of queries per 500 rows.
    """
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    by_licence = identity.players_by_licence(row.licence for row in preview.rows)
    by_name = identity.players_by_name(row.last_name for row in preview.rows)
    for row in preview.rows:
        row.player_id = row.duplicate_of = None
        row.duplicate_label = ""
        row.status = NEW
        holder = by_licence.get(row.licence) if row.licence else None
        if holder is not None:
            if holder.key != row.key:
                preview.error(
                    row.line,
                    _(
                        "La licence %(licence)s appartient à un autre joueur du fichier des "
                        "joueurs (%(player)s)."
                    )
                    % {"licence": row.licence, "player": holder.full_name},
                )
                continue
            row.player_id = holder.pk
            row.status = REGISTERED if holder.pk in registered else ROSTER
            continue
        same = [
            known
            for known in by_name.get(row.key, [])
            if identity.may_be_the_same(known, club=row.club, licence=row.licence)
        ]
        here = [known for known in same if known.pk in registered]
        if here:
            row.player_id = here[0].pk
            row.status = REGISTERED
        elif same:
            row.status = DUPLICATE
            row.duplicate_of = same[0].pk
            row.duplicate_label = same[0].label
    _check_import_teams(tournament, preview, [r for r in preview.rows if r.status in (NEW, ROSTER)])
    return preview


def _check_import_teams(
    tournament: Tournament, preview: ImportPreview, rows: list[ImportRow]
) -> None:
    teamed = [row for row in rows if row.team]
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


def _refuse(preview: ImportPreview) -> None:
    if preview.errors:
        raise ValidationError(
            [
                _("Ligne %(line)s : %(message)s") % {"line": e.line, "message": e.message}
                for e in preview.errors
            ]
        )


@transaction.atomic
def import_apply(
    *,
    tournament: Tournament,
    rows: Iterable[ImportRow],
    decisions: dict[int, str] | None = None,
    user=None,
) -> list[Registration]:
    """Register the file's new players, or nothing at all; rows already registered are skipped.

    `decisions` (by line) settles the likely duplicates: USE_EXISTING registers the roster
    player, CREATE_NEW a new one; without a decision the row is skipped.
    """
    ensure_tournament_open(tournament)
    preview = import_check(tournament=tournament, preview=ImportPreview(rows=list(rows)))
    _refuse(preview)
    decisions = decisions or {}
    chosen = []
    for row in preview.rows:
        if row.status == DUPLICATE:
            decision = decisions.get(row.line, SKIP)
            if decision == SKIP:
                continue
            row.player_id = row.duplicate_of if decision == USE_EXISTING else None
        elif row.status == REGISTERED:
            continue
        chosen.append(row)
    _check_import_teams(tournament, preview, chosen)
    _refuse(preview)
    teams = {normalise(t.name): t for t in tournament.teams.all()}
    players = Player.objects.in_bulk([row.player_id for row in chosen if row.player_id])
    created = []
    for row in chosen:
        team = None
        if row.team:
            key = normalise(row.team)
            if key not in teams:
                teams[key] = Team.objects.create(tournament=tournament, name=row.team)
            team = teams[key]
        created.append(
            player_register(
                tournament=tournament,
                player=players.get(row.player_id),
                last_name=row.last_name,
                first_name=row.first_name,
                licence=row.licence,
                club=row.club,
                team=team,
                other_player=True,  # the preview flagged the likely duplicates
                user=user,
            )
        )
    return created


# --- reading positions -----------------------------------------------------------------------


def position_plan(position: Position) -> list[Table]:
    """The position's tables, each with `seat_list` in the score sheet's order (N, S, E, O, 5e)."""
    tables = list(position.tables.prefetch_related("seats__registration__player"))
    for table in tables:
        table.seat_list = sorted(
            table.seats.all(), key=lambda seat: sheet_order_key(seat.direction)
        )
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
                    o.registration.player.full_name
                    for o in sorted(others, key=lambda s: sheet_order_key(s.direction))
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


# --- generating and publishing positions -----------------------------------------------------


def _tables_of(position: Position) -> list[list[int]]:
    """Registration ids per table, tables by number, seats in table order."""
    tables = sorted(position.tables.all(), key=lambda table: table.number)
    return [
        [seat.registration_id for seat in sorted(table.seats.all(), key=lambda s: s.index)]
        for table in tables
    ]


def tournament_plan(tournament: Tournament) -> list[list[list[int]]]:
    """Every generated position's tables, in position order: what the meeting counts cover."""
    return [_tables_of(p) for p in tournament.positions.prefetch_related("tables__seats")]


def _game(tournament: Tournament, size: int) -> str:
    if size == 3:
        return Table.Game.THREE
    if size == 5:
        if tournament.remainder == Tournament.Remainder.FIVE_DEAD:
            return Table.Game.FIVE_DEAD
        return Table.Game.FIVE
    return Table.Game.FOUR


def _store_tables(position: Position, tables: Sequence[Sequence[int]]) -> None:
    position.tables.all().delete()
    for number, seated in enumerate(tables, start=1):
        table = Table.objects.create(
            position=position, number=number, game=_game(position.tournament, len(seated))
        )
        Seat.objects.bulk_create(
            Seat(table=table, registration_id=rid, direction=DIRECTIONS[index])
            for index, rid in enumerate(seated)
        )


def refuse_typed_drafts(tournament: Tournament, start: int) -> None:
    """Refuse to delete positions `start` and later when a sheet of theirs holds deals."""
    # Through the sheets' reverse names: this app does not import scoring's models.
    typed = (
        Table.objects.filter(
            position__tournament=tournament,
            position__number__gte=start,
            sheet__deals__isnull=False,
        )
        .order_by("position__number")
        .values_list("position__number", flat=True)
        .first()
    )
    if typed is not None:
        raise ValidationError(
            _(
                "La position %(number)s a déjà des donnes saisies : publiez-la, ou supprimez "
                "ses donnes, avant de la régénérer."
            )
            % {"number": typed}
        )


@transaction.atomic
def position_generate(
    *,
    tournament: Tournament,
    seed: int | None = None,
    start: int | None = None,
    keep_close: bool = True,
    user=None,
) -> list[Position]:
    """Plan positions `start`..positions_count as drafts; earlier positions are kept as played.

    By default `start` is the first position not yet published, which makes this the re-plan
    after a withdrawal or a late arrival. With `keep_close`, the current drafts are the starting
    point, so that the new plan moves as few players as possible.
    """
    # Lock the tournament row: two arbiters generating at once would interleave tables.
    tournament = Tournament.objects.select_for_update(no_key=True, of=("self",)).get(
        pk=tournament.pk
    )
    ensure_tournament_open(tournament)
    existing = {p.number: p for p in tournament.positions.prefetch_related("tables__seats")}
    played = last_played_position(tournament)
    start = played + 1 if start is None else start
    if start <= played:
        raise ValidationError(
            _("La position %(number)s est publiée : elle ne peut plus être régénérée.")
            % {"number": start}
        )
    if start > tournament.positions_count:
        raise ValidationError(_("Toutes les positions prévues sont déjà publiées."))
    if any(n not in existing for n in range(1, start)):
        raise ValidationError(_("Générez d'abord les positions précédentes."))
    # Redrawing a draft deletes its tables, and with them any sheet typed on it: refuse instead.
    refuse_typed_drafts(tournament, start)

    fixed = [_tables_of(existing[n]) for n in range(1, start)]
    last = tournament.positions_count
    current = [_tables_of(existing[n]) for n in range(start, last + 1) if n in existing]
    previous = None
    if keep_close and len(current) == last - start + 1:
        previous = seating.Plan(tuple(tuple(tuple(t) for t in p) for p in [*fixed, *current]))
    players = [
        seating.SeatingPlayer(r.pk, r.team_id) for r in active_registrations(tournament, start)
    ]
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        plan = seating.generate(
            players,
            last,
            policy=tournament.remainder,
            fixed=fixed,
            seed=seed,
            previous=previous,
        )
    except seating.SeatingError as error:
        # Translated here, in the arbiter's language: the pure module only marks its templates.
        raise ValidationError(_(error.template) % error.params) from error

    # E over the whole tournament, kept in the history to compare plans.
    repeats = seating.repeated_meetings(plan)
    positions = []
    for number in range(start, last + 1):
        position = existing.get(number)
        before = _tables_of(position) if position is not None else None
        if position is None:
            position = Position.objects.create(tournament=tournament, number=number)
        position.seed = seed
        position.status = Position.Status.DRAFT
        position.save(update_fields=["seed", "status"])
        after = [list(table) for table in plan.positions[number - 1]]
        _store_tables(position, after)
        change_record(
            tournament=tournament,
            obj=position,
            action="update" if before is not None else "create",
            before={"tables": before} if before is not None else None,
            after={"tables": after, "seed": seed, "repeated_meetings": repeats},
            user=user,
        )
        positions.append(position)
    return positions


def position_regenerate(
    *, position: Position, seed: int | None = None, user=None
) -> list[Position]:
    """A new draft for this position (and the drafts after it), ignoring the current one."""
    if position.status != Position.Status.DRAFT:
        raise ValidationError(
            _("La position %(number)s est publiée : elle ne peut plus être régénérée.")
            % {"number": position.number}
        )
    return position_generate(
        tournament=position.tournament,
        seed=seed,
        start=position.number,
        keep_close=False,
        user=user,
    )


def position_is_stale(position: Position) -> bool:
    """A draft seating other players than those who will play it."""
    seated = set(
        Seat.objects.filter(table__position=position).values_list("registration_id", flat=True)
    )
    expected = {r.pk for r in active_registrations(position.tournament, position.number)}
    return seated != expected


class EarlierPositionsUnfinished(ValidationError):
    """Publishing while earlier published positions still have sheets to enter: the arbiter
    is asked to confirm (the desk would otherwise be tempted to move on to the new one)."""

    def __init__(self, to_enter):
        self.to_enter = to_enter  # scoring.entry_progress.ToEnter per earlier position
        super().__init__(
            [
                _(
                    "La position %(number)s a encore %(missing)s feuille(s) manquante(s) et "
                    "%(incomplete)s feuille(s) incomplète(s)."
                )
                % {"number": t.number, "missing": t.missing, "incomplete": t.incomplete}
                for t in to_enter
            ]
        )


@transaction.atomic
def position_publish(
    *, position: Position, user=None, unfinished_confirmed: bool = False
) -> Position:
    """Draft → published: players and scorers may now see it; it is never regenerated again.

    Raises EarlierPositionsUnfinished, unless `unfinished_confirmed`, while an earlier
    published position still has missing or incomplete sheets.
    """
    position = (
        Position.objects.select_for_update(no_key=True, of=("self",))
        .select_related("tournament")
        .get(pk=position.pk)
    )
    tournament = position.tournament
    ensure_tournament_open(tournament)
    if position.status != Position.Status.DRAFT:
        raise ValidationError(_("Cette position est déjà publiée."))
    if tournament.positions.filter(
        number__lt=position.number, status=Position.Status.DRAFT
    ).exists():
        raise ValidationError(_("Publiez d'abord les positions précédentes."))
    if not position.tables.exists():
        raise ValidationError(_("Cette position n'a pas de tables."))
    if position_is_stale(position):
        raise ValidationError(
            _(
                "Les joueurs ont changé depuis la génération de cette position (forfait ou "
                "arrivée) : replanifiez avant de publier."
            )
        )
    earlier = tournament.positions.filter(
        number__lt=position.number, status=Position.Status.PUBLISHED
    )
    to_enter = sorted(
        hooks.sheets_to_enter(tournament, list(earlier)).values(), key=lambda t: t.number
    )
    if to_enter and not unfinished_confirmed:
        raise EarlierPositionsUnfinished(to_enter)
    position.status = Position.Status.PUBLISHED
    position.published_at = timezone.now()
    position.save(update_fields=["status", "published_at"])
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    after: dict[str, Any] = {"status": "published"}
    if to_enter:
        # The arbiter published knowing these sheets were still to come.
        after["sheets_to_enter"] = {str(t.number): t.total for t in to_enter}
    change_record(
        tournament=tournament,
        obj=position,
        action="update",
        before={"status": "draft"},
        after=after,
        user=user,
    )
    return position


@dataclass(frozen=True)
class SwapPreview:
    """What exchanging two players' seats would change, before anything is written."""

    position: Position
    first: Registration
    second: Registration
    first_seat: Seat
    second_seat: Seat
    repeats_before: int
    repeats_after: int
    # Pairs whose meeting count changes: (player a, player b, count before, count after).
    changed_meetings: list[tuple[Registration, Registration, int, int]]

    @property
    def delta(self) -> int:
        return self.repeats_after - self.repeats_before


def _swap_seats(position: Position, first: Registration, second: Registration):
    seats = {
        seat.registration_id: seat
        for seat in Seat.objects.filter(
            table__position=position, registration__in=[first, second]
        ).select_related("table", "registration__player")
    }
    if first.pk == second.pk:
        raise ValidationError(_("Choisissez deux joueurs différents."))
    for registration in (first, second):
        if registration.pk not in seats:
            raise ValidationError(
                _("%(player)s n'est pas placé à cette position.")
                % {"player": registration.player.full_name}
            )
    ensure_position_open(position)
    table_ids = [seats[first.pk].table_id, seats[second.pk].table_id]
    if Table.objects.filter(pk__in=table_ids, sheet__isnull=False).exists():
        raise ValidationError(
            _("Une feuille de marque existe déjà pour cette table : les places ne changent plus.")
        )
    return seats[first.pk], seats[second.pk]


def _check_teammates(first_seat: Seat, second_seat: Seat) -> None:
    if first_seat.table_id == second_seat.table_id:
        return
    for seat, leaving in ((first_seat, second_seat), (second_seat, first_seat)):
        incoming = leaving.registration
        if incoming.team_id is None:
            continue
        mates = Seat.objects.filter(
            table_id=seat.table_id, registration__team_id=incoming.team_id
        ).exclude(pk=seat.pk)
        if mates.exists():
            raise ValidationError(
                _("%(player)s se retrouverait à la table d'un coéquipier.")
                % {"player": incoming.player.full_name}
            )


def _swapped(plan, position_index: int, first_id: int, second_id: int):
    swap = {first_id: second_id, second_id: first_id}
    out = [[list(t) for t in p] for p in plan]
    out[position_index] = [[swap.get(p, p) for p in t] for t in out[position_index]]
    return out


def seat_swap_preview(
    *, position: Position, first: Registration, second: Registration
) -> SwapPreview:
    """The repeated meetings (E, over the whole tournament) before and after the swap."""
    first_seat, second_seat = _swap_seats(position, first, second)
    _check_teammates(first_seat, second_seat)
    tournament = position.tournament
    numbers = list(tournament.positions.values_list("number", flat=True))
    plan = tournament_plan(tournament)
    after = _swapped(plan, numbers.index(position.number), first.pk, second.pk)
    counts_before = seating.meeting_counts(plan)
    counts_after = seating.meeting_counts(after)
    regs = {r.pk: r for r in tournament.registrations.select_related("player")}
    changed = sorted(
        (
            (regs[a], regs[b], counts_before.get((a, b), 0), counts_after.get((a, b), 0))
            for (a, b) in set(counts_before) | set(counts_after)
            if counts_before.get((a, b), 0) != counts_after.get((a, b), 0)
            and (counts_before.get((a, b), 0) > 1 or counts_after.get((a, b), 0) > 1)
        ),
        key=lambda c: (c[0].number, c[1].number),
    )
    return SwapPreview(
        position=position,
        first=first,
        second=second,
        first_seat=first_seat,
        second_seat=second_seat,
        repeats_before=seating.repeated_meetings(plan),
        repeats_after=seating.repeated_meetings(after),
        changed_meetings=changed,
    )


@transaction.atomic
def seat_swap(
    *, position: Position, first: Registration, second: Registration, user=None
) -> SwapPreview:
    """Exchange two players' seats in one position; refused if it seats teammates together."""
    position = (
        Position.objects.select_for_update(no_key=True, of=("self",))
        .select_related("tournament")
        .get(pk=position.pk)
    )
    preview = seat_swap_preview(position=position, first=first, second=second)
    a, b = preview.first_seat, preview.second_seat
    before = {
        "position": position.number,
        "seats": [
            [first.pk, a.table.number, a.direction],
            [second.pk, b.table.number, b.direction],
        ],
        "repeated_meetings": preview.repeats_before,
    }
    # Delete then recreate: a direct exchange would briefly break the unique seat constraints.
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table_id=a.table_id, direction=a.direction, registration=second),
            Seat(table_id=b.table_id, direction=b.direction, registration=first),
        ]
    )
    after = {
        "position": position.number,
        "seats": [
            [first.pk, b.table.number, b.direction],
            [second.pk, a.table.number, a.direction],
        ],
        "repeated_meetings": preview.repeats_after,
    }
    change_record(
        tournament=position.tournament,
        obj=position,
        action="update",
        before={"swap": before},
        after={"swap": after},
        user=user,
    )
    return preview
