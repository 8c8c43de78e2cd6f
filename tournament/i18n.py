"""The translation marker of the pure modules: they import nothing from Django."""


def gettext_noop(message: str) -> str:
    """Mark a message for makemessages; the Django layer translates it when it is shown."""
    return message
