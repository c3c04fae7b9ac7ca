"""A change said of one held fact in words no narrower reading takes, and respelled names (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held, Replacement
from haki.consolidator.doubt_plan import read_respelling, read_turn
from haki.consolidator.said_change import (
    CHANGE_SIMILARITY,
    changed,
    may_respell,
    respelled,
    respelled_fact,
    says_change,
)
from haki.consolidator.takeback import status_ended, unnamed_sibling
from haki.consolidator.value_shapes import replacement


def held(predicate: str, value: object, similarity: float = 0.35, **qualifiers: object) -> Held:
    return Held(uuid.uuid4(), predicate, value, dict(qualifiers), similarity)


# --- respelled names -------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "value", "new"),
    [
        ("not jake, jack. long day sorry", "Jake", "Jack"),
        ("mathis* pas mathieu, je dors debout", "Mathieu", "Mathis"),
        ("oh and it's Pickle, no s. my partner keeps correcting me on that", "Pickles", "Pickle"),
        ("c'est Léna en fait", "Lena", "Léna"),
    ],
)
def test_a_held_name_respelt_in_a_frame_is_its_new_spelling(sentence, value, new):
    assert respelled(sentence, value) == new


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        # A near word with no frame setting it in the name's place.
        ("Mike said we should make pasta tonight", "Mike"),
        # The name itself, or a word far from it.
        ("it's Jake, he's great", "Jake"),
        ("it's Bruno, not Max", "Jake"),
        # A value that is no name.
        ("it's vegetarian now", "vegan"),
        # Another first letter.
        ("it's Cake time", "Jake"),
    ],
)
def test_nothing_respells_without_a_frame_and_a_near_spelling(sentence, value):
    assert respelled(sentence, value) is None


def test_a_respelling_replaces_the_one_held_name_it_is_near():
    jake, rex = held("brother", "Jake"), held("pet", "Rex", kind="dog")
    reading = read_respelling("not jake, jack. long day sorry", [rex, jake])
    assert reading.found == Replacement(jake, "Jack", "not jake, jack.")


def test_the_respelling_gate_is_a_frame_not_any_turn():
    assert may_respell("oh and it's Pickle, no s.")
    assert may_respell("mathis* pas mathieu")
    assert not may_respell("we went to the beach with the kids")


# --- a change said of one fact ----------------------------------------------


@pytest.mark.parametrize(
    ("turn", "fact"),
    [
        # A word of the value, a change word, close enough.
        ("switched it up. mornings are dead to me", held("prefers", "morning workouts")),
        (
            "let my membership lapse. not rowing anymore",
            held("member_of", "Riverside Rowing Club", similarity=0.31),
        ),
        # A topic word beside a change word.
        ("fyi I'm back to vegetarian now, eggs are fine again", held("diet", "vegan")),
        ("quick update, we moved back home to cleveland last month", held("home_city", "Austin")),
        (
            "ok small update i'm seeing someone now, early days but we're officially dating",
            held("relationship_status", "single", similarity=0.31),
        ),
    ],
)
def test_a_change_said_of_one_fact_without_a_value_doubts_it(turn, fact):
    other = held("likes", "short answers", similarity=0.1)
    assert changed(turn.split(". "), [other, fact]) == fact


def test_an_address_of_the_held_shape_replaces_it():
    mail = held("email", "thomas.duval@orange.example", similarity=0.27)
    turn = "en vrai utilise plutôt t.duval@proton.example, j'ouvre plus jamais l'autre"
    found = changed([turn], [mail])
    assert isinstance(found, Replacement)
    assert (found.target, found.value) == (mail, "t.duval@proton.example")


@pytest.mark.parametrize(
    "turn",
    [
        # Someone else's life, by a pronoun or a possessive.
        "She had a tough time, going through a divorce, and ending up homeless.",
        "My sister is back to vegetarian now.",
        # No change said; a word of rank beside a held value may choose it.
        "I love my morning workouts.",
        "Je préfère plutôt le jazz manouche.",
        # Weak words of change beside a word of the value (LoCoMo chat).
        "I feel like I just can't stop reading right now!",
        "I'm more into reading and fantasy novels.",
        "It was like nature was telling me to stop and admire its beauty.",
        "Anyone else would quit and you're not going to stop there.",
        # Bound to a moment.
        "Not rowing anymore this week, my shoulder hurts.",
    ],
)
def test_no_change_is_read_in_other_peoples_news_or_plain_statements(turn):
    facts = [
        held("volunteers_at", "homeless shelter"),
        held("diet", "vegan"),
        held("prefers", "morning workouts"),
        held("member_of", "Riverside Rowing Club"),
        held("likes", "jazz"),
        held("likes", "reading"),
        held("member_of", "fantasy literature forum"),
        held("likes", "connection to nature"),
        held("plan", "working with fashion bloggers"),
    ]
    assert changed([turn], facts) is None


def test_meaning_must_be_close_enough():
    far = held("prefers", "morning workouts", similarity=CHANGE_SIMILARITY - 0.05)
    assert changed(["mornings are dead to me"], [far]) is None


def test_two_facts_of_one_slot_say_not_which_one_changed():
    a, b = held("likes", "jazz music"), held("likes", "jazz dance")
    assert changed(["not into jazz anymore"], [a, b]) is None
    # A topic alone with two of one slot says nothing; a value named does.
    # (Max is too far to be pointed at: only the sibling check keeps Rex.)
    rex, max_ = held("pet", "Rex", kind="dog"), held("pet", "Max", similarity=0.1, kind="dog")
    assert changed(["switched it up, no more dog walks"], [rex, max_]) is None
    jazz, techno = held("likes", "jazz"), held("likes", "techno")
    assert changed(["not into jazz anymore"], [jazz, techno]) == jazz


def test_the_stage_reads_a_change_as_a_doubt_when_no_value_is_given():
    fact = held("prefers", "morning workouts")
    reading = read_turn(
        "switched it up, evenings work way better for me now. mornings are dead to me", [fact]
    )
    assert reading.changed == fact and reading.found is None


@pytest.mark.parametrize(
    ("sentence", "change"),
    [
        ("mornings are dead to me", True),
        ("en vrai j'ouvre plus jamais l'autre adresse", True),
        ("let my gym membership lapse", True),
        ("we had a lovely dinner", False),
        ("I'm back home after a long day", False),
    ],
)
def test_change_words(sentence, change):
    assert says_change(sentence) is change


# --- life events the speaker lives ------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("we had to rehome the mutt, landlord found out", held("pet", "Bruno", kind="greyhound")),
        (
            "so june isn't happening. jordan and i called it off",
            held("relationship_status", "engaged", similarity=-0.04),
        ),
        ("trip's cancelled btw, priya and i went our separate ways", held("partner", "Priya")),
        ("heads up i quit the firm last friday", held("employer", "Deloitte", similarity=0.2)),
        ("j'ai lâché mon boulot chez decathlon le mois dernier", held("employer", "Decathlon")),
    ],
)
def test_life_events_said_in_everyday_words_end_their_fact(sentence, fact):
    sentences = sentence.split(". ")
    assert [f for f, _ in status_ended(sentences, [fact])] == [fact]


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        # A dropped subject far by meaning still needs closeness.
        ("Got laid off from Deloitte yesterday.", held("employer", "Deloitte", similarity=0.05)),
        # Putting a phone down is no pet's end.
        ("I put my phone down and slept", held("pet", "Rex", kind="dog")),
        ("my parents called it off after 30 years", held("relationship_status", "married")),
    ],
)
def test_no_end_without_the_speaker_or_closeness(sentence, fact):
    assert status_ended([sentence], [fact]) == []


def test_a_number_before_a_comma_is_a_value_but_not_a_thousands_separator():
    assert replacement("ah non pardon j'en ai 30, c'était mon anniv samedi", 29, [29]) == 30
    assert replacement("we need 1,000 chairs", 29, [29]) is None


def test_a_word_of_rank_points_only_by_the_new_values_shape():
    mail, jazz = held("email", "ana@old.example"), held("likes", "jazz")
    found = changed(["use ana@new.example instead please"], [mail, jazz])
    assert isinstance(found, Replacement) and found.value == "ana@new.example"
    assert changed(["jazz instead tonight, it's my favourite"], [mail, jazz]) is None


def test_respelled_fact_is_the_one_held_name_respelt_never_the_speakers_own():
    jake, rex = held("brother", "Jake"), held("pet", "Rex", kind="dog")
    assert respelled_fact(["not jake, jack."], [rex, jake]) == Replacement(
        jake, "Jack", "not jake, jack."
    )
    # The speaker's own name is never respelt here.
    assert respelled_fact(["not jake, jack."], [held("name", "Jake")]) is None
    # Two held names respelt at once: which one is not said.
    jacques = held("friend", "Jaques")
    assert respelled_fact(["not jake, jack.", "c'est Jacques en fait"], [jake, jacques]) is None


def test_an_unnamed_fact_with_a_sibling_of_its_slot_is_not_the_one_that_ended():
    rex, fido = held("pet", "Rex", kind="dog"), held("pet", "Fido", kind="dog")
    tom = held("pet", "Tom", kind="cat")
    assert unnamed_sibling(rex, False, [rex, fido])
    assert not unnamed_sibling(rex, True, [rex, fido])
    assert not unnamed_sibling(rex, False, [rex, tom])
    assert not unnamed_sibling(rex, False, [rex])


@pytest.mark.parametrize(
    "turn",
    [
        "Actually I don't live in Lyon any more.",
        "je n'habite plus à Lyon, c'est fini",
    ],
)
def test_a_change_that_ends_another_value_leaves_the_held_one(turn):
    # Paris is held; the turn ends Lyon, which nobody held: Paris stays current.
    city = held("home_city", "Paris", 0.5)
    assert changed([turn], [city]) is None


def test_a_change_that_ends_the_held_value_still_doubts_it():
    city = held("home_city", "Paris", 0.5)
    assert changed(["Actually I don't live in Paris any more."], [city]) == city
