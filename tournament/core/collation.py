"""French alphabetical order and accent-blind matching of names (pure Python, no Django).

BÉNARD sorts with BENARD, before BOYER, and ÇELIK among the C's, as a French phone book would.
The database's byte order puts accented capitals after Z, so every list of people is sorted
here rather than by ORDER BY.
"""

import re
import unicodedata

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss"})

# Cyrillic and Greek letters that look like a Latin one, by their lower case (what fold sees
# after casefold), each mapped to the Latin letter that it, or its capital, passes for:
# "DUРRE Jеan" typed with a Cyrillic Р and е folds like "DUPRE Jean", so the duplicate checks
# see one person. A focused table rather than Unicode's whole confusables list (the
# confusable-homoglyphs package): it maps only letter to letter, which PostgreSQL's
# translate() mirrors exactly (tournament.players.folding), and needs no data file.
CONFUSABLES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "һ": "h", "н": "h", "і": "i", "ӏ": "i", "ј": "j",
    "к": "k", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "с": "c", "т": "t",
    "у": "y", "ү": "y", "х": "x", "ԁ": "d", "ԝ": "w",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "h", "ι": "i", "ϳ": "j", "κ": "k",
    "μ": "m", "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ζ": "z",
}  # fmt: skip
_CONFUSABLES = str.maketrans(CONFUSABLES)
_NOT_ALPHANUMERIC = re.compile(r"[^0-9a-z]")


def fold(text: str | None) -> str:
    """Lower case without accents, ligatures, spaces or punctuation, lookalike Cyrillic and
    Greek letters as the Latin ones they pass for: "Côté-Noël" → "cotenoel"."""
    decomposed = unicodedata.normalize("NFKD", (text or "").translate(_LIGATURES))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_ALPHANUMERIC.sub("", stripped.casefold().translate(_CONFUSABLES))


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
