"""A change said close by meaning to the sentence a fact was read from (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import read_turn, statements
from haki.consolidator.said_close import SAID_MARGIN, SAID_SIMILARITY, said_close


def held(predicate: str, value: object, said: float | None, similarity: float = 0.3) -> Held:
    return Held(uuid.uuid4(), predicate, value, {}, similarity, said)


CLOSE = SAID_SIMILARITY + 0.1


@pytest.mark.parametrize(
    ("turn", "fact"),
    [
        (
            "Mes horaires ont changé, maintenant c'est de 8h à 16h.",
            held("schedule", "9h à 17h", CLOSE),
        ),
        ("my hours changed, now it's 7 to 3", held("schedule", "9am-5pm weekdays", CLOSE)),
        ("Quit the café, I'm a bus driver now.", held("occupation", "barista", CLOSE)),
        (
            "On a changé d'avis : plus de points-virgules en JavaScript.",
            held("code_convention", "points-virgules partout", CLOSE),
        ),
    ],
)
def test_a_change_close_to_the_facts_sentence_points_at_it(turn, fact):
    found = said_close(statements(turn), [fact])
    assert found is not None and found[0] is fact
    # read_turn reaches the same fact when no narrower reading takes the turn.
    reading = read_turn(turn, [fact])
    pointed = [
        reading.target,
        reading.slot,
        reading.changed,
        reading.close[0] if reading.close else None,
        reading.found.target if reading.found else None,
    ]
    assert fact in pointed


@pytest.mark.parametrize(
    "turn",
    [
        # Close, but nothing says a change: the fact is only talked about.
        "Rex finally learned to sit, so proud!",
        # A change said of someone else.
        "Ma mère habite à Marseille maintenant.",
        # Another person as the subject.
        "She had a tough time, her hours changed now.",
        # A slip on an occasion just past.
        "Je me suis planté de recette hier, j'ai mis du bouillon de bœuf au lieu du bouillon de légumes.",
        # A question takes nothing back.
        "Wait, did I change my schedule?",
    ],
)
def test_closeness_without_a_change_of_the_speakers_own_points_at_nothing(turn):
    assert said_close(statements(turn), [held("schedule", "9h à 17h", CLOSE)]) is None


def test_below_the_threshold_or_without_the_facts_sentence_nothing_is_picked():
    turn = statements("Mes horaires ont changé, maintenant c'est de 8h à 16h.")
    assert said_close(turn, [held("schedule", "9h", SAID_SIMILARITY - 0.01)]) is None
    assert said_close(turn, [held("schedule", "9h", None)]) is None
    # Close to its sentence but far from the fact's own text: another topic.
    assert said_close(turn, [held("schedule", "9h", CLOSE, similarity=0.1)]) is None


def test_two_facts_equally_close_leave_the_turn_to_no_one():
    turn = statements("Quit the café, I'm a bus driver now.")
    a = held("occupation", "barista", CLOSE)
    b = held("employer", "Blue Bottle", CLOSE - SAID_MARGIN / 2)
    assert said_close(turn, [a, b]) is None
    b = held("employer", "Blue Bottle", CLOSE - 2 * SAID_MARGIN)
    assert said_close(turn, [a, b]) == (a, turn[0])


def test_names_and_siblings_are_left_alone():
    turn = statements("Actually everyone calls me Katie now, please use Katie.")
    assert said_close(turn, [held("name", "Kate", CLOSE)]) is None
    two_cats = statements("Scratch that, her name's Paprika now.")
    assert said_close(two_cats, [held("pet", "Pepper", CLOSE), held("pet", "Salt", 0.1)]) is None


def test_a_many_valued_fact_needs_a_change_said_in_strong_words():
    # "Changed" is everyday chat beside a hobby or a group (LoCoMo).
    weak = statements("The training was intense, but it changed my view on helping others.")
    assert said_close(weak, [held("member_of", "fire-fighting brigade", CLOSE)]) is None
    strong = statements("my hours changed, now it's 7 to 3")
    fact = held("schedule", "9 to 5", CLOSE)
    assert said_close(strong, [fact]) == (fact, strong[0])


def test_a_turn_that_asks_is_not_read_by_meaning_alone():
    fact = held("pet", "Rex", CLOSE)
    turn = "Wait, is my dog Rex or Max? I forget what I told you."
    assert read_turn(turn, [fact]).close is None
