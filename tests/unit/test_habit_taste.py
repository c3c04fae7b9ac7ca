"""A sentence the wish reader places among habits is kept as a taste only when it is one
(``habits.not_a_taste``, ``meaning.candidate``): its whole text becomes a ``prefers`` value."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from meaning_helpers import AxisSpace, axis_reader, event

from haki.providers.extraction import meaning
from haki.providers.extraction.by_meaning import RulesExtractor
from haki.providers.extraction.habits import not_a_taste
from haki.providers.extraction.meaning import CLASSES, Unread, WishReader, candidate


@pytest.mark.parametrize(
    "said",
    [
        # A life event, a story: a moment of its own or a past tense.
        "I became a dad last month",
        "We adopted a puppy in March",
        "I finally finished my thesis",
        "nous avons déménagé à Nantes",
        # Who the speaker is, not what they like.
        "i'm a software dev at a startup",
        "I am an accountant in a small firm",
        "je suis une infirmière à Lyon",
        # A wish of the moment, a hedge, a remark on a thing of no one's.
        "I'd love to check them out",
        "Maybe I'll start writing a screenplay",
        "I'll let you know if I need anything else",
        "If I need anything, I'll be sure to reach out",
        "I've been feeling kinda low on confidence lately",
        # Someone else's trait.
        "She's full of energy",
        "You're really passionate about gaming",
        "Exploring different lands in fantasy stories is always fun",
    ],
)
def test_a_story_an_identity_or_a_remark_is_no_taste(said: str) -> None:
    assert not_a_taste(said)
    assert candidate(Unread(said, "user"), "habit") is None


@pytest.mark.parametrize(
    ("said", "predicate"),
    [
        ("I prefer dark roast coffee", "prefers"),
        ("I take my tea without milk", "prefers"),
        ("i usualy go running in the mornings", "prefers"),
        ("I'm a morning person", "prefers"),
        ("I'm a big fan of slow jazz", "prefers"),
        ("I feed my cat twice a day", "prefers"),
        ("J'adore le vélo", "prefers"),
        ("J'ai toujours aimé le café noir", "prefers"),
        ("Oat milk in everything for me", "prefers"),
        ("No meetings before 10am, please", "prefers"),
        ("Our team standup is at 9:30 on weekdays", "schedule"),
    ],
)
def test_a_taste_or_habit_is_still_read(said: str, predicate: str) -> None:
    assert not not_a_taste(said)
    found = candidate(Unread(said, "user"), "habit")
    assert found is not None and (found.predicate, found.value) == (predicate, said)


def test_the_extractor_keeps_the_taste_and_drops_the_life_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(meaning, "shipped", lambda: axis_reader(WishReader))
    space = AxisSpace(
        CLASSES,
        {"I became a dad last month": "habit", "Oat milk in everything for me": "habit"},
    )
    at = datetime(2026, 3, 1, tzinfo=UTC)
    found = asyncio.run(
        RulesExtractor(space).extract(
            [event("I became a dad last month", at), event("Oat milk in everything for me", at)]
        )
    )
    assert [(c.predicate, c.value) for c in found[0] if c.fact_kind == "preference"] == []
    assert [(c.predicate, c.value) for c in found[1]] == [
        ("prefers", "Oat milk in everything for me")
    ]
