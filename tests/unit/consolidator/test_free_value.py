"""The value of no shape a correcting turn sets in a held fact's place (``free_value``)."""

import pytest

from haki.consolidator.doubt_plan import statements
from haki.consolidator.free_value import free_value


@pytest.mark.parametrize(
    ("turn", "old", "new"),
    [
        ("gave up on pottery, it's all bouldering now", "pottery", "bouldering"),
        ("en vrai j'écoute plus trop de rap, c'est surtout du jazz maintenant", "rap", "jazz"),
        ("scratch that, team voted, we're on 2 spaces now", "tabs", "2 spaces"),
        ("my bad, it's not shellfish, it's tree nuts I'm allergic to", "shellfish", "tree nuts"),
        (
            "bon je suis plus infirmière, je me suis reconvertie en développeuse web",
            "infirmière",
            "développeuse web",
        ),
        (
            "scratch that, metric please. been living in toronto long enough lol",
            "imperial",
            "metric",
        ),
        ("actually give me detailed answers from now on", "short answers", "detailed answers"),
        # A lower-case place or name is written as the held one is.
        ("finalement on a déménagé à nantes, les loyers c'était plus possible", "Rennes", "Nantes"),
        ("did I say Mike? I meant Mark, Mike is my cousin", "Mike", "Mark"),
    ],
)
def test_reads_the_phrase_set_in_the_old_ones_place(turn, old, new):
    assert free_value(statements(turn), old, [old]) == new


@pytest.mark.parametrize(
    ("turn", "old"),
    [
        # Only an end: no value to force.
        ("i quit bouldering. shoulder's done, physio says no climbing for a year", "bouldering"),
        ("j'ai arrêté le tennis, mon genou tient plus", "tennis"),
        # The old value again, or a negation, is no new value.
        ("it's not jazz anymore", "jazz"),
        ("it's pottery I love, always was", "pottery"),
        # Two phrases: nothing says which one is the new value.
        ("nah switch me to metric, I moved to Canada and it's confusing", "imperial"),
        # A schedule's days and hours are read by their shapes, not as a phrase.
        ("my schedule changed, it's four tens now", "9am-5pm Monday-Friday"),
        # A phrase that says nothing of a value.
        ("it's fine, really", "tea"),
    ],
)
def test_reads_nothing_without_one_new_phrase(turn, old):
    assert free_value(statements(turn), old, [old]) is None


def test_another_held_value_is_not_the_new_one():
    turn = "scratch that, it's python now"
    assert free_value(statements(turn), "Rust", ["Rust", "python"]) is None


def test_the_other_one_points_back_at_the_held_value_and_adds_nothing():
    from haki.consolidator.misspoke import adds_value

    assert not adds_value(
        "chez nous c'est accolade sur la même ligne. l'autre c'était mon ancienne boîte"
    )
    assert adds_value("j'ai une autre chienne")
