"""The report's arbiters, calls for the arbiter and who recorded each incident: their lines, and
the same records as a club's laptop sent them with a tournament (scoring.upload). A backup holds
none of them (accounts and table calls are not restored; incidents are credited to nobody), so
on the comité's server the report of a received tournament prints the laptop's records kept
with its latest version, not the server's accounts (its owner there is the key's owner, not the
evening's arbiter)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol, TypeVar

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from scoring.models import Deal
from scoring.uploads import ReceivedVersion
from tournament.models import Tournament

MAX_SENT_LINES = 10_000  # staff and calls of a sent report: far above any real evening's


@dataclass(frozen=True)
class StaffLine:
    name: str
    role: str
    signs: bool  # an arbiter (the owner or a co-arbiter): signs the report; a scorer does not


@dataclass(frozen=True)
class CallLine:
    position: int
    table: int
    deal: int | None
    note: str
    called_at: datetime
    taken_at: datetime | None
    taken_by: str
    desk: bool = False  # a deal the desk marked "Arbitre appelé", not a phone's call


@dataclass(frozen=True)
class IncidentAuthor:
    """Who recorded an incident, and when (the incident is found again by its time)."""

    recorded_at: datetime
    arbiter: str


@dataclass(frozen=True)
class SentRecords:
    staff: list[StaffLine]
    calls: list[CallLine]
    incidents: list[IncidentAuthor]


def records_document(
    staff: list[StaffLine], calls: list[CallLine], incidents: list[IncidentAuthor]
) -> dict[str, Any]:
    """The records as the laptop sends them in its document's report (JSON)."""
    return {
        "incidents": [
            {"recorded_at": i.recorded_at.isoformat(), "arbiter": i.arbiter} for i in incidents
        ],
        "staff": [{"name": s.name, "role": s.role, "signs": s.signs} for s in staff],
        "calls": [
            {
                "position": c.position,
                "table": c.table,
                "deal": c.deal,
                "note": c.note,
                "called_at": c.called_at.isoformat(),
                "taken_at": c.taken_at.isoformat() if c.taken_at else None,
                "taken_by": c.taken_by,
                "desk": c.desk,
            }
            for c in calls
        ],
    }


def _text(row: dict, name: str, limit: int = 200) -> str:
    value = row.get(name, "")
    if not isinstance(value, str):
        raise ValueError(name)
    return value[:limit]


def _number(row: dict, name: str, *, optional: bool = False) -> int | None:
    value = row.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 100_000:
        raise ValueError(name)
    return value


def _when(row: dict, name: str, *, optional: bool = False) -> datetime | None:
    value = row.get(name)
    if value is None and optional:
        return None
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        raise ValueError(name)
    return moment


def sent_records(report: Any) -> SentRecords:
    """A sent report's staff and calls; ValueError when they are not what a laptop sends."""
    if not isinstance(report, dict):
        raise ValueError("report")
    staff, calls = report.get("staff", []), report.get("calls", [])
    incidents = report.get("incidents", [])  # absent from a version sent before it was
    if not all(isinstance(rows, list) for rows in (staff, calls, incidents)):
        raise ValueError("staff/calls")
    if len(staff) + len(calls) + len(incidents) > MAX_SENT_LINES or not all(
        isinstance(row, dict) for row in staff + calls + incidents
    ):
        raise ValueError("staff/calls")
    return SentRecords(
        staff=[
            StaffLine(_text(r, "name"), _text(r, "role"), r.get("signs") is True) for r in staff
        ],
        calls=[
            CallLine(
                position=_number(r, "position") or 0,
                table=_number(r, "table") or 0,
                deal=_number(r, "deal", optional=True),
                note=_text(r, "note"),
                called_at=_when(r, "called_at") or datetime.min,
                taken_at=_when(r, "taken_at", optional=True),
                taken_by=_text(r, "taken_by"),
                desk=r.get("desk") is True,
            )
            for r in calls
        ],
        incidents=[
            IncidentAuthor(_when(r, "recorded_at") or datetime.min, _text(r, "arbiter"))
            for r in incidents
        ],
    )


def received_records(tournament: Tournament) -> SentRecords | None:
    """The records sent with the tournament's latest version; None for a tournament of this
    site's own desk (one query)."""
    report = (
        ReceivedVersion.objects.filter(tournament=tournament)
        .order_by("-number")
        .values_list("report", flat=True)
        .first()
    )
    if report is None:
        return None
    try:
        return sent_records(report)
    except ValueError:  # checked when received: a version from before calls were sent
        return None


def desk_calls(tournament: Tournament) -> list[CallLine]:
    """The deals the desk marked "Arbitre appelé", as calls beside the phones' (one query)."""
    deals = (
        Deal.objects.filter(sheet__tournament=tournament, arbiter_called=True)
        .select_related("sheet__table__position")
        .order_by("created_at", "pk")
    )
    return [
        CallLine(
            position=deal.sheet.table.position.number if deal.sheet.table else 0,
            table=deal.sheet.table.number if deal.sheet.table else 0,
            deal=deal.number,
            note=_("Donne marquée « Arbitre appelé » à la table de marque"),
            called_at=deal.created_at,
            taken_at=None,
            taken_by="",
            desk=True,
        )
        for deal in deals
    ]


class _Incident(Protocol):
    @property
    def recorded_at(self) -> datetime: ...

    @property
    def arbiter(self) -> str: ...


LineT = TypeVar("LineT", bound=_Incident)


def incident_authors(lines: list[LineT]) -> list[IncidentAuthor]:
    return [IncidentAuthor(line.recorded_at, line.arbiter) for line in lines]


def with_authors(lines: list[LineT], sent: SentRecords | None) -> list[LineT]:
    """The incidents of a received tournament (credited to nobody by the restore) with who
    recorded them on the laptop: the same incidents in the same order, found by their time."""
    if sent is None or len(sent.incidents) != len(lines):
        return lines
    return [
        replace(line, arbiter=author.arbiter)  # type: ignore[type-var]
        if not line.arbiter and author.recorded_at == line.recorded_at
        else line
        for line, author in zip(lines, sent.incidents, strict=True)
    ]
