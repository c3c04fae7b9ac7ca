"""A correction split over a question: the held value echoed, then denied (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import read_turn, statements


@pytest.mark.parametrize(
    ("turn", "old", "new"),
    [
        ("Caramel ? Non, il s'appelle Chocolat, je confonds toujours.", "Caramel", "Chocolat"),
        ("Rex? No, it's Max.", "Rex", "Max"),
    ],
)
def test_an_echo_denied_by_the_next_sentence_is_taken_back(turn, old, new):
    fact = Held(uuid.uuid4(), "pet", old, {}, 0.25)
    reading = read_turn(turn, [fact])
    assert reading.target is fact and reading.found is not None and reading.found.value == new


@pytest.mark.parametrize(
    ("turn", "said"),
    [
        # A question word, not an echo: nothing is joined.
        ("Which city? No idea.", ["No idea."]),
        ("Really? No, I did not know.", ["No, I did not know."]),
        # An echo not denied stays a question.
        ("Rex? He's fine.", ["He's fine."]),
    ],
)
def test_other_questions_take_nothing_back(turn, said):
    assert statements(turn) == said
