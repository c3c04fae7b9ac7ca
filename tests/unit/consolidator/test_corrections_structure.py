"""Corrections read by structure rather than by phrasing (pure, no database).

Each mechanism of the doubt stage's reading that generalises over wording:
a longer value named by its head, the old value as the object of an ending
verb, an event dated by its moment, a short error announcement reaching the
next sentence, a lower-case name set against the held one, the one new
value of the held shape anywhere in the turn, the speaker's own relation
word beside others, French partitives after a negation.
"""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import (
    Held,
    about_someone_else,
    in_turn,
    named_after_negation,
    temporary,
)
from haki.consolidator.doubt_plan import cued_in, read_turn
from haki.consolidator.life_events import events_in
from haki.consolidator.value_shapes import head, replacement, set_against
from haki.providers.extraction.corrections import cue_strength, said_changed


def held(predicate, value, similarity=0.4, **qualifiers):
    return Held(uuid.uuid4(), predicate, value, qualifiers, similarity)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("tabs for indentation", "tabs"),
        ("Korean for fun", "korean"),
        ("2015 Civic", "civic"),
        ("course à pied", "course"),
        ("Riverside Running Club", "riverside"),
        # One word, a short name, a sentence stored as a value: no head.
        ("nurse", None),
        ("Blue Bottle", None),
        ("we use tabs for indentation", None),
        ("je travaille de nuit, 22h-6h", None),
    ],
)
def test_the_head_of_a_value(value, expected):
    assert head(value) == expected


def test_a_negation_before_the_head_or_a_partitive_names_the_value():
    assert named_after_negation("not tabs, spaces — 2 spaces", "tabs for indentation")
    assert named_after_negation("c'est pas du piano que je joue, c'est de l'orgue", "piano")
    assert not named_after_negation("not blue, it was green", "Blue Bottle")


def test_an_event_is_dated_by_its_moment_a_state_is_bounded_by_it():
    assert temporary("I'm not drinking today")
    assert not temporary("rufus passed away this morning", event=True)
    # A trip is passing whatever is told of it.
    assert temporary("we sold the car for the weekend trip", event=True)


@pytest.mark.parametrize(
    ("sentence", "old", "new"),
    [
        ("lol wait i mean my son is theo not leo, leo is his best friend.", "Leo", "Theo"),
        ("not jake but jack", "Jake", "Jack"),
        ("c'est max, pas rex", "Rex", "Max"),
    ],
)
def test_a_lower_case_name_set_against_the_held_one_replaces_it(sentence, old, new):
    assert replacement(sentence, old) == new


def test_a_name_set_against_nothing_or_two_words_gives_none():
    assert set_against("my son is theo, leo is his friend", "Leo") is None
    assert set_against("not leo", "Leo") is None
    assert set_against("theo not leo but sam", "Leo") is None


def test_the_speakers_own_relation_word_wins_over_others_named_beside_it():
    sentence = "my son is theo not leo, leo is his best friend."
    assert not about_someone_else(sentence, "son", {})
    assert about_someone_else("my brother is 38, not 40", "age", {})


def test_the_turns_one_new_value_of_the_shape_replaces_an_ended_one():
    shopify = held("employer", "Shopify")
    turn = ["big news — i accepted the offer from Stripe.", "last day at shopify was friday."]
    assert in_turn(turn, shopify, [shopify]) == "Stripe"
    assert in_turn(["i met Stripe and Plaid.", "last day at shopify."], shopify, [shopify]) is None


def test_a_word_of_a_held_name_said_alone_is_no_new_value():
    club = "Riverside Running Club"
    sentence = "I switched to the Eastside Striders, Riverside got too big"
    assert replacement(sentence, club) == "Eastside Striders"


def test_a_short_error_announcement_reaches_the_next_sentence_said_in_the_past():
    turn = "scratch that, it's snake_case. camelCase was the old JS codebase, i got mixed up"
    assert ("camelCase was the old JS codebase, i got mixed up", 2) in cued_in(turn)
    # An apology for something else, then a statement: the next sentence is not cued.
    assert cued_in("Sorry, I was late. My dog Max got sick.") == [("Sorry, I was late.", 2)]
    # A long first sentence announces nothing.
    long = "sorry, I was thinking about the whole thing all day long. spanish was fine."
    assert len(cued_in(long)) == 1


@pytest.mark.parametrize(
    ("turn", "value", "how"),
    [
        ("scratch that, it's snake_case. camelCase was the old JS codebase", "camelCase for variable names", "target"),
        ("tbh i stopped korean and switched to japanese", "Korean for fun", "ended"),
        ("rufus passed away this morning. 14 years.", "Rufus", "lived"),
        ("i quit blue bottle today. no plan yet", "Blue Bottle", "lived"),
        ("sold the civic finally, got a Mazda 3 yesterday", "Civic", "lived"),
        ("j'ai recommencé à manger de la viande, donc plus végétarien", "vegetarian", "lived"),
        ("bon je suis plus infirmière, je me suis reconvertie", "infirmière", "ended"),
    ],
)  # fmt: skip
def test_a_later_turn_about_the_held_fact_takes_it_back(turn, value, how):
    predicate = {"Rufus": "pet", "Blue Bottle": "employer", "Civic": "owns", "vegetarian": "diet"}
    fact = held(predicate.get(value, "hobby"), value, 0.3)
    reading = read_turn(turn, [fact])
    got = getattr(reading, how)
    pointed = {"target": lambda r: r, "ended": lambda r: r[0], "lived": lambda r: r[0][0]}
    assert got and pointed[how](got) == fact


@pytest.mark.parametrize(
    ("turn", "value"),
    [
        ("I stopped by the civic centre to vote", "Civic"),
        ("Sorry, I was late. My dog Max got sick.", "Max"),
        ("We watched a korean drama tonight, so good", "Korean for fun"),
        ("I sold tickets at the Riverside Running Club gala", "Riverside Running Club"),
    ],
)
def test_a_turn_that_corrects_nothing_takes_nothing_back(turn, value):
    fact = held("hobby" if value != "Max" else "pet", value, 0.3)
    assert read_turn(turn, [fact]) == type(read_turn(turn, []))()


def test_a_cue_with_now_puts_the_closest_fact_in_doubt_when_nothing_else_reads():
    schedule = held("schedule", "je travaille de nuit, 22h-6h", 0.42)
    reading = read_turn("j'ai changé d'équipe, je suis de jour maintenant, 6h-14h.", [schedule])
    assert reading.slot == schedule


def test_the_shared_cue_lists_hold_the_new_words():
    assert cue_strength("oublie ce que j'ai dit pour Orange") == 2
    assert cue_strength("actually can you switch to Portuguese") >= 1
    assert said_changed("mornings are dead to me")
    assert not said_changed("I love mornings")


def test_new_life_events():
    assert events_in("last day at shopify was friday")
    assert events_in("j'ai recommencé à manger de la viande")
    assert events_in("sold the civic")
    assert not events_in("the day at the beach was lovely")


def test_a_change_word_the_old_value_and_a_new_one_of_its_shape_need_little_closeness():
    club = held("member_of", "Riverside Running Club", 0.16)
    turn = "I switched to the Eastside Striders, Riverside got too big"
    reading = read_turn(turn, [club])
    assert reading.target == club and reading.found.value == "Eastside Striders"
    # No new value of its shape: the full closeness is needed.
    assert read_turn("I switched shoes, Riverside got too big", [club]).target is None


def test_a_thing_of_the_speakers_said_to_have_changed_is_a_change_cue():
    assert cue_strength("my schedule changed, we're on 4x10s now") == 1
    assert cue_strength("mes horaires ont changé") == 1
    assert cue_strength("the weather changed") == 0
