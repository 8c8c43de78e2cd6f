"""The thin layer joining the scoring engine to the database: every write of a sheet goes here.

By capability: `sheets` (creation, the version check, states), `deal_input` (the checks of a
deal's input and its score by the engine), `deals` (record, correct, adjust, delete), `barring`
(who may not bid after an incident), `incidents` (faults and penalties). Each write runs in one
transaction, checks the sheet's version and leaves a ChangeLog record with the state before and
after. Import from here: `from scoring.services import deal_record`.
"""

from scoring.engine_fields import ENGINE_FIELDS
from scoring.services.barring import (
    barred_message,
    barring_incident,
    incident_barred_taker,
    refuse_barred_taker,
)
from scoring.services.deal_input import (
    CARD_FIELDS,
    ENTRY_FIELDS,
    FIGURE_FIELDS,
    compute_scores,
    deal_input_check,
)
from scoring.services.deals import (
    conflict_record,
    deal_adjust,
    deal_delete,
    deal_figure,
    deal_may_go_unrecorded,
    deal_record,
    deal_set_not_recorded,
    deal_snapshot,
    deal_update,
    lost_by_margin_scores,
    next_dealer,
)
from scoring.services.incidents import (
    incident_record,
    incident_snapshot,
    missing_penalty_message,
    penalties_for,
    penalty_defaults_set,
    penalty_totals,
)
from scoring.services.sheets import (
    StaleSheetError,
    bump_version,
    ensure_sheet_writable,
    sheet_allow_extra_deal,
    sheet_create_free,
    sheet_field_update,
    sheet_field_write,
    sheet_for_table,
    sheet_is_full,
    sheet_lock_message,
    sheet_players_count,
    sheet_set_paper_bilans,
    sheet_validate,
    start_label,
)

__all__ = [
    "CARD_FIELDS",
    "ENTRY_FIELDS",
    "ENGINE_FIELDS",
    "FIGURE_FIELDS",
    "StaleSheetError",
    "barred_message",
    "barring_incident",
    "bump_version",
    "compute_scores",
    "conflict_record",
    "deal_adjust",
    "deal_delete",
    "deal_figure",
    "deal_input_check",
    "deal_record",
    "deal_may_go_unrecorded",
    "deal_set_not_recorded",
    "deal_snapshot",
    "deal_update",
    "ensure_sheet_writable",
    "incident_barred_taker",
    "incident_record",
    "incident_snapshot",
    "lost_by_margin_scores",
    "missing_penalty_message",
    "next_dealer",
    "penalties_for",
    "penalty_defaults_set",
    "penalty_totals",
    "refuse_barred_taker",
    "sheet_allow_extra_deal",
    "sheet_create_free",
    "sheet_field_update",
    "sheet_field_write",
    "sheet_for_table",
    "sheet_is_full",
    "sheet_lock_message",
    "sheet_players_count",
    "sheet_set_paper_bilans",
    "sheet_validate",
    "start_label",
]
