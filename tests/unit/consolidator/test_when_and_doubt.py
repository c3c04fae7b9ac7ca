"""Time as said (``providers.extraction.when``) and what a correcting turn is about
(``consolidator.doubt_plan.closest``), without a database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from haki.consolidator.doubt_plan import closest
from haki.providers.extraction.corrections import correction_cue, cued_sentences
from haki.providers.extraction.rules import dated, extract_payload
from haki.providers.extraction.when import past_span, resolve

AT = datetime(2026, 5, 10, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "span", "day"),
    [
        ("I moved to Lyon last month.", "last month", "2026-04-10"),
        ("Two weeks ago I adopted a cat named Miso.", "Two weeks ago", "2026-04-26"),
        ("Yesterday, I adopted a dog named Rex.", "Yesterday", "2026-05-09"),
        ("J'ai déménagé à Lyon il y a deux semaines.", "il y a deux semaines", "2026-04-26"),
        ("Je travaille chez Ubisoft depuis l'an dernier.", "l'an dernier", "2025-05-10"),
        ("I moved to Denver in March.", "in March", "2026-03-01"),
        ("I've been living in Oslo since 2019.", "since 2019", "2019-01-01"),
    ],
)
def test_a_past_expression_is_read_against_the_event_time(sentence, span, day):
    assert past_span(sentence) == span
    moment = resolve(span, AT)
    assert moment is not None and moment.date().isoformat() == day


def test_only_the_clause_of_the_statement_dates_it():
    [home] = dated(extract_payload({"text": "I live in Lyon and I saw a movie yesterday."}), AT)
    assert home.valid_from is None
    [plan] = dated(extract_payload({"text": "I'm going to visit Rome next week."}), AT)
    assert plan.valid_from is None  # a plan's time is when it happens, its ``when``


def test_a_moment_after_the_event_is_not_when_a_fact_began():
    assert resolve("in December", datetime(2026, 1, 5, tzinfo=UTC)) is not None
    assert resolve("tomorrow", AT) is None


def test_correction_cues_in_both_languages():
    said = [
        "Sorry, the email I gave you is wrong.",
        "We changed our indentation rules.",
        "Tom and I broke up.",
        "En fait je ne bois plus de thé.",
        "Je me suis trompée de numéro.",
    ]
    assert all(correction_cue(t) for t in said)
    assert not any(
        correction_cue(t) for t in ["I love hiking.", "Actually I went hiking, it was great."]
    )


def test_a_correcting_turn_is_about_the_fact_on_its_topic_and_close_by():
    email, age, tea = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    rows = [
        (email, "email", "ana@old.example", 0.46),
        (age, "age", 34, 0.33),
        (tea, "prefers", "thé", 0.1),
    ]
    assert closest("Sorry, the email I gave you is wrong.", rows) == email
    assert closest("En fait je ne bois plus de thé.", rows) == tea  # its value named
    # No shared word and not close enough by meaning: nothing is doubted.
    assert closest("Oops, wrong number, ignore that.", [(age, "age", 34, 0.48)]) is None
    # Very close by meaning alone is enough.
    assert closest("Forget what I said about that.", [(age, "age", 34, 0.6)]) == age


@pytest.mark.parametrize(
    "turn",
    [
        # LoCoMo chat: cues that correct nothing.
        "I'll never forget the day my youngest took her first steps.",
        "Don't ever forget that you have people cheering you on.",
        "Our group is made of all kinds of people investing in positive changes.",
        "What's wrong with Tom today?",
    ],
)
def test_chat_that_only_sounds_like_a_correction_has_no_cue(turn):
    assert cued_sentences(turn) == []


def test_a_cue_reaches_only_a_fact_named_in_its_own_sentence():
    partner, age = uuid.uuid4(), uuid.uuid4()
    # The value is named, but in another sentence than the cue.
    turn = "The training changed my view on helping others. Tom came along too."
    assert closest(turn, [(partner, "partner", "Tom", 0.45)]) is None
    assert closest("Tom and I broke up.", [(partner, "partner", "Tom", 0.45)]) == partner
    # A change cue alone, however close by meaning, is no correction: it
    # needs the thing it changed named.
    assert closest("A lot has changed since last time.", [(age, "age", 34, 0.7)]) is None
    assert closest("Sorry, that was wrong.", [(age, "age", 34, 0.7)]) == age
    # A long value is named by most of its words, not by one of them.
    group = uuid.uuid4()
    rows = [(group, "member_of", "mentorship program for LGBTQ youth", 0.3)]
    assert closest("I'm no longer with the LGBTQ activists group.", rows) is None
    assert closest("I'm no longer in the mentorship program for youth.", rows) == group
