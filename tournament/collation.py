"""French alphabetical order and accent-blind matching of names (pure Python, no Django).

BÉNARD sorts with BENARD, before BOYER, and ÇELIK among the C's, as a French phone book would.
The database's byte order puts accented capitals after Z, so every list of people is sorted
here rather than by ORDER BY.
"""

import re
import unicodedata

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss"})
_NOT_ALPHANUMERIC = re.compile(r"[^0-9a-z]")


def fold(text: str | None) -> str:
    """Lower case without accents, ligatures, spaces or punctuation: "Côté-Noël" → "cotenoel"."""
    decomposed = unicodedata.normalize("NFKD", (text or "").translate(_LIGATURES))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_ALPHANUMERIC.sub("", stripped.casefold())


def fold_words(text: str | None) -> list[str]:
    """The folded words of a text, for matching a typed search word by word."""
    return [word for word in (fold(part) for part in (text or "").split()) if word]


def name_key(text: str | None) -> tuple[str, str]:
    """Sort key in French order: letters first, accents and case only to break exact ties."""
    return (fold(text), (text or "").casefold())


def person_key(last_name: str, first_name: str = "") -> tuple[str, str, str, str]:
    """Sort key for a person: last name, then first name; accents and case break ties last."""
    return (fold(last_name), fold(first_name), last_name.casefold(), first_name.casefold())


def matches(query: str | None, *texts: str | None) -> bool:
    """Whether every word of a search matches the start or inside of one of the texts."""
    haystack = [fold(text) for text in texts]
    words = fold_words(query)
    return bool(words) and all(any(word in text for text in haystack) for word in words)
