"""A held member of a closed vocabulary switched to another of the same one (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import read_respelling, read_turn
from haki.consolidator.vocab_switch import may_switch, said_or_asked, switched


def held(predicate: str, value: object) -> Held:
    return Held(uuid.uuid4(), predicate, value, {}, 0.3)


@pytest.mark.parametrize(
    ("turn", "predicate", "old", "new"),
    [
        ("Can you go back to answering in English from now on?", "language", "Spanish", "English"),
        ("bon, repasse au français stp, c'est trop fatigant.", "language", "English", "French"),
        ("actually can you switch me to metric from now on?", "units", "imperial", "metric"),
        ("Use kilometres instead, please.", "units", "imperial", "metric"),
        ("Tu peux me répondre en espagnol désormais ?", "language", "French", "Spanish"),
    ],
)
def test_another_member_asked_for_replaces_the_held_one(turn, predicate, old, new):
    fact = held(predicate, old)
    found = switched(said_or_asked(turn), [fact])
    assert found is not None and found.target is fact and found.value == new
    assert may_switch(turn)
    # Whichever gate the turn passes, the reading is the same.
    for reading in (read_turn(turn, [fact]), read_respelling(turn, [fact])):
        assert reading.found is not None and reading.found.value == new


@pytest.mark.parametrize(
    ("turn", "predicate", "old"),
    [
        # A question about a language, not a request to use it.
        ("How do you say hello in Spanish?", "language", "English"),
        # One task, not a habit.
        ("Can you answer this email in German?", "language", "English"),
        # Someone else's language.
        ("My husband answers in Spanish now.", "language", "English"),
        # Another person as the subject.
        ("She had a tough time, going vegetarian instead after the divorce.", "diet", "vegan"),
        # A moment, no switch.
        ("I spoke French all week in Paris, now back home.", "language", "English"),
        # The same system named by one of its measures.
        ("Is 20 degrees Celsius warm enough for a picnic?", "units", "metric"),
        # The held value negated, no other named.
        ("I'm not vegan any more.", "diet", "vegan"),
        # Two others named: the turn does not say which.
        ("We got divorced last year, I'm single now.", "relationship_status", "married"),
    ],
)
def test_no_switch_said_of_the_speakers_habit_replaces_nothing(turn, predicate, old):
    assert switched(said_or_asked(turn), [held(predicate, old)]) is None


def test_a_value_outside_the_vocabulary_is_not_read_so():
    assert switched(said_or_asked("Switch me to French."), [held("language", "Klingon")]) is None


def test_requests_are_read_and_other_questions_are_not():
    assert said_or_asked("Could you use metric? Which units do I use?") == ["Could you use metric?"]
