"""Changes said in chat: a statement run into a question, a many-valued fact
named beside a change, the chat asterisk before a name, a name framed with
an adverb (pure). The turns are written for these tests, not taken from a set."""

from __future__ import annotations

import uuid

import pytest

from haki.consolidator.corrections import Held
from haki.consolidator.doubt_plan import read_respelling, read_turn, statements
from haki.consolidator.said_change import may_respell
from haki.consolidator.said_close import SAID_SIMILARITY, said_close
from haki.text.asked_tail import statement_before_question


def held(
    predicate: str, value: object, said: float | None = None, similarity: float = 0.35
) -> Held:
    return Held(uuid.uuid4(), predicate, value, {}, similarity, said)


CLOSE = SAID_SIMILARITY + 0.1


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("I sold the car last week, any tips for bikes?", "I sold the car last week"),
        (
            "je suis passé chez Orange 🎉 bref, tu peux m'aider pour un mail ?",
            "je suis passé chez Orange",
        ),
        ("moved to Porto in May - anyway what's good to eat there?", "moved to Porto in May"),
        ("so vegan now i guess?", "so vegan now i guess"),
        ("c'est plutôt café maintenant je crois ?", "c'est plutôt café maintenant je crois"),
        ("I live in Lyon.", "I live in Lyon."),
        # Nothing stated: the first clause asks, an echo, a tag asking to confirm.
        ("Which city am I in now, Lyon?", None),
        ("Caramel ?", None),
        ("Not Rex, right?", None),
        ("what's my dog called, do you remember?", None),
        ("Do you know, I wonder, if Lyon is nice?", None),
    ],
)
def test_the_statement_before_the_question(sentence, stated):
    assert statement_before_question(sentence) == stated


def test_a_statement_run_into_a_question_corrects():
    fact = held("employer", "Capgemini", 0.6, 0.4)
    turn = (
        "ah et je suis plus chez Capgemini depuis lundi, je suis passé chez Sopra Steria 🎉 "
        "bref, tu peux m'aider pour un mail de départ ?"
    )
    reading = read_turn(turn, [fact])
    assert reading.found is not None and reading.found.target is fact
    assert reading.found.value == "Sopra Steria"


def test_a_question_alone_still_corrects_nothing():
    fact = held("employer", "Capgemini", 0.6, 0.4)
    assert statements("tu es sûr que je ne suis plus chez Capgemini ?") == []
    assert read_turn("tu es sûr que je ne suis plus chez Capgemini ?", [fact]) == read_turn("", [])


@pytest.mark.parametrize(
    ("turn", "fact"),
    [
        ("switched from piano to drums last month, way more fun", held("learning", "piano", CLOSE)),
        (
            "painting was more of a phase lol, these days it's all about woodworking",
            held("hobby", "painting", CLOSE),
        ),
        (
            "en fait c'était pas une allergie, juste une intolérance, tu peux retirer ça",
            held("allergy", "noix", CLOSE, 0.22),
        ),
    ],
)
def test_a_many_valued_fact_named_beside_a_change_is_reached(turn, fact):
    found = said_close(statements(turn), [fact])
    assert found is not None and found[0] is fact


@pytest.mark.parametrize(
    ("turn", "fact"),
    [
        # Named, but said to hold still, or no change said.
        ("still painting these days, it keeps me sane", held("hobby", "painting", CLOSE)),
        ("I painted all weekend, love it", held("hobby", "painting", CLOSE)),
        ("I'm mostly painting these days, it's calming", held("hobby", "painting", CLOSE)),
        ("en ce moment c'est piano tous les soirs", held("learning", "piano", CLOSE)),
        # A held hobby named beside "now" or "changed" (LoCoMo's wording).
        (
            "Seven years now, and I've finally found my real muses: painting and pottery.",
            held("hobby", "pottery", CLOSE),
        ),
        (
            "I read it a while back and it really changed my perspective on my goals!",
            held("hobby", "reading", CLOSE),
        ),
        (
            "Your support means a lot. I feel like I just can't stop writing write now!",
            held("likes", "reading", CLOSE),
        ),
        # Named and changed, but far from the fact's sentence.
        ("switched from piano to drums last month", held("learning", "piano", 0.3)),
        # A change of someone else's.
        (
            "my sister switched from piano to drums last month",
            held("learning", "piano", CLOSE),
        ),
    ],
)
def test_a_many_valued_fact_is_not_reached_without_a_change_of_the_speaker(turn, fact):
    assert said_close(statements(turn), [fact]) is None


def test_the_asterisk_before_a_name_respells_it():
    turn = "*Leon. stupid phone"
    assert may_respell(turn)
    fact = held("son", "Leo")
    reading = read_respelling(turn, [fact])
    assert reading.found is not None and reading.found.value == "Leon"
    # An asterisk before a word that is no near spelling of the name respells nothing.
    assert read_respelling("*sigh. long day", [fact]).found is None


def test_a_name_framed_with_an_adverb_replaces_the_held_one():
    fact = held("brother", "Ben", 0.38, 0.43)
    turn = "my bro's legal name is actually Benedict, we just call him Ben"
    reading = read_turn(turn, [fact])
    assert reading.found is not None and reading.found.value == "Benedict"


def test_shifts_point_at_a_schedule():
    fact = held("schedule", "10pm-6am", 0.58, 0.24)
    reading = read_turn("good news, i'm done with night shifts! back to regular 9 to 5", [fact])
    assert reading.found is not None and reading.found.value == "9am-5pm"
