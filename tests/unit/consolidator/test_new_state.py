"""A later turn that states a new value with no correction cue, or says a status ended (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held, ends_status, temporary
from haki.consolidator.doubt_plan import closest, plan
from haki.consolidator.restate import restated
from haki.consolidator.value_shapes import replacement, shape
from haki.providers.extraction.corrections import correction_cue, new_state


def held(predicate: str, value: object, similarity: float, **qualifiers: object) -> Held:
    return Held(uuid.uuid4(), predicate, value, dict(qualifiers), similarity)


@pytest.mark.parametrize(
    ("turn", "predicate", "old", "sim", "new"),
    [
        ("We're in Bordeaux now.", "home_city", "Lyon", 0.34, "Bordeaux"),
        ("On est à Bordeaux maintenant.", "home_city", "Lyon", 0.36, "Bordeaux"),
        ("My dog's name is actually Max.", "pet", "Rex", 0.45, "Max"),
        (
            "You can reach me at joe@new.example from now on.",
            "email",
            "joe@old.example",
            0.6,
            "joe@new.example",
        ),
    ],
)
def test_a_value_said_to_hold_now_replaces_the_held_one_of_its_shape(
    turn, predicate, old, sim, new
):
    fact = held(predicate, old, sim)
    target, found = plan(turn, [fact])
    assert target == fact and found is not None and found.value == new


@pytest.mark.parametrize(
    ("turn", "predicate", "old", "sim"),
    [
        # Someone else's change, a trip, the held value restated, nothing of the shape.
        ("My sister lives in Bordeaux now.", "home_city", "Lyon", 0.42),
        ("Ma mère habite à Marseille maintenant.", "home_city", "Lyon", 0.5),
        ("We're in Rome for the weekend now.", "home_city", "Paris", 0.4),
        ("I'm now part of the fire-fighting brigade.", "member_of", "fire-fighting brigade", 0.6),
        ("Still in Lyon now, loving it.", "home_city", "Lyon", 0.5),
        ("I'm really enjoying my new job.", "employer", "Acme", 0.3),
        # Far by meaning and no topic word: a name now said is no new city.
        ("I'm reading Dune now.", "home_city", "Lyon", 0.12),
    ],
)
def test_now_and_new_alone_end_nothing(turn, predicate, old, sim):
    assert plan(turn, [held(predicate, old, sim)]) == (None, None)


def test_new_state_is_no_correction_cue_and_never_doubts():
    assert new_state("We're in Bordeaux now.") and not correction_cue("We're in Bordeaux now.")
    assert not new_state("I'm busy right now.") and not new_state("That's all for now.")
    # Nothing of the held fact's shape: no target, so no doubt either.
    assert restated(["I'm a nurse now."], [held("home_city", "Lyon", 0.5)]) is None


@pytest.mark.parametrize(
    ("turn", "predicate", "value", "sim"),
    [
        ("I retired last year.", "occupation", "accountant", 0.2),
        ("J'ai pris ma retraite en janvier.", "occupation", "infirmière", 0.21),
        ("Mon mari et moi avons divorcé l'an dernier.", "relationship_status", "married", 0.39),
        ("Turns out I'm not allergic to peanuts after all.", "allergy", "peanuts", 0.3),
        ("Plus maintenant, je remange de la viande.", "diet", "vegetarian", 0.21),
    ],
)
def test_a_status_that_ends_reaches_the_fact_it_held(turn, predicate, value, sim):
    fact = held(predicate, value, sim)
    assert correction_cue(turn)
    assert closest(turn, [(fact.id, fact.predicate, fact.value, fact.similarity)]) == fact.id


def test_a_status_ended_for_someone_else_reaches_nothing():
    turn = "My best friend just broke up with her boyfriend."
    fact = held("relationship_status", "married", 0.09)
    assert closest(turn, [(fact.id, fact.predicate, fact.value, fact.similarity)]) is None
    assert ends_status(
        turn, "relationship_status"
    )  # the words say it; the person is not the subject


def test_a_trip_is_temporary():
    assert temporary("We're in Rome for the weekend.")
    assert temporary("Je suis en vacances à Biarritz cette semaine.")
    assert not temporary("We're in Bordeaux now.")


def test_a_time_of_day_replaces_a_time_of_day():
    assert shape("9:30") == shape("10am") == shape("18h30") == "time"
    assert replacement("Standup moved to 10:15 starting this week.", "9:30") == "10:15"
    assert replacement("Pas de réunion avant 10h, pas 9h.", "9h") == "10h"
    # Two new times, and nothing says which replaces.
    assert replacement("It's at 10:15 or 10:30, not sure.", "9:30") is None


def test_from_a_moment_on_is_not_a_moment():
    assert not temporary("Standup moved to 10:15 starting this week.")
    assert not temporary("À partir de cette semaine, le point est à 10h.")
    assert temporary("I'm in Lyon this week.")
