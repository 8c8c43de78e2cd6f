"""Players enter their table's deals on their phones; an opponent confirms them.

- `links`: a table's secret link (QR code) and short code, open while its position is in play.
- `codes`: players prove who they are with their personal code, counted and locked per player
  and guessing client; a phone bound to its player; the desk's alerts and unlock.
- `numbers`: a phone's deal keeps the number it was typed under; a number taken meanwhile is a
  conflict showing both versions, never a renumbered copy.
- `deals`: enter (by a proved player), confirm or contest (a player of the other side, with
  their code), correct (the enterer), finish the sheet.
- `calls`: a table calls the arbiter.
"""

from scoring.sheets.table_entry.calls import CallRefused, arbiter_call, call_take, open_calls
from scoring.sheets.table_entry.codes import (
    BINDING_COOKIE,
    DEVICE_COOKIE,
    Client,
    CodeAlert,
    CodeRefused,
    binding_value,
    bound_player,
    code_alerts,
    code_check,
    code_unlock,
    seated,
)
from scoring.sheets.table_entry.deals import (
    check_client_id,
    deal_confirm_by_arbiter,
    deal_contest,
    deals_confirm,
    may_confirm,
    phone_deal_correct,
    phone_deal_record,
    replayed_deal,
    sheet_finish_at_table,
)
from scoring.sheets.table_entry.links import (
    TableClosed,
    check_open,
    link_for,
    link_revoke,
    links_for_position,
    normalise_code,
    table_sheet,
)
from scoring.sheets.table_entry.numbers import DealNumberTaken, conflict_answer

__all__ = [
    "BINDING_COOKIE",
    "DEVICE_COOKIE",
    "CallRefused",
    "Client",
    "CodeAlert",
    "CodeRefused",
    "DealNumberTaken",
    "TableClosed",
    "arbiter_call",
    "binding_value",
    "bound_player",
    "call_take",
    "check_client_id",
    "check_open",
    "code_alerts",
    "code_check",
    "code_unlock",
    "conflict_answer",
    "deal_confirm_by_arbiter",
    "deal_contest",
    "deals_confirm",
    "link_for",
    "link_revoke",
    "links_for_position",
    "may_confirm",
    "normalise_code",
    "open_calls",
    "phone_deal_correct",
    "phone_deal_record",
    "replayed_deal",
    "seated",
    "sheet_finish_at_table",
    "table_sheet",
]
