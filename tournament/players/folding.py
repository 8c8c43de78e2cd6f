"""Accent-blind matching inside the database: Fold(expression) equals collation.fold for names.

No column stores folded names (that would need a migration and a second copy of every name):
the database folds on the fly, so a search filters and limits there and reads one page of rows.

- SQLite calls collation.fold itself, registered as the SQL function tarot_fold on every new
  connection (connection_created, connected in TournamentConfig.ready).
- PostgreSQL lowers, spells out the ligatures, maps the accented Latin letters to their base
  letter with translate() and drops whatever is not a letter or digit: the same result as
  collation.fold for every letter of the Latin-1 and Latin Extended-A blocks and for the
  lookalike Cyrillic and Greek letters of collation.CONFUSABLES (a test checks).
"""

from __future__ import annotations

from django.db.backends.signals import connection_created
from django.db.models import CharField, Func, Value
from django.db.models.functions import Lower

from tournament.core.collation import CONFUSABLES, fold

SQL_FUNCTION = "tarot_fold"
_LIGATURES = (("œ", "oe"), ("æ", "ae"), ("ß", "ss"))


def _accent_map() -> tuple[str, str]:
    """translate()'s two strings: each accented lower-case Latin letter and its base letter."""
    source, target = [], []
    for code in range(0xC0, 0x180):
        char = chr(code).lower()
        folded = fold(char)
        if len(char) == 1 and char not in source and len(folded) == 1 and folded != char:
            source.append(char)
            target.append(folded)
    # The lookalike Cyrillic and Greek letters, and their capitals in case lower() left them.
    for letter, latin in CONFUSABLES.items():
        for char in {letter, letter.upper()}:
            if len(char) == 1 and char not in source and fold(char) == latin:
                source.append(char)
                target.append(latin)
    return "".join(source), "".join(target)


ACCENTED, BASE = _accent_map()


class Fold(Func):
    """Lower case without accents, ligatures, spaces or punctuation, computed by the database."""

    function = SQL_FUNCTION
    arity = 1
    output_field = CharField()

    def as_postgresql(self, compiler, connection, **extra_context):
        text: Func = Lower(self.source_expressions[0], output_field=CharField())
        for ligature, letters in _LIGATURES:
            text = Func(text, Value(ligature), Value(letters), function="replace")
        text = Func(text, Value(ACCENTED), Value(BASE), function="translate")
        text = Func(
            text,
            Value("[^0-9a-z]"),
            Value(""),
            Value("g"),
            function="regexp_replace",
            output_field=CharField(),
        )
        return compiler.compile(text)


def register_sqlite_fold(sender, connection, **kwargs) -> None:
    if connection.vendor == "sqlite":
        connection.connection.create_function(SQL_FUNCTION, 1, fold, deterministic=True)


def connect() -> None:
    connection_created.connect(register_sqlite_fold, dispatch_uid="tarot-fold")
