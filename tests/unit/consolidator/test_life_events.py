"""Life events that end a held fact, and the speaker's routines read by their time (pure)."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import may_take_back, read_lived, read_turn
from haki.consolidator.life_events import ends_by_itself, tells_an_end
from haki.consolidator.takeback import status_ended
from haki.providers.extraction.rules import extract_payload


def held(predicate: str, value: object, similarity: float = 0.4, **qualifiers: object) -> Held:
    return Held(uuid.uuid4(), predicate, value, dict(qualifiers), similarity)


@pytest.mark.parametrize(
    ("sentence", "predicate", "value"),
    [
        ("Got laid off from Deloitte yesterday.", "employer", "Deloitte"),
        ("Left Spotify in June, I'm freelancing now.", "employer", "Spotify"),
        ("J'ai quitté Renault le mois dernier.", "employer", "Renault"),
        ("Raj and I separated in the spring.", "spouse", "Raj"),
        ("Avec Inès c'est fini, on s'est séparés.", "partner", "Inès"),
        ("Bubbles passed away last night, I'm gutted.", "pet", "Bubbles"),
        ("I started eating fish again.", "diet", "vegan"),
        ("Je remange de la viande depuis cet été.", "diet", "végétarien"),
        ("We split up last month.", "relationship_status", "engaged"),
    ],
)
def test_a_life_event_ends_the_fact_it_is_about(sentence, predicate, value):
    fact = held(predicate, value)
    other = held("home_city", "Lyon", similarity=0.05)
    assert status_ended([sentence], [other, fact]) == [(fact, sentence)]
    assert read_turn(sentence, [other, fact]).lived == ((fact, sentence),)
    assert may_take_back(sentence)


def test_a_breakup_ends_the_partner_and_the_status_together():
    sentence = "The wedding's off, Chris and I called it quits."
    partner, status = held("partner", "Chris"), held("relationship_status", "engaged")
    ended = {f.id for f, _ in status_ended([sentence], [partner, status])}
    assert ended == {partner.id, status.id}


@pytest.mark.parametrize(
    ("sentence", "facts"),
    [
        # Someone else lives it, or it is not an event of that predicate.
        ("My parents split up last year.", [held("relationship_status", "married")]),
        ("My neighbour's dog died.", [held("pet", "Rex", kind="dog")]),
        ("I nearly died laughing at that movie.", [held("pet", "Rex", kind="dog")]),
        # "Left" and "quit" end only the value they name.
        ("I left my keys at the office.", [held("employer", "Acme")]),
        ("I quit sugar for a month.", [held("employer", "Acme")]),
        # A trip is no move; a value still held is not ended.
        ("I left Paris for the weekend.", [held("home_city", "Paris")]),
        ("I still work at Deloitte even after the layoffs.", [held("employer", "Deloitte")]),
        # Two pets and none named: which one died is not said.
        (
            "The dog died last week.",
            [held("pet", "Rex", kind="dog"), held("pet", "Max", kind="dog")],
        ),
        # Too far by meaning from the fact.
        ("Got laid off from Deloitte yesterday.", [held("employer", "Deloitte", similarity=0.05)]),
    ],
)
def test_no_fact_ends_without_an_event_the_speaker_lives(sentence, facts):
    assert status_ended([sentence], facts) == []


def test_the_named_pet_is_the_one_that_ended():
    rex, miso = held("pet", "Rex", kind="dog"), held("pet", "Miso", kind="cat")
    assert status_ended(["The dog died last week."], [rex, miso]) == [
        (rex, "The dog died last week.")
    ]


def test_a_turn_the_rules_corrected_is_read_for_its_events_only():
    julien = held("partner", "Julien")
    turn = "Julien et moi on s'est quittés, je suis célibataire."
    assert read_lived(turn, [julien]).lived == ((julien, turn),)
    assert read_lived("Je suis célibataire.", [julien]).lived == ()


def test_the_table_is_read_as_a_topic_beside_a_cue():
    assert ends_by_itself("oops, I got laid off last week", "employer")
    assert not ends_by_itself("oops, I got laid off last week", "pet")
    assert tells_an_end("Bubbles passed away")
    assert not tells_an_end("Bubbles ate his dinner")


def schedules(text: str) -> set[tuple[str, str]]:
    return {
        (c.value, c.qualifiers.get("context", ""))
        for c in extract_payload({"text": text})
        if c.predicate == "schedule"
    }


@pytest.mark.parametrize(
    ("text", "value", "context"),
    [
        ("I have piano lessons on Wednesday evenings.", "Wednesday evenings", "piano lessons"),
        ("I do yoga every Tuesday morning.", "Tuesday morning", "yoga"),
        ("I pick up the kids at 4:30 every day.", "4:30", "the kids"),
        ("J'ai piscine le lundi.", "lundi", "piscine"),
        ("Je vais au marché le samedi matin.", "samedi matin", "marché"),
    ],
)
def test_a_routine_is_a_schedule_of_its_time(text, value, context):
    assert (value, context) in schedules(text)


@pytest.mark.parametrize(
    "text",
    [
        "I have a dentist appointment on Monday.",
        "I had yoga every Tuesday when I lived in Leeds?",
        "My sister does yoga every Tuesday morning.",
    ],
)
def test_a_plan_or_someone_else_s_routine_is_no_schedule_of_the_speaker(text):
    assert schedules(text) == set()


@pytest.mark.parametrize(
    ("turn", "old", "context", "new"),
    [
        ("yoga moved to Thursday mornings btw", "Tuesday morning", "yoga", "Thursday mornings"),
        (
            "My piano lessons are on Friday evenings now.",
            "Wednesday evenings",
            "piano lessons",
            "Friday evenings",
        ),
        (
            "La piscine c'est le dimanche maintenant, plus le samedi.",
            "samedi",
            "la piscine",
            "dimanche",
        ),
    ],
)
def test_a_routine_named_with_a_new_day_replaces_its_schedule(turn, old, context, new):
    schedule = held("schedule", old, 0.3, context=context)
    hobby = held("hobby", "yoga", 0.3)
    reading = read_turn(turn, [schedule, hobby])
    assert reading.target == schedule
    assert reading.found is not None and reading.found.value == new


@pytest.mark.parametrize(
    "turn",
    [
        "This Monday I'm skipping the gym, I'm sick.",
        "I'm skipping the gym on Monday, I'm sick.",
        "My sister goes to the gym on Fridays now.",
        "The gym is closed on Sundays now.",
    ],
)
def test_an_occasion_or_someone_else_s_day_replaces_no_schedule(turn):
    # Below ``SHAPE_SIMILARITY``: only the activity named can pick the fact.
    schedule = held("schedule", "Mondays", 0.25, context="the gym")
    reading = read_turn(turn, [schedule])
    assert reading.found is None


def facts(text: str) -> set[tuple[str, object]]:
    return {(c.predicate, c.value) for c in extract_payload({"text": text})}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # A change of code style is the style from now on.
        (
            "Scratch that, the team switched to camelCase for functions.",
            ("code_convention", "camelCase for functions"),
        ),
        ("We bumped the max line length to 100.", ("code_convention", "max line length to 100")),
        (
            "Finalement on passe aux guillemets doubles en Python.",
            ("code_convention", "guillemets doubles en Python"),
        ),
        (
            "Heads up, we reformatted everything to 4 spaces, no more tabs.",
            ("code_convention", "4 spaces"),
        ),
        # A new employer said beside words of work.
        ("My new job at Netflix starts Monday.", ("employer", "Netflix")),
        ("I switched jobs, I'm at Netflix now.", ("employer", "Netflix")),
        ("J'ai démissionné de chez Orange, je suis chez Free depuis lundi.", ("employer", "Free")),
        ("Please answer me in Spanish.", ("language", "Spanish")),
        ("J'écoute surtout du rap.", ("likes", "rap")),
    ],
)
def test_the_statements_people_later_correct_are_read(text, fact):
    assert fact in facts(text)


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("We moved to Berlin last year.", "code_convention"),
        ("I switched to decaf.", "code_convention"),
        ("We raised the prices.", "code_convention"),
        ("I'm at Starbucks now.", "employer"),
        ("Je suis chez Paul depuis hier.", "employer"),
        ("J'écoute du rap ce soir.", "likes"),
    ],
)
def test_a_change_of_something_else_is_no_style_or_employer(text, predicate):
    assert predicate not in {p for p, _ in facts(text)}
