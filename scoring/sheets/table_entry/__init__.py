"""Players enter their table's deals on their phones; an opponent confirms them.

- `links`: a table's secret link (QR code) and short code, open while its position is in play.
- `codes`: players prove who they are with their personal code; a phone bound to its player.
- `guessing`: what a wrong code locks (the phone that typed it) and the network budgets.
- `code_desk`: the cockpit's alerts (which phone types wrong codes for whom) and the unlock.
- `numbers`: a phone's deal keeps the number it was typed under; a number taken meanwhile is a
  conflict showing both versions, never a renumbered copy.
- `deals`: enter (by a proved player), correct (the enterer).
- `confirmations`: a player of the other side confirms, with their code, the deals their phone
  listed; who may confirm each.
- `disputes`: any player of the table but the enterer contests a deal (a confirmed one goes to
  the arbiter), limited per player and deal.
- `signatures`: each player vouches for the sheet; the last one finishes it.
- `calls`: a table calls the arbiter.
- `late`: what a phone reports it still holds unsent, and a deal it sends after its position
  closed, kept as a late deal for the arbiter.
"""

from scoring.sheets.table_entry.calls import (
    CallRefused,
    arbiter_call,
    call_take,
    open_calls,
    table_call_shown,
)
from scoring.sheets.table_entry.code_desk import (
    CodeAlert,
    DeviceAlert,
    UnknownDevice,
    code_alerts,
    code_unlock,
)
from scoring.sheets.table_entry.codes import (
    BINDING_COOKIE,
    DEVICE_COOKIE,
    Client,
    CodeRefused,
    binding_value,
    bound_player,
    code_check,
    seated,
)
from scoring.sheets.table_entry.confirmations import (
    Confirmation,
    deal_confirm_by_arbiter,
    deals_confirm,
    may_confirm,
    who_confirms,
)
from scoring.sheets.table_entry.deals import (
    check_client_id,
    phone_deal_correct,
    phone_deal_record,
    replayed_deal,
)
from scoring.sheets.table_entry.disputes import deal_contest, referred
from scoring.sheets.table_entry.late import closed_link, late_deal_keep, phone_queue_report
from scoring.sheets.table_entry.links import (
    TableClosed,
    check_open,
    link_for,
    link_revoke,
    links_for_position,
    normalise_code,
    table_revision,
    table_sheet,
)
from scoring.sheets.table_entry.numbers import DealNumberTaken, conflict_answer
from scoring.sheets.table_entry.signatures import (
    VIA_CODE,
    VIA_PHONE,
    Signer,
    sheet_sign,
    signature_board,
    signed_seats,
)

__all__ = [
    "BINDING_COOKIE",
    "DEVICE_COOKIE",
    "CallRefused",
    "Client",
    "CodeAlert",
    "CodeRefused",
    "DealNumberTaken",
    "DeviceAlert",
    "Confirmation",
    "Signer",
    "VIA_CODE",
    "VIA_PHONE",
    "TableClosed",
    "UnknownDevice",
    "arbiter_call",
    "binding_value",
    "bound_player",
    "call_take",
    "check_client_id",
    "check_open",
    "closed_link",
    "code_alerts",
    "code_check",
    "code_unlock",
    "conflict_answer",
    "deal_confirm_by_arbiter",
    "deal_contest",
    "deals_confirm",
    "late_deal_keep",
    "link_for",
    "link_revoke",
    "links_for_position",
    "may_confirm",
    "normalise_code",
    "open_calls",
    "table_call_shown",
    "phone_deal_correct",
    "phone_deal_record",
    "phone_queue_report",
    "replayed_deal",
    "referred",
    "seated",
    "sheet_sign",
    "signature_board",
    "signed_seats",
    "table_revision",
    "table_sheet",
    "who_confirms",
]
