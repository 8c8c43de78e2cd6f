"""The schema of every JSON body score entry accepts: the deal, the desk API's and the phones'.

The deal's schema is the one the desk form (once its notation is read), the API, the phones
and the restore all pass (`deal_input_check`); each JSON endpoint checks its body against its
own schema below before anything else reads it. Types, ranges and list shapes only: what
depends on the sheet (its seats, its game) and on the rules is checked after, by the services
and the engine.
"""

from __future__ import annotations

from typing import Any

from scoring.core.deal import DealError
from scoring.core.figures import FIGURE
from tournament.core.i18n import gettext_noop as _
from tournament.core.schema import (
    AnyObject,
    Bool,
    FieldError,
    Int,
    ListOf,
    Number,
    Obj,
    Pair,
    Shape,
    Text,
)

# A sheet's version: a PostgreSQL integer, never negative.
VERSION = Int(low=0)
# A seat, an entered_by: any integer a query may compare (the services say which seat exists,
# and which fields a request needs: a missing one is theirs to refuse, as before).
SEAT = Int(nullable=True)
# A personal code as typed (its digits); a client id as the phone draws it.
PIN = Text(max_length=32, nullable=True)
CLIENT_ID = Text(max_length=200, nullable=True)
# The version a phone's page read (an old queued deal may have none: the service says so).
PHONE_VERSION = Int(low=0, nullable=True)
NOTE = Text(max_length=1000, nullable=True)

ALONE_VALUE = _(
    "Seul : %(value)s n'est pas une réponse possible (« dog » : roi au chien, "
    "« self » : appelé soi-même, ou vide)."
)
_SIDE = Text(max_length=20, nullable=True)
DEAL = Obj(
    fields={
        "players": Int(nullable=True),
        "taker": Int(nullable=True),
        "partner": Int(nullable=True),
        "dead": Int(nullable=True),
        "contract": Text(max_length=20, nullable=True),
        "oudlers": Int(nullable=True),
        "points": Number(nullable=True),
        "poignees": ListOf(
            item=Pair(first=Int(), second=Text(max_length=20)), max_items=5, nullable=True
        ),
        "petit_au_bout": _SIDE,
        "chelem_announced": Bool(nullable=True),
        "chelem": _SIDE,
        FIGURE: Int(low=-100_000, high=100_000, nullable=True),
        "dealer": Int(nullable=True),
        "passed": Bool(),
        "cancelled": Bool(),
        "arbiter_called": Bool(),
        "alone": Text(max_length=10, nullable=True, message=ALONE_VALUE),
    }
)

# The desk's JSON API: POST /api/feuilles/<sheet>/donnes/.
API_DEAL = Obj(
    fields={"version": VERSION, "deal": AnyObject(schema=DEAL)},
    required=frozenset({"version", "deal"}),
)

# The phones' writes. A deal may carry who entered it (a seat and its code) instead of the
# phone's binding, and the number and sheet version it was typed against.
_CODE = {"seat": SEAT, "pin": PIN}
_ENTERER = {"entered_by": SEAT, "pin": PIN}
# A deal number is stored in a PostgreSQL smallint (Deal.number, Incident.deal_number).
_DEAL_NUMBER_OR_NONE = Int(low=1, high=2**15 - 1, nullable=True)
# The number a phone typed its deal under: a sheet never holds more deals.
NUMBER_MAX = 99
PHONE_PREVIEW = Obj(fields={"deal": AnyObject(schema=DEAL, nullable=True)})
PHONE_DEAL = Obj(
    fields={
        "client_id": CLIENT_ID,
        "deal": AnyObject(schema=DEAL, nullable=True),
        "version": PHONE_VERSION,
        "number": Int(low=1, high=NUMBER_MAX, nullable=True),
        # How many deals the phone holds unsent, this one included (the desk shows it).
        "queued": Int(low=0, high=999, nullable=True),
        **_ENTERER,
    }
)
PHONE_CORRECT = Obj(
    fields={"deal": AnyObject(schema=DEAL, nullable=True), "version": PHONE_VERSION, **_ENTERER}
)
PHONE_IDENTIFY = Obj(fields=_CODE)
# The ids of the deals a phone listed for confirmation (a bigint id column; the service
# says how many a sheet may list).
_DEAL_IDS = ListOf(item=Int(low=0, high=2**63 - 1), max_items=200, nullable=True)
PHONE_CONFIRM = Obj(fields={**_CODE, "version": PHONE_VERSION, "deals": _DEAL_IDS})
PHONE_CONTEST = Obj(fields={**_CODE, "number": _DEAL_NUMBER_OR_NONE, "note": NOTE})
PHONE_CALL = Obj(fields={"number": _DEAL_NUMBER_OR_NONE, "note": NOTE})
PHONE_FINISH = Obj(fields=_CODE)


def body_check(schema: Shape, value: Any) -> Any:
    """`value` checked against `schema`; DealError naming the field at fault (answered 400)."""
    try:
        return schema.check(value)
    except FieldError as err:
        raise DealError(err.field, err.template, err.params) from None
