"""A tournament's standings as stored to be shared (scoring.live.shared), and read back.

Plain data (JSON, gzipped by the live store: nothing in it runs code when read, and nothing
depends on the reader's language). Each ranked row is kept as its own small JSON text, decoded
only when a page shows it: a player's card reads one row of an 800-player ranking, a page of
the standings 50. A teams or clubs ranking decodes its members on demand.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import astuple, fields
from typing import Any

from scoring.core import ranking
from scoring.live.provisional import PartialPosition
from scoring.live.standings import Standings, normalisation_factors
from tournament.models import Tournament

# Bumped whenever the layout below changes: an older payload is then recomputed, never misread.
FORMAT = 2
# A player's row as stored: its fields in this order, its results as PositionResult's fields.
PLAYER_FIELDS = tuple(f.name for f in fields(ranking.PlayerRow))


def encode(standings: Standings) -> bytes:
    """The standings' ranked rows, positions and partial positions (not the tournament's
    settings, which the reader has in hand and which move the revision when they change)."""
    body = {
        "format": FORMAT,
        "positions": list(standings.positions),
        "partial": [astuple(p) for p in standings.partial],
        "keys": [r.row.key for r in standings.players],
        "players": [_text(_player(r)) for r in standings.players],
        "teams": [_text(_group(r)) for r in standings.teams],
        "clubs": [_text(_group(r)) for r in standings.clubs],
    }
    return _text(body).encode()


def decode(payload: bytes, tournament: Tournament, *, public: bool) -> Standings | None:
    """The standings stored in `payload`, or None if it was written in another format."""
    try:
        body = json.loads(gzip.decompress(payload))
    except (OSError, EOFError, ValueError):  # not stored by this code (an older format)
        return None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
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


class LazyRanked(Sequence[ranking.Ranked]):
    """Ranked rows decoded from their JSON texts on first access, each once."""

    def __init__(self, texts: list[str], decode: Callable[[list[Any]], ranking.Ranked]) -> None:
        self._texts = texts
        self._decode = decode
        self._rows: list[ranking.Ranked | None] = [None] * len(texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __getitem__(self, index: Any) -> Any:  # a row, or a list of rows for a slice
        found = range(len(self._texts))[index]  # an IndexError out of range, as a list's
        return [self._row(i) for i in found] if isinstance(found, range) else self._row(found)

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
    values = [getattr(row, name) for name in PLAYER_FIELDS]
    values[PLAYER_FIELDS.index("results")] = [astuple(r) for r in row.results.values()]
    return [ranked.rank, ranked.tied, *values]


def _player_from(values: list[Any]) -> ranking.Ranked:
    rank, tied, *row = values
    fields_ = dict(zip(PLAYER_FIELDS, row, strict=True))
    fields_["results"] = {r[0]: ranking.PositionResult(*r) for r in fields_["results"]}
    return ranking.Ranked(rank=rank, row=ranking.PlayerRow(**fields_), tied=tied)


def _group(ranked: ranking.Ranked) -> list[Any]:
    row: ranking.GroupRow = ranked.row
    return [ranked.rank, ranked.tied, row.key, row.name, [m.key for m in row.members]]
