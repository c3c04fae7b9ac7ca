"""What a correcting turn replaces, and with what (``consolidator.corrections``,
``consolidator.doubt_plan.plan``), without a database."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held, about_someone_else, named_after_negation
from haki.consolidator.doubt_plan import plan
from haki.consolidator.restate import RESTATE_SLOT_SIMILARITY, restated_slot
from haki.consolidator.value_shapes import replacement, shape


def held(predicate, value, similarity=0.2, **qualifiers):
    return Held(uuid.uuid4(), predicate, value, qualifiers, similarity)


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("ana@old-mail.example", "email"),
        ("06 12 34 56 78", "phone"),
        ("555-201-3344", "phone"),
        (34, "number"),
        ("34", "number"),
        ("Rex", "name"),
        ("Leroy Merlin", "name"),
        ("vegetarian", None),
        ("tabs, not spaces", None),
        (True, None),
    ],
)
def test_shape_is_read_from_the_value_alone(value, kind):
    assert shape(value) == kind


@pytest.mark.parametrize(
    ("sentence", "value", "named"),
    [
        ("oops I meant Miso, not Mochi lol", "Mochi", True),
        ("Non, c'est Max, pas Rex.", "Rex", True),
        ("not 34, 43 — typo", 34, True),
        ("I'd rather have Lyon instead of Paris.", "Paris", True),
        # The value spoken of, not taken back.
        ("The broken vase was not Rex's fault.", "Rex", False),
        ("Ce n'est pas la faute de Filou.", "Filou", False),
        ("Rex is not well today.", "Rex", False),
        ("not 340 of them", 34, False),
        ("My dog isn't Rex, he's Max.", "Rex", True),
        # Bound to a moment, or a place the speaker is not at: nothing taken back.
        ("Not 34 yet, I'll be 34 in May.", 34, False),
        ("I'm not in Lyon this week, I'm visiting Paris.", "Lyon", False),
        ("I'm not at Acme today.", "Acme", False),
    ],
)
def test_a_value_is_taken_back_only_right_after_a_negation(sentence, value, named):
    assert named_after_negation(sentence, value) is named


@pytest.mark.parametrize(
    ("sentence", "old", "new"),
    [
        ("oops I meant Miso, not Mochi lol", "Mochi", "Miso"),
        ("Sorry, got my age wrong: 42.", 41, 42),
        ("Pardon, 31 ans, pas 29.", "29", "31"),
        (
            "I got that wrong, it's samkim@newpost.example",
            "sam.k@oldbox.example",
            "samkim@newpost.example",
        ),
        ("Pardon, mauvais numéro : c'est le 06 55 66 77 88.", "06 11 22 33 44", "06 55 66 77 88"),
        ("update: I'm at EY now, not Deloitte.", "Deloitte", "EY"),
        (
            "Je ne bosse plus chez Decathlon, je suis chez Leroy Merlin.",
            "Decathlon",
            "Leroy Merlin",
        ),
        # An adverb opening the sentence is capitalised by position only.
        ("Honestly my favourite band is Arctic Monkeys now.", "Radiohead", "Arctic Monkeys"),
        ("Franchement, c'est Noisette.", "Praline", "Noisette"),
        ("Emily, not Emma, sorry.", "Emma", "Emily"),
        # Two names besides the old one: nothing says which replaces it.
        ("Sorry, it's Max or Buddy, not Rex.", "Rex", None),
        # A time is no age.
        ("Sorry, I was wrong, it closes at 9.", 34, None),
        ("Sorry, it closes at 9pm.", 34, None),
        # A held value is no replacement.
        ("Actually it's Salt and Pickle, not Pepper.", "Pepper", "Pickle"),
        # No shape, no replacement: the fact can only be put in doubt.
        ("Sorry, I'm a paramedic now, not a nurse.", "nurse", None),
    ],
)
def test_the_replacement_has_the_old_values_shape(sentence, old, new):
    assert replacement(sentence, old, held=["Salt"]) == new


def test_a_sentence_about_someone_else_keeps_the_speakers_facts():
    assert about_someone_else("Mon frère a 38 ans, pas 40 comme on croit.", "age", {})
    assert about_someone_else("My neighbour's dog is Max, not Rex.", "pet", {"kind": "dog"})
    # The target's own topic or kind is no one else.
    assert not about_someone_else("Sorry, my sister is Hanna, not Anna.", "sister", {})
    assert not about_someone_else(
        "Pardon, mon chien s'appelle Max, pas Rex.", "pet", {"kind": "chien"}
    )
    assert not about_someone_else("Not 34, 43.", "age", {})


def test_plan_replaces_the_fact_the_old_value_names():
    rex, age = held("pet", "Rex", kind="dog"), held("age", 34)
    target, found = plan("Sorry, I misspoke earlier, it's Max, not Rex.", [age, rex])
    assert target == rex and found is not None and found.value == "Max"
    target, found = plan("not 34, 43 — typo", [age, rex])
    assert target == age and found is not None and found.value == 43


def test_the_new_value_may_stand_in_the_sentence_before():
    rex = held("pet", "Rex", kind="dog")
    target, found = plan("It's Max. Not Rex.", [rex])
    assert target == rex and found is not None and found.value == "Max"


def test_plan_finds_the_target_by_topic_and_the_value_by_shape():
    dog, city = held("pet", "Biscuit", 0.48, kind="dog"), held("home_city", "Leeds", 0.3)
    target, found = plan("Oops, wrong name for the dog: he's Buddy.", [city, dog])
    assert target == dog and found is not None and found.value == "Buddy"


def test_plan_by_meaning_needs_the_similarity_threshold():
    employer = held("employer", "Google", 0.35)
    _, found = plan("My mistake, it's Microsoft.", [employer])
    assert found is not None and found.value == "Microsoft"
    assert plan("My mistake, it's Microsoft.", [held("employer", "Google", 0.18)]) == (None, None)


def test_plan_without_a_new_value_only_doubts():
    email = held("email", "paul@vieux.example", 0.41)
    target, found = plan("Oups, je me suis trompé d'adresse mail.", [email])
    assert target == email and found is None


@pytest.mark.parametrize(
    "turn",
    [
        "The broken vase was not Rex's fault, it was the cat.",
        "My neighbour's dog is called Max.",
        "Wait, which city do I live in again? Not Rex, right?",
        "Sorry, I was wrong about the restaurant, it closes at 9.",
        "Oups, je me suis trompée de bus ce matin.",
        "Mon frère a 38 ans, pas 40 comme on croit.",
        "We also got a puppy, his name is Pickle.",
    ],
)
def test_turns_that_correct_nothing_replace_nothing(turn):
    facts = [
        held("pet", "Rex", 0.2, kind="dog"),
        held("age", 40, 0.15),
        held("home_city", "Lyon", 0.2),
    ]
    _, found = plan(turn, facts)
    assert found is None


def test_a_from_now_on_sentence_points_at_the_closest_held_fact_without_a_value():
    coffee = held("prefers", "coffee", similarity=0.48)
    far = held("home_city", "Lyon", similarity=0.1)
    assert restated_slot(["These days I'd rather have tea than coffee."], [coffee, far]) == coffee
    spaces = held("code_convention", "4 spaces", similarity=0.5)
    assert restated_slot(["Team decided on 2 spaces for indentation now."], [spaces]) == spaces


@pytest.mark.parametrize(
    ("sentence", "value", "similarity"),
    [
        # No "from now on": a plain statement changes nothing here.
        ("I'd rather have tea than coffee.", "coffee", 0.6),
        # Said of someone else, of a moment, or repeating the held value.
        ("My husband prefers coffee these days.", "tea", 0.6),
        ("I'm drinking tea right now.", "coffee", 0.6),
        ("I'm in Rome now for the weekend.", "Lyon", 0.6),
        ("I still love coffee these days.", "coffee", 0.6),
        # Too far from the held fact by meaning.
        ("These days I mostly read novels.", "coffee", RESTATE_SLOT_SIMILARITY - 0.01),
    ],
)
def test_a_from_now_on_sentence_leaves_other_facts_alone(sentence, value, similarity):
    predicate = "home_city" if value == "Lyon" else "prefers"
    assert restated_slot([sentence], [held(predicate, value, similarity=similarity)]) is None


def test_a_sentence_saying_it_was_wrong_reaches_a_fact_less_close_by_meaning():
    cat = held("pet", "Biscuit", similarity=0.26, kind="cat")
    target, found = plan(
        "Oh wait, I got that wrong yesterday, she's actually called Pumpkin.", [cat]
    )
    assert target == cat and found is not None and found.value == "Pumpkin"
    # A change cue alone at that closeness does not.
    assert plan("We changed things, it's Pumpkin now.", [cat]) == (None, None)


@pytest.mark.parametrize(
    ("sentence", "old", "new"),
    [
        # A day or a month is no name: the employer is the one name left.
        ("My new job at Netflix starts Monday.", "Amazon", "Netflix"),
        ("Je suis chez Airbus since January.", "Renault", "Airbus"),
        # A held day is replaced by a day.
        ("Actually it's Thursdays now.", "Mondays", "Thursdays"),
    ],
)
def test_a_calendar_word_replaces_only_a_calendar_word(sentence, old, new):
    assert replacement(sentence, old) == new


@pytest.mark.parametrize(
    ("sentence", "old"),
    [
        # A date says when the old value ended, not what replaced it.
        ("I quit IBM last Friday.", "IBM"),
        ("I moved out of Leeds in March.", "Leeds"),
        # Two names: nothing says which is the new one.
        ("My new job at Netflix starts with Tom.", "Amazon"),
    ],
)
def test_no_name_is_read_from_a_date_or_beside_a_second_name(sentence, old):
    assert replacement(sentence, old) is None
