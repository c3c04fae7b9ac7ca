"""A held fact's new value read by the held value's type beside a change cue (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import read_respelling, read_turn
from haki.consolidator.typed_value import range_value, restating, stated, typed, value_type


def held(predicate: str, value: object, similarity: float | None = 0.3) -> Held:
    return Held(uuid.uuid4(), predicate, value, {}, similarity)


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("German for my job", "language"),
        ("vegetarian", "diet"),
        ("bass in a cover band", "instrument"),
        ("peanuts", "allergen"),
        ("10pm-6am", "range"),
        ("Eli", "name"),
        ("black coffee", None),
    ],
)
def test_a_held_value_is_typed_by_its_leading_words_whatever_its_predicate(value, kind):
    assert value_type(value) == kind


@pytest.mark.parametrize(
    ("turn", "predicate", "old", "new"),
    [
        (
            "i started eating fish again so pescatarian now i guess?",
            "diet",
            "vegetarian",
            "pescatarian",
        ),
        (
            "dropped german, the job fell through. switched to italian because nonna does not speak english",
            "learning",
            "German for my job",
            "Italian",
        ),
        (
            "hmm I think I said bass before? it's guitar, I only play bass sometimes",
            "plays",
            "bass",
            "guitar",
        ),
        (
            "turns out I'm NOT allergic to peanuts. it was tree nuts all along.",
            "allergy",
            "peanuts",
            "tree nuts",
        ),
        ("his full name is Eliot, we just call him Eli.", "son", "Eli", "Eliot"),
        ("switched to day shift this week!!! 8 to 4.", "schedule", "10pm-6am", "8am-4pm"),
        (
            "you can go back to english actually, the coworker reading these left",
            "language",
            "Spanish",
            "English",
        ),
    ],
)
def test_one_value_of_the_held_type_beside_a_cue_replaces_it(turn, predicate, old, new):
    fact = held(predicate, old)
    found = typed(stated(turn), [fact])
    assert found is not None and found.target == fact and found.value == new
    reading = read_turn(turn, [fact])
    assert reading.found is not None and reading.found.value == new


@pytest.mark.parametrize(
    ("turn", "predicate", "old"),
    [
        # No cue: a value of the type said in passing.
        ("I had a great italian dinner with friends", "learning", "German"),
        # Two new values of the type in cued clauses: which one is not said.
        ("switched to italian, now spanish too", "learning", "German"),
        # Someone else's, or a thing pointed at.
        ("my sister is vegan now", "diet", "vegetarian"),
        ("this recipe is vegan now", "diet", "vegetarian"),
        ("can you answer that one in German now", "language", "French"),
        # Negated.
        ("it's not guitar, I never liked it", "plays", "bass"),
        # A name not tied to the held one by its written value.
        ("her name is Anna, she's my new colleague", "son", "Eli"),
        # A range far from the fact by meaning and naming nothing of it.
        ("it's open 9 to 5 now", "schedule", "10pm-6am"),
    ],
)
def test_no_cue_two_values_or_no_tie_reads_nothing(turn, predicate, old):
    assert typed(stated(turn), [held(predicate, old, 0.1)]) is None


def test_two_held_facts_of_one_type_are_not_chosen_between():
    facts = [held("learning", "German"), held("language", "Spanish")]
    assert typed(stated("switched to italian now"), facts) is None


def test_a_range_without_am_pm_that_ends_before_it_starts_crosses_noon():
    assert range_value("8", "4") == "8am-4pm"
    assert range_value("10pm", "6am") == "10pm-6am"
    assert range_value("9", "11") == "9-11"


def test_the_same_value_read_twice_goes_with_the_replaced_fact():
    bass, band, drums = (
        held("plays", "bass"),
        held("plays", "bass in a cover band"),
        held("plays", "drums"),
    )
    assert restating(bass, [bass, band, drums]) == [band]


def test_a_turn_with_no_other_word_of_change_is_read_for_a_typed_value():
    fact = held("diet", "vegetarian")
    reading = read_respelling("fully vegan these days", [fact])
    assert reading.found is not None and reading.found.value == "vegan"


@pytest.mark.parametrize(
    "turn",
    ["I'm learning the violin now", "it's violin on tuesdays", "I switched to violin as well"],
)
def test_a_value_of_many_is_replaced_only_by_a_switch_or_with_the_held_value_named(turn):
    assert typed(stated(turn), [held("plays", "guitar")]) is None


def test_a_copula_cues_only_the_value_it_sets():
    # LoCoMo: the held language named as still learnt, another one from the past.
    turn = (
        "Learning German has been tough but worth it. I like the structure of the language, "
        "it's much easier when I took French in high school."
    )
    assert typed(stated(turn), [held("learning", "German")]) is None
