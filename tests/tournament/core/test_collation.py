"""Names in French alphabetical order: accents and case never push a name to the end."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.core.ranking import TOTAL, rank
from tournament.core.collation import fold, matches, name_key, person_key

SURNAMES = ["BOYER", "BÉNARD", "ÇELIK", "CARON", "ÉLIE", "DUPONT", "ŒUVRARD", "OBERT", "Zola"]


def test_accented_capitals_sort_with_their_letter():
    assert sorted(SURNAMES, key=name_key) == [
        "BÉNARD",
        "BOYER",
        "CARON",
        "ÇELIK",
        "DUPONT",
        "ÉLIE",
        "OBERT",
        "ŒUVRARD",
        "Zola",
    ]
    # Byte order, what the database gives, puts them last: the reason this module exists.
    assert sorted(SURNAMES)[-4:] == ["Zola", "ÇELIK", "ÉLIE", "ŒUVRARD"]


def test_last_name_then_first_name():
    people = [("LE BON", "Zoé"), ("LEBON", "Anne"), ("LÉBON", "Marc"), ("LEBON", "Émile")]
    ordered = sorted(people, key=lambda p: person_key(*p))
    assert ordered == [("LEBON", "Anne"), ("LEBON", "Émile"), ("LÉBON", "Marc"), ("LE BON", "Zoé")]


def test_fold_drops_accents_case_ligatures_and_punctuation():
    assert fold("Côté-Noël") == "cotenoel"
    assert fold("d'ŒUVRARD") == "doeuvrard"
    assert fold(None) == ""


def test_search_ignores_accents_and_case_word_by_word():
    assert matches("cote", "CÔTÉ", "François")
    assert matches("helene lef", "LEFÈVRE", "Hélène")
    assert not matches("helene lefe", "LEFEBVRE", "Paul")
    assert not matches("   ", "CÔTÉ")


@given(st.lists(st.text(max_size=12), max_size=20))
def test_order_never_depends_on_case_or_accents_of_the_first_letter(names):
    ordered = sorted(names, key=name_key)
    folded = [fold(n) for n in ordered]
    assert folded == sorted(folded)


def test_tied_players_are_listed_in_french_order():
    class Row:
        def __init__(self, name, total):
            self.name, self.total = name, total

    rows = [Row("ÇELIK Ana", 10), Row("BOYER Luc", 10), Row("BÉNARD Paul", 10), Row("ZOLA Ivo", 50)]
    ranked = rank(rows, (TOTAL,))
    assert [r.row.name for r in ranked] == ["ZOLA Ivo", "BÉNARD Paul", "BOYER Luc", "ÇELIK Ana"]
    assert [r.rank for r in ranked] == [1, 2, 2, 2]
