"""The translation vocabulary of the pure modules: they import nothing from Django."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Mark a message for makemessages; the Django layer translates it when it is shown."""
    return message


class TranslatableError(ValueError):
    """An error for a person, carrying a French message template and its named params.

    The template is marked for the catalogue (`gettext_noop`); the Django layer translates it
    when it shows it (`gettext(error.template) % error.params`). str() gives the French message.
    Subclasses that take more constructor arguments list them in `_init_args` for pickling.
    """

    def __init__(self, template: str, params: Mapping[str, Any] | None = None):
        self.template = template
        self.params = dict(params or {})
        super().__init__(self.template % self.params)

    def __str__(self) -> str:
        return self.template % self.params

    def _init_args(self) -> tuple[Any, ...]:
        return (self.template, self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the error picklable (caches, parallel test workers) despite the custom __init__.
        return (type(self), self._init_args())
