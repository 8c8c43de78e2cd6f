"""Importing a file of players: what each row would do (check), then registering (apply)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.access.history import history_guard
from tournament.access.lifecycle import ensure_tournament_open
from tournament.access.scopes import club_players
from tournament.models import Player, Registration, Team, Tournament
from tournament.models.choices import Format
from tournament.players import identity
from tournament.players.importing import (
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
from tournament.players.registrations import player_register


def import_check(*, tournament: Tournament, preview: ImportPreview) -> ImportPreview:
    """Say what the import does with each row (ImportRow.status); adds errors by line number.

    A row whose licence is on the club's roster is that player (an error when the names differ;
    one another club holds is a new entry like any other: the preview never tells, issue 36);
    one already registered in the tournament (same licence, or same name and club) is
    skipped; one with the name and club of another roster player is a likely duplicate for the
    arbiter to decide; any other row is a new player. A fixed number of queries per 500 rows.
    """
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    # The importing club's roster only: another club's entries are neither matched nor shown
    # nor hinted at; a licence one of them holds opens a conflict for that club, silently, when
    # the row is registered (player_register).
    typed = [
        identity.Typed(row.last_name, row.first_name, row.club, row.licence) for row in preview.rows
    ]
    matches = identity.roster_players_for(typed, among=club_players(tournament.host_club_id))
    for row, match in zip(preview.rows, matches, strict=True):
        row.player_id = row.duplicate_of = None
        row.duplicate_label = ""
        row.status = NEW
        if match.holder is not None:
            if not match.same_name:
                preview.error(
                    row.line,
                    _(
                        "La licence %(licence)s appartient à un autre joueur du fichier des "
                        "joueurs (%(player)s)."
                    )
                    % {"licence": row.licence, "player": match.holder.full_name},
                )
                continue
            row.player_id = match.holder.pk
            row.status = REGISTERED if match.holder.pk in registered else ROSTER
            continue
        here = [known for known in match.namesakes if known.pk in registered]
        if here:
            row.player_id = here[0].pk
            row.status = REGISTERED
        elif match.namesakes:
            row.status = DUPLICATE
            row.duplicate_of = match.namesakes[0].pk
            row.duplicate_label = match.namesakes[0].label
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
        _refuse_teams_of_an_individual_tournament(preview, teamed)
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


def _refuse_teams_of_an_individual_tournament(
    preview: ImportPreview, teamed: list[ImportRow]
) -> None:
    """Every line naming a team is refused, and the message says which formula the file fits:
    duos when no team has more than two players, teams of 4 otherwise."""
    members: dict[str, int] = {}
    for row in teamed:
        members[normalise(row.team)] = members.get(normalise(row.team), 0) + 1
    formula = Format.DUO if max(members.values()) <= 2 else Format.TEAM4
    message = _(
        "Colonne « équipe » remplie (%(team)s) alors que le tournoi est individuel. Si le "
        "fichier est juste, choisissez la formule « %(formula)s » dans les réglages du tournoi, "
        "puis importez-le de nouveau ; sinon videz cette colonne."
    )
    for row in teamed:
        preview.error(row.line, message % {"team": row.team, "formula": formula.label})


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
    if user is not None:  # the guard of a person's history (a script imports as nobody)
        history_guard(players=(), users=[user], into=[tournament])
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
