"""Back up a whole tournament to one JSON document and restore it into any database.

The document lists every row that belongs to the tournament (players, teams, registrations,
positions, tables, seats, sheets, deals, scores, incidents, history) in dependency order. On
restore every row gets a new primary key and foreign keys are remapped, so a backup can be loaded
next to other tournaments; players are matched to the roster by licence number when they have one.

A backup is a file from outside: it is trusted for nothing. Restoring runs in two phases.

1. Checking, before anything is written: the size is capped (MAX_BACKUP_BYTES), the nesting depth
   is bounded before the JSON parser can recurse, then every row is typed field by field (ints
   are ints, not bools, floats or strings), passes the model's validators (full_clean) and, for
   the tournament, the settings form; every deal is scored again by the engine, exactly as the
   desk form and the API score it, and its stored result must be the engine's (or, adjusted by
   the arbiter, one zero-sum int per seat, bounded like the adjustment form). Per-seat DealScore
   rows are rebuilt from the checked deals, never read from the file. Any problem raises
   BackupError with a French message naming the row and the field.
2. Writing: every value is converted for the database first, then one short transaction only
   swaps the file's keys for the new ones and runs multi-row INSERTs (as bulk_create does), so
   SQLite's write lock is held for as little as possible (about 2 s for a 40 MB file);
   concurrent deal saves wait for it (the busy timeout in settings) rather than fail.

Who did what is never taken from the file: the person restoring becomes the owner, the history
keeps its authors' names as text (ChangeLog.username) and links no local account, and deals and
incidents are credited to nobody.

Modules: `document` (the format, its limits, reading the file), `export` (writing a backup),
`fields` (typing a value, naming a row or field in a message), `plan` (the checked rows),
`checker` (every section's rows), `deals` (a deal's rules and its score again), `restore`
(check, then insert).
"""

from scoring.documents.backup.document import MAX_BACKUP_BYTES, BackupError
from scoring.documents.backup.export import tournament_export, tournament_export_json
from scoring.documents.backup.restore import tournament_check, tournament_import, tournament_write

__all__ = [
    "MAX_BACKUP_BYTES",
    "BackupError",
    "tournament_export",
    "tournament_export_json",
    "tournament_check",
    "tournament_import",
    "tournament_write",
]
