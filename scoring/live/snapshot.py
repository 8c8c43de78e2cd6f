"""A tournament's standings as stored to be shared (scoring.live.shared), and read back.

The payload is plain data (zlib-compressed JSON: nothing in it runs code when read, and nothing
depends on the reader's language). Each ranked row is kept as its own small JSON text, decoded
only when a page shows it: a poll showing 50 rows of an 800-player ranking reads 50 rows, so
its cost does not grow with the field. A teams or clubs ranking decodes its members on demand.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, overload

from scoring.core import ranking
from scoring.live.provisional import PartialPosition
from scoring.live.standings import Standings, normalisation_factors
from tournament.models import Tournament

# Bumped whenever the layout below changes: an older payload is then recomputed, never misread.
FORMAT = 1


def encode(standings: Standings) -> bytes:
    """The standings' ranked rows, positions and partial positions (not the tournament's
    settings, which the reader has in hand and which move the version when they change)."""
    body = {
        "format": FORMAT,
        "positions": list(standings.positions),
        "partial": [[p.number, p.finished, p.tables] for p in standings.partial],
        "keys": [r.row.key for r in standings.players],
        "players": [_text(_player(r)) for r in standings.players],
        "teams": [_text(_group(r)) for r in standings.teams],
        "clubs": [_text(_group(r)) for r in standings.clubs],
    }
    return zlib.compress(_text(body).encode(), 1)


def decode(payload: bytes, tournament: Tournament, *, public: bool) -> Standings | None:
    """The standings stored in `payload`, or None if it was written in another format."""
    body = json.loads(zlib.decompress(payload))
    if body.get("format") != FORMAT:
        return None
    players = LazyRanked(body["players"], _player_from)
    keys: list[Hashable] = body["keys"]
    index: dict[Hashable, int] = {}

    def member(key: Hashable) -> ranking.PlayerRow:
        if not index:
            index.update((k, i) for i, k in enumerate(keys))
        return players[index[key]].row

    def group_from(values: list[Any]) -> ranking.Ranked:
        rank, tied, key, name, members = values
        row = ranking.GroupRow(key=key, name=name, members=[member(k) for k in members])
        return ranking.Ranked(rank=rank, row=row, tied=tied)

    normalised = tournament.normalise_tables
    return Standings(
        tournament=tournament,
        criteria=ranking.criteria_for(tournament.tie_breaks or ()),
        normalised=normalised,
        public=public,
        positions=body["positions"],
        players=players,
        teams=LazyRanked(body["teams"], group_from),
        clubs=LazyRanked(body["clubs"], group_from),
        factors=normalisation_factors(tournament) if normalised else {},
        partial=[PartialPosition(*values) for values in body["partial"]],
        keys=keys,
    )


def encode_rows(
    rows: Sequence[ranking.Ranked], players: int, partial: Sequence[PartialPosition] = ()
) -> str:
    """Some players' ranked rows by key, the number of ranked players and the positions still
    in play (the card says "provisoire" as the standings do), stored apart for their cards
    (scoring.live.shared)."""
    return _text(
        {
            "players": players,
            "rows": {str(r.row.key): _player(r) for r in rows},
            "partial": [[p.number, p.finished, p.tables] for p in partial],
        }
    )


def decode_row(text: str, key: int) -> tuple[ranking.Ranked | None, int, list[PartialPosition]]:
    """The ranked row of `key` among those stored by encode_rows (None if not ranked), the
    number of ranked players and the positions still in play."""
    body = json.loads(text)
    values = body["rows"].get(str(key))
    partial = [PartialPosition(*p) for p in body.get("partial", [])]
    return (None if values is None else _player_from(values)), body["players"], partial


class LazyRanked(Sequence[ranking.Ranked]):
    """Ranked rows decoded from their JSON texts on first access, each once."""

    def __init__(self, texts: list[str], decode: Callable[[list[Any]], ranking.Ranked]) -> None:
        self._texts = texts
        self._decode = decode
        self._rows: list[ranking.Ranked | None] = [None] * len(texts)

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, index: int) -> ranking.Ranked: ...
    @overload
    def __getitem__(self, index: slice) -> list[ranking.Ranked]: ...
    def __getitem__(self, index: int | slice) -> ranking.Ranked | list[ranking.Ranked]:
        if isinstance(index, slice):
            return [self._row(i) for i in range(*index.indices(len(self._texts)))]
        if index < 0:
            index += len(self._texts)
        if not 0 <= index < len(self._texts):
            raise IndexError(index)
        return self._row(index)

    def __iter__(self) -> Iterator[ranking.Ranked]:
        return (self._row(i) for i in range(len(self._texts)))

    def _row(self, i: int) -> ranking.Ranked:
        row = self._rows[i]
        if row is None:
            row = self._rows[i] = self._decode(json.loads(self._texts[i]))
        return row


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _player(ranked: ranking.Ranked) -> list[Any]:
    row: ranking.PlayerRow = ranked.row
    results = [
        [
            r.position,
            r.table,
            r.table_size,
            r.points,
            r.raw_points,
            r.deals,
            r.won_table,
            r.penalty,
            r.penalty_charged,
            r.in_play,
        ]
        for r in row.results.values()
    ]
    return [
        ranked.rank,
        ranked.tied,
        row.key,
        row.name,
        row.number,
        row.club,
        row.team,
        row.team_key,
        row.licence,
        row.penalty,
        row.penalties_charged,
        results,
    ]


def _player_from(values: list[Any]) -> ranking.Ranked:
    rank, tied, key, name, number, club, team, team_key, licence, penalty, charged, results = values
    row = ranking.PlayerRow(
        key=key,
        name=name,
        number=number,
        club=club,
        team=team,
        team_key=team_key,
        licence=licence,
        results={r[0]: ranking.PositionResult(*r) for r in results},
        penalty=penalty,
        penalties_charged=charged,
    )
    return ranking.Ranked(rank=rank, row=row, tied=tied)


def _group(ranked: ranking.Ranked) -> list[Any]:
    row: ranking.GroupRow = ranked.row
    return [ranked.rank, ranked.tied, row.key, row.name, [m.key for m in row.members]]
