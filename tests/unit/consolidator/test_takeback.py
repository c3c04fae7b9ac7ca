"""A later sentence writing out a held value beside words saying it ended (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.takeback import (
    LIVED_SIMILARITY,
    TAKEBACK_SIMILARITY,
    ends_object,
    takeback_cue,
    taken_back,
)
from haki.providers.extraction.rules import extract_payload


def held(predicate: str, value: object, similarity: float = 0.4, **qualifiers: object) -> Held:
    return Held(uuid.uuid4(), predicate, value, dict(qualifiers), similarity)


@pytest.mark.parametrize(
    ("sentence", "predicate", "value"),
    [
        ("Gave up keto, I eat everything now.", "diet", "keto"),
        ("Not allergic to cats after all, it was the dust.", "allergy", "cats"),
        ("I'm kind of over jazz, into techno lately.", "likes", "jazz"),
        ("You can stop using German, French is fine.", "language", "German"),
        ("J'ai arrêté le yoga, trop de monde.", "hobby", "yoga"),
        ("It's over with Marco, we're done.", "partner", "Marco"),
    ],
)
def test_a_held_value_written_beside_an_ending_word_is_taken_back(sentence, predicate, value):
    fact = held(predicate, value)
    other = held("home_city", "Lyon")
    assert taken_back([sentence], [other, fact]) == (fact, sentence)


@pytest.mark.parametrize(
    ("sentence", "predicate", "value"),
    [
        # Still held, said of someone else, bound to a moment, no ending word.
        ("I still love jazz, never gave up on it.", "likes", "jazz"),
        ("My sister gave up keto last week.", "diet", "keto"),
        ("I'm skipping jazz tonight, I'm over it for today.", "likes", "jazz"),
        ("Jazz night was great.", "likes", "jazz"),
        # A visit, not an end.
        (
            "Last week I dropped off cakes at the homeless shelter.",
            "volunteers_at",
            "homeless shelter",
        ),
    ],
)
def test_a_sentence_that_ends_nothing_held_takes_nothing_back(sentence, predicate, value):
    assert taken_back([sentence], [held(predicate, value)]) is None


def test_meaning_must_be_close_enough():
    far = held("diet", "keto", similarity=TAKEBACK_SIMILARITY - 0.05)
    # Written beside the end word, not as its object: the full floor.
    assert taken_back(["No more carbs, so keto is done, I eat everything now."], [far]) is None
    # As the object of the ending verb, meaning only rules out another topic.
    assert taken_back(["Gave up keto, I eat everything now."], [far]) is not None
    very_far = held("diet", "keto", similarity=LIVED_SIMILARITY - 0.05)
    assert taken_back(["Gave up keto, I eat everything now."], [very_far]) is None


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("tbh i stopped korean and switched to japanese", "Korean for fun"),
        ("j'ai arrêté la course, mes genoux ont dit stop", "course à pied"),
        ("i quit blue bottle today, no plan yet", "Blue Bottle"),
    ],
)
def test_an_ended_value_is_named_by_its_head_and_dated_by_its_moment(sentence, value):
    fact = held("hobby", value, similarity=0.2)
    assert taken_back([sentence], [fact]) == (fact, sentence)


def test_ends_object_needs_the_value_right_after_the_verb():
    assert ends_object("sold the civic finally", "2015 Civic")
    assert ends_object("j'ai arrêté la course", "course à pied")
    assert not ends_object("i stopped by and the civic was there", "Civic")


def test_two_held_values_written_out_say_not_which_one_ended():
    both = [held("likes", "jazz"), held("likes", "techno")]
    assert taken_back(["No more jazz or techno for me."], both) is None


def test_the_cue_is_a_word_not_a_fragment():
    assert takeback_cue("I stopped going there")
    assert not takeback_cue("I love the overture.")


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I have a hamster called Nibbles.", "pet", "Nibbles"),
        ("I'm dating a guy named Marco.", "partner", "Marco"),
        ("Now I live in Lyon.", "home_city", "Lyon"),
    ],
)
def test_first_statements_are_read(text, predicate, value):
    assert (predicate, value) in [(c.predicate, c.value) for c in extract_payload({"text": text})]


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("J'aime plus trop les sushis.", "likes", "sushis"),
        ("J'habite plus à Lyon.", "home_city", "Lyon"),
    ],
)
def test_spoken_french_without_ne_ends_the_value(text, predicate, value):
    found = [(c.predicate, c.value, c.retract) for c in extract_payload({"text": text})]
    assert (predicate, value, True) in found


def test_plus_meaning_more_ends_nothing():
    assert not any(c.retract for c in extract_payload({"text": "Je mange plus de légumes."}))
