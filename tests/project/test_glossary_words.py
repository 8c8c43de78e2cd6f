"""The interface uses the README's glossary: one French name per thing (issue 38 found the same
paper called "feuille d'itinéraire", "carte d'itinéraire" and its code "code personnel de
confirmation", "Rg" for the rank and "2 bout(s)" beside "2 bouts"). Every template and every
Python module of the interface is read for the banned variants."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Variant → the glossary's word (README, "Glossary of the interface").
BANNED = {
    r"(?i)feuilles? d'itinéraire": "carte d'itinéraire",
    r"(?i)code personnel de confirmation": "code personnel",
    r"\bRg\b": "Rang",
    r"bouts?\(s\)": "bout / bouts (ngettext)",
    # A word with « (s) » (« donne(s) saisie(s) »): not code calling a function on `s`.
    r"[^\W\d_](?<!\bint)(?<!_int)(?<!\bstr)(?<!\babs)(?<!String)(?<!score)(?<!cumulative)\(s\)": (
        "singular / plural (ngettext or {% plural %}), never « (s) »"
    ),
    r"\d\s*pts\b|\)s pts\b": "points",
    r"(?i)feuilles? de score|fiches? de marque": "feuille de marque",
    # No gender is recorded: a sentence about a named player agrees with nobody.
    r": il ne peut pas|: elle ne peut pas|qu'il ne pouvait|est noté preneur|\)s est déjà inscrit"
    r"|\)s est de nouveau présent|pointez-le\b": "a sentence agreeing with no gender",
}


def interface_files() -> list[Path]:
    files = sorted((ROOT / "templates").rglob("*.html"))
    for app in ("scoring", "tournament"):
        files += [
            path for path in sorted((ROOT / app).rglob("*.py")) if "migrations" not in path.parts
        ]
    files += sorted((ROOT / "static" / "js").glob("*.js"))
    return files


def test_the_interface_uses_the_glossarys_words():
    found = []
    for path in interface_files():
        if path.name == "htmx.min.js":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, word in BANNED.items():
                if re.search(pattern, line):
                    where = f"{path.relative_to(ROOT)}:{number}"
                    found.append(f"{where}: say « {word} » ({line.strip()[:90]})")
    assert not found, "\n".join(found)


def test_the_banned_list_catches_each_variant():
    samples = [
        "votre feuille d'itinéraire",
        "Code personnel de confirmation :",
        "<th>Rg</th>",
        "2 bout(s)",
        "3 donne(s) saisie(s)",
        "0 point(s)",
        "45 pts",
        "la feuille de score",
        "DURAND a fait une fausse donne : il ne peut pas enchérir",
        "DURAND est noté preneur de la donne 1 alors qu'il ne pouvait pas enchérir",
        "%(player)s est déjà inscrit à ce tournoi.",
        "%(player)s est de nouveau présent.",
        "déjà inscrite : pointez-le dans la liste",
    ]
    for sample in samples:
        assert any(re.search(pattern, sample) for pattern in BANNED), sample
    assert not any(re.search(p, "2 bouts · 45 points · Rang") for p in BANNED)
    assert not any(re.search(p, "[int(s) for s in scores] + str(s) + is_int(s)") for p in BANNED)
