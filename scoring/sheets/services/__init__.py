"""The thin layer joining the scoring engine to the database: every write of a sheet goes here.

By capability: `sheets` (creation, the version check, states), `deal_input` (the checks of a
deal's input and its score by the engine), `deals` (record, correct, adjust, delete), `barring`
(who may not bid after an incident), `incidents` (faults and penalties). Each write runs in one
transaction, checks the sheet's version and leaves a ChangeLog record with the state before and
after. Import from here: `from scoring.sheets.services import deal_record`.
"""

from scoring.core.engine_fields import ENGINE_FIELDS
from scoring.sheets.services.barring import incident_barred_taker
from scoring.sheets.services.deal_input import (
    CARD_FIELDS,
    ENTRY_FIELDS,
    compute_scores,
    deal_input_check,
)
from scoring.sheets.services.deals import (
    conflict_record,
    deal_adjust,
    deal_delete,
    deal_figure,
    deal_may_go_unrecorded,
    deal_record,
    deal_set_not_recorded,
    deal_update,
    lost_by_margin_scores,
    next_dealer,
)
from scoring.sheets.services.incidents import incident_record, penalties_for, penalty_defaults_set
from scoring.sheets.services.sheets import (
    StaleSheetError,
    bump_version,
    ensure_sheet_writable,
    sheet_allow_extra_deal,
    sheet_create_free,
    sheet_field_update,
    sheet_for_table,
    sheet_lock_message,
    sheet_locked,
    sheet_set_paper_bilans,
    sheet_validate,
    start_label,
)
from scoring.sheets.services.validation import BulkValidation, position_validate_ready

__all__ = [
    "BulkValidation",
    "CARD_FIELDS",
    "ENTRY_FIELDS",
    "ENGINE_FIELDS",
    "StaleSheetError",
    "bump_version",
    "sheet_locked",
    "compute_scores",
    "conflict_record",
    "deal_adjust",
    "deal_delete",
    "deal_figure",
    "deal_input_check",
    "deal_record",
    "deal_may_go_unrecorded",
    "deal_set_not_recorded",
    "deal_update",
    "ensure_sheet_writable",
    "incident_barred_taker",
    "incident_record",
    "lost_by_margin_scores",
    "next_dealer",
    "position_validate_ready",
    "penalties_for",
    "penalty_defaults_set",
    "sheet_allow_extra_deal",
    "sheet_create_free",
    "sheet_field_update",
    "sheet_for_table",
    "sheet_lock_message",
    "sheet_set_paper_bilans",
    "sheet_validate",
    "start_label",
]
