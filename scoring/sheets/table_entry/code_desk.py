"""What the cockpit shows of wrong personal codes (which phone types wrong codes for whom, at
which table) and the arbiter's unlock, which no attacking phone's next try undoes."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from scoring.sheets.table_entry import guessing
from tournament.access import throttle
from tournament.access.audit import change_record
from tournament.models import ChangeLog, Counter, Registration, Tournament, new_pin

ALERT_FAILURES = 5  # wrong codes for one player at one table before the cockpit shows it
SHOWN_DEVICES = 5  # phones listed under an alert, most wrong codes first


class UnknownDevice(Exception):
    """No phone with that number tried this player's code; the message says so (in French)."""


@dataclass(frozen=True)
class DeviceAlert:
    """One phone typing wrong codes for a player: its number (as the phone shows it)."""

    tag: str
    failures: int
    locked: bool


@dataclass
class CodeAlert:
    """A player whose code was typed wrong again and again at a table, by which phones; `locked`
    when a phone is locked for them or the network's budget for them is spent."""

    registration: Any
    table_number: int | None
    failures: int
    locked: bool
    devices: list[DeviceAlert] = field(default_factory=list)
    refused: int = 0  # phones refused by the network's budget for this player


def _device(key: str, parts: int) -> str:
    """The device at the end of a key of `parts` colon-separated fields before it."""
    fields = key.split(":", parts)
    return fields[parts] if len(fields) > parts else ""  # a key of an older format: none


def code_alerts(tournament: Tournament) -> list[CodeAlert]:
    """Players of the tournament with ALERT_FAILURES wrong codes or more at one table, or whose
    network budget is spent, with the phones that typed them; four queries."""
    now = time.time()
    live = Counter.objects.filter(tournament=tournament, window_end__gt=now)
    rows = list(
        live.filter(key__startswith="pin-fail:").select_related("registration__player", "table")
    )
    locked_devices = set(
        Counter.objects.filter(
            tournament=tournament, key__startswith="pin:", locked_until__gt=now
        ).values_list("key", flat=True)
    )
    spent = set(
        Counter.objects.filter(
            registration__tournament=tournament,
            key__startswith="pin-net:",
            window_end__gt=now,
            hits__gte=guessing.PLAYER_BUDGET,
        ).values_list("registration_id", flat=True)
    )
    refused = dict(
        live.filter(key__startswith="pin-held:")
        .values("registration_id")
        .annotate(n=Count("key"))
        .values_list("registration_id", "n")
    )
    groups: dict[tuple[int, int | None], list[Counter]] = defaultdict(list)
    for row in rows:
        if row.registration_id is not None:
            groups[(row.registration_id, row.table_id)].append(row)
    alerts = []
    for (registration_id, _table), found in groups.items():
        devices = [
            DeviceAlert(
                tag=guessing.device_tag(device := _device(row.key, 3)),
                failures=row.hits,
                locked=guessing.lock_key(registration_id, device) in locked_devices,
            )
            for row in found
        ]
        failures = sum(d.failures for d in devices)
        if failures < ALERT_FAILURES and registration_id not in spent:
            continue
        devices.sort(key=lambda d: (-d.failures, d.tag))
        alerts.append(
            CodeAlert(
                registration=found[0].registration,
                table_number=found[0].table.number if found[0].table else None,
                failures=failures,
                locked=registration_id in spent or any(d.locked for d in devices),
                devices=devices[:SHOWN_DEVICES],
                refused=refused.get(registration_id, 0),
            )
        )
    return sorted(alerts, key=lambda a: (-a.failures, a.registration.number))


def _tried_device(registration: Registration, tag: str) -> str:
    """The device cookie of the phone numbered `tag` that tried this player's code."""
    pk = registration.pk
    tag = tag.strip().upper()
    keys = Counter.objects.filter(registration=registration).values_list("key", flat=True)
    for key in keys:
        for prefix, parts in ((f"pin:{pk}:d:", 3), (f"pin-fail:{pk}:", 3), (f"pin-held:{pk}:", 2)):
            if key.startswith(prefix):
                device = _device(key, parts)
                if device and not device.startswith("ip:") and guessing.device_tag(device) == tag:
                    return device
    raise UnknownDevice(
        _("Aucun téléphone n° %(tag)s n'a essayé le code de ce joueur.") % {"tag": tag}
    )


def code_unlock(
    *, registration: Registration, user: Any, new_code: bool, device: str = ""
) -> Registration:
    """The arbiter unlocks a player: their network budgets, the cockpit's count and the locks
    of their own phones (vouched for them) are cleared; the locks of the phones that typed wrong
    codes for them stay, so that those phones' next tries undo nothing. With `device` (the
    number a refused phone shows), that phone is vouched for the player: no other phone's tries
    refuse it any more; without, a phone that never typed a wrong code for them gets past their
    budget for a while (guessing.GRANT_WINDOW): their new phone works while a script keeps
    spending the budget. With `new_code`, a new personal code (old card and bindings die)."""
    pk = registration.pk
    with transaction.atomic():
        found = _tried_device(registration, device) if device.strip() else ""
        rows = Counter.objects.filter(registration=registration)
        vouched = {
            _device(k, 2)
            for k in rows.filter(key__startswith=f"pin-ok:{pk}:").values_list("key", flat=True)
        }
        budgets = list(rows.filter(key__startswith=f"pin-net:{pk}:").values_list("key", flat=True))
        rooms = [guessing.room_key(_device(key, 2)) for key in budgets]
        own_locks = [guessing.lock_key(pk, d) for d in vouched | ({found} if found else set())]
        throttle.clear(*budgets, *rooms, *own_locks)
        rows.filter(key__startswith=f"pin-fail:{pk}:").delete()
        rows.filter(key__startswith=f"pin-held:{pk}:").delete()
        after: dict[str, Any] = {"unlocked": True}
        if new_code:
            Registration.objects.filter(pk=pk).update(pin=new_pin())
            registration.refresh_from_db(fields=["pin"])
            rows.filter(key__startswith=f"pin-ok:{pk}:").delete()
            after["new_code"] = True
        links = {"registration_id": pk}
        if found:
            throttle.hit(guessing.vouch_key(pk, found), guessing.VOUCH_WINDOW, links=links)
            after["device"] = guessing.device_tag(found)
        else:
            # Which phone the player will use is unknown: a new one gets past their budget
            # (guessing.granted) while a script keeps spending it.
            throttle.clear(guessing.grant_key(pk))
            throttle.hit(guessing.grant_key(pk), guessing.GRANT_WINDOW, links=links)
        change_record(
            tournament=registration.tournament_id,
            obj=registration,
            kind=ChangeLog.ObjectType.PLAYER_CODE,
            action=ChangeLog.Action.UPDATE,
            before={"number": registration.number},
            after={"number": registration.number, **after},
            user=user,
        )
    return registration
