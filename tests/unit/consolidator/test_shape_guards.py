"""A value read by shape must be one the sentence states of the target (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import plan, statements
from haki.consolidator.restate import restated_slot
from haki.consolidator.value_shapes import denied, replacement


def _held(predicate: str, value: object, similarity: float, **qualifiers: object) -> list[Held]:
    return [Held(uuid.uuid4(), predicate, value, dict(qualifiers), similarity)]


# A value the sentence negates or says has ended is what no longer holds.
@pytest.mark.parametrize(
    ("turn", "predicate", "value", "qualifiers"),
    [
        ("Actually I don't live in Paris any more.", "pet", "Luna", {"kind": "cat"}),
        ("Actually I don't live in Paris any more.", "employer", "Acme", {}),
        ("Actually I don't live in Berlin any more.", "employer", "Acme", {}),
        ("Sorry, I no longer work with Sarah.", "partner", "Luca", {}),
        ("Oops, I'm not in Lisbon these days, my mistake.", "pet", "Biscuit", {}),
    ],
)
def test_a_denied_value_replaces_nothing(turn, predicate, value, qualifiers):
    _, found = plan(turn, _held(predicate, value, 0.3, **qualifiers))
    assert found is None


def test_denied_reads_the_clause_of_the_value():
    sentence = "I'm not at Google any more, I'm at Meta."
    assert denied(sentence, sentence.index("Google"), sentence.index("Google") + 6)
    assert not denied(sentence, sentence.index("Meta"), sentence.index("Meta") + 4)
    # A new subject and copula restart the statement; a bound is the rule stated.
    assert replacement("It's not Rex it's Max, sorry.", "Rex") == "Max"
    assert replacement("Pas de réunion avant 10h, pas 9h.", "9h") == "10h"


def test_a_new_value_after_the_ended_one_still_replaces():
    turn = "Sorry, I'm no longer at Google, I work at Meta now."
    _, found = plan(turn, _held("employer", "Google", 0.4))
    assert found is not None and found.value == "Meta"


# A value led by another single-valued predicate's topic word, or owned by
# another person's noun, is not the target's.
@pytest.mark.parametrize(
    ("turn", "predicate", "value", "similarity"),
    [
        ("I misspoke, my trainer is called Marco.", "partner", "Luca", 0.28),
        ("I got that wrong, our vet is Dr Lee.", "pet", "Biscuit", 0.26),
        ("Oops, my dentist is Dr Park.", "partner", "Luca", 0.35),
        ("I misspoke, I live in Berlin.", "employer", "Acme", 0.35),
    ],
)
def test_someone_elses_value_replaces_nothing_by_shape(turn, predicate, value, similarity):
    assert plan(turn, _held(predicate, value, similarity)) == (None, None)


@pytest.mark.parametrize(
    ("turn", "predicate", "value", "qualifiers", "new"),
    [
        (
            "I got that wrong, she's actually called Pumpkin.",
            "pet",
            "Biscuit",
            {"kind": "cat"},
            "Pumpkin",
        ),
        ("Sorry, my dog is called Max.", "pet", "Rex", {"kind": "dog"}, "Max"),
        ("I got that wrong, my boyfriend is Tom.", "partner", "Luca", {}, "Tom"),
        ("My mistake about where I work: it's Microsoft.", "employer", "Google", {}, "Microsoft"),
        ("Oops, wrong number, it's 43.", "age", 34, {}, 43),
        # "moved" is a home's topic word, but a time is no home.
        ("Standup moved to 10:15 starting this week.", "schedule", "9:30", {}, "10:15"),
    ],
)
def test_the_targets_own_value_still_replaces_by_shape(turn, predicate, value, qualifiers, new):
    _, found = plan(turn, _held(predicate, value, 0.35, **qualifiers))
    assert found is not None and found.value == new


# A day or a month stated as a name is a name; used as a time it is not.
def test_a_day_stated_by_a_copula_after_a_naming_word_is_a_name():
    assert replacement("No wait, her name is Friday.", "Luna") == "Friday"
    assert replacement("Sorry, he's called March.", "Rex") == "March"
    _, found = plan("No wait, her name is Friday.", _held("pet", "Luna", 0.3, kind="cat"))
    assert found is not None and found.value == "Friday"


def test_a_day_used_as_a_time_is_no_name():
    assert replacement("My new job at Netflix starts Monday.", "Google") == "Netflix"
    assert replacement("Sorry, I see Luna on Friday.", "Rex") == "Luna"
    assert replacement("Oops, we meet on Friday.", "Rex") is None
    assert replacement("Oops, it was in March.", "Rex") is None


# A new hobby or friend sits beside the old ones.
@pytest.mark.parametrize(
    ("turn", "predicate", "value"),
    [
        ("My new hobby is pottery.", "hobby", "painting"),
        ("I've picked up a new hobby, pottery, these days.", "hobby", "painting"),
        ("My new best friend is Jo now.", "friend", "Sam"),
        ("Mon nouveau loisir c'est la poterie maintenant.", "hobby", "la peinture"),
    ],
)
def test_a_new_value_of_a_many_valued_predicate_doubts_nothing(turn, predicate, value):
    assert restated_slot(statements(turn), _held(predicate, value, 0.5)) is None


@pytest.mark.parametrize(
    ("turn", "predicate", "value"),
    [
        ("I don't do that any more, my hobby is pottery now.", "hobby", "painting"),
        ("Finalement je préfère la mer maintenant.", "prefers", "montagne"),
        ("I live in Denver now.", "home_city", "Boston"),
    ],
)
def test_an_ended_or_single_value_is_still_restated(turn, predicate, value):
    found = restated_slot(statements(turn), _held(predicate, value, 0.5))
    assert found is not None and found.predicate == predicate


@pytest.mark.parametrize(
    "turn",
    ["Actually I don't live in Paris any more.", "En fait je n'habite plus à Paris."],
)
def test_denying_another_value_of_the_topic_leaves_the_held_one_alone(turn):
    # Lisbon is held; saying Paris is over agrees with it.
    assert plan(turn, _held("home_city", "Lisbon", 0.4)) == (None, None)


def test_denying_the_held_value_still_takes_it_back():
    target, found = plan(
        "Actually I don't live in Paris any more.", _held("home_city", "Paris", 0.4)
    )
    assert target is not None and target.value == "Paris" and found is None
