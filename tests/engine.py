"""The tests whose subject a database engine can change: `make test` runs them again on
PostgreSQL (`pytest --engine-only`), the rest once, on SQLite.

What an engine can change: plain SQL and the ORM's engine-specific parts (upserts, row locks,
`connection.vendor` branches), constraints and what a write does when one is broken, concurrency
(servers of their own, marked `database`), and migrations. ENGINE_SUBJECTS names, for every
module of the apps that holds such code (ENGINE_CODE finds them), the test files that exercise
it; tests/project/test_engine_tests.py fails when a module gains such code and no engine test,
or when a listed file is gone. A single test can also be marked `@pytest.mark.engine`.
"""

import re

ENGINE_CODE = re.compile(
    r"connection\.cursor|\.raw\(|RawSQL|\.extra\(|select_for_update|update_conflicts"
    r"|ignore_conflicts|connection\.vendor|IntegrityError|OperationalError|DatabaseError"
    r"|durable=True|UniqueConstraint|CheckConstraint"
)

BACKUP = ("tests/scoring/documents/backup/test_backup_restore.py",)
TABLE_PHONES = (
    "tests/scoring/live/test_table_entry_security.py",
    "tests/scoring/live/test_phone_trust.py",
    "tests/scoring/live/test_phone_deal_numbers.py",
    "tests/scoring/sheets/test_table_code_race.py",
)
MIGRATIONS = (
    "tests/scoring/season/test_migration_championship_club.py",
    "tests/tournament/clubs/test_migration_one_club.py",
)

# Issue 40's sending of results: the versions' unique constraints, the club's row lock and the
# same document sent twice at once (IntegrityError), on both engines and across two servers;
# a version replacing the previous one's content in place; wrong keys counted by the site's
# upsert counter (tournament.access.throttle) under parallel requests.
UPLOAD = (
    "tests/scoring/upload/test_receive_checks.py",
    "tests/scoring/upload/test_receive_versions.py",
    "tests/scoring/upload/test_wrong_keys_limit.py",
    "tests/load/test_send_results_two_servers.py",
    "tests/load/test_parallel_upload_keys.py",
)

# module of the apps -> the test files that exercise its engine-specific code
ENGINE_SUBJECTS: dict[str, tuple[str, ...]] = {
    "scoring/documents/backup/checker.py": (
        *BACKUP,
        "tests/scoring/documents/backup/test_restore_hostile.py",
    ),
    "scoring/documents/backup/restore.py": BACKUP,
    "scoring/events/replace.py": ("tests/scoring/events/test_replaced_standings.py",),
    "scoring/live/counted.py": (
        "tests/scoring/live/test_public_visibility.py",
        "tests/scoring/live/test_player_card.py",
    ),
    "scoring/live/versioned.py": (
        "tests/scoring/live/test_shared_renders.py",
        "tests/scoring/live/test_shared_renders_query.py",
        "tests/scoring/live/test_hall_views.py",
        "tests/scoring/live/test_shared_standings.py",
        "tests/scoring/live/test_shared_across_processes.py",
    ),
    "scoring/models.py": (*TABLE_PHONES, "tests/scoring/sheets/test_services_deals.py"),
    "scoring/season/circuits.py": ("tests/scoring/season/test_circuits.py",),
    "scoring/sheets/generate.py": ("tests/scoring/sheets/test_generate_command.py",),
    "scoring/sheets/table_entry/calls.py": TABLE_PHONES,
    "scoring/sheets/table_entry/deals.py": TABLE_PHONES,
    "scoring/sheets/table_entry/links.py": TABLE_PHONES,
    "scoring/late.py": ("tests/scoring/sheets/test_late_deals.py",),
    "scoring/upload/receive.py": UPLOAD,
    "scoring/uploads.py": UPLOAD,
    "scoring/sheets/table_entry/late.py": ("tests/scoring/sheets/test_late_deals.py",),
    "scoring/sheets/waiting.py": ("tests/scoring/sheets/test_close_with_waiting_deals.py",),
    # The sheet's row lock (sheet_locked) the phones' confirmations, disputes and signatures take.
    "scoring/sheets/services/sheets.py": (
        "tests/scoring/sheets/table_entry/test_confirm_list.py",
        "tests/scoring/sheets/table_entry/test_disputes.py",
        "tests/scoring/sheets/table_entry/test_signatures.py",
    ),
    "tournament/access/lifecycle.py": (
        "tests/scoring/events/test_cut_locks.py",
        "tests/scoring/sheets/test_results_locked.py",
    ),
    "tournament/access/throttle.py": (
        "tests/tournament/access/test_throttle.py",
        "tests/tournament/access/test_login_gate.py",
    ),
    "tournament/evening/selectors.py": ("tests/scoring/live/test_player_card.py",),
    # The revision's upsert (both counters), and writes over several brackets taking the
    # revisions in ascending order under real parallel transactions.
    "tournament/models/audit.py": (
        "tests/scoring/live/test_live_revision.py",
        "tests/load/test_brackets_lock_order.py",
        "tests/scoring/sheets/test_table_sheet_refresh.py",
    ),
    "tournament/models/clubs.py": ("tests/tournament/clubs/test_club_create.py", *MIGRATIONS),
    "tournament/models/players.py": ("tests/tournament/players/test_roster_entry_race.py",),
    "tournament/models/positions.py": ("tests/tournament/access/test_overflow_ids.py",),
    "tournament/models/registrations.py": (
        "tests/tournament/players/test_registration_players.py",
    ),
    "tournament/models/tournaments.py": ("tests/tournament/access/test_staff_accounts.py",),
    "tournament/clubs/services.py": ("tests/tournament/clubs/test_membership_by_consent.py",),
    "tournament/clubs/settlement.py": (
        "tests/tournament/players/test_licence_conflicts.py",
        "tests/tournament/clubs/test_history_guard.py",
    ),
    "tournament/players/folding.py": ("tests/tournament/players/test_identity_search.py",),
    "tournament/players/identity.py": (
        "tests/tournament/players/test_identity_duplicates.py",
        "tests/tournament/players/test_roster_entry_race.py",
    ),
    "tournament/signup/checkin.py": ("tests/tournament/signup/test_checkin_services.py",),
}

# Whole test files about the engine whatever module they read: the queries each page costs
# (counted per engine), migrations, and the concurrent writes of tests/load (marked `database`).
ENGINE_FILES: tuple[str, ...] = (
    *MIGRATIONS,
    "tests/scoring/events/test_event_queries.py",
    "tests/scoring/sheets/desk/test_desk_queries.py",
    "tests/scoring/season/test_championship_queries.py",
    # The seating solver outside every transaction: a phone's deal on another connection
    # answers while a generation solves (SQLite's database lock, PostgreSQL's row locks).
    "tests/tournament/evening/test_seating_outside_lock.py",
    "tests/scoring/events/test_cut_seats_outside_lock.py",
)


def engine_test_files() -> set[str]:
    return {path for paths in ENGINE_SUBJECTS.values() for path in paths} | set(ENGINE_FILES)
