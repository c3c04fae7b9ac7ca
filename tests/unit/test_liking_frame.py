"""A taste read by its frame (``providers.extraction.liking``), the markers that say a wish
lasts (``fragments.LASTING``) and French infinitive orders."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from haki.consolidator.guard import guard
from haki.consolidator.types import Sourced
from haki.providers.extraction.liking import liking
from haki.providers.extraction.rules import extract_payload
from haki.providers.extraction.types import EventRow, Utterance
from haki.providers.extraction.wishes import directive

T = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
USER = Utterance("user", None, "")


def _kept(text: str) -> list[tuple[str, str, str]]:
    """(kind, predicate, value) of what the guard accepts from one trusted user turn (rules only)."""
    event = EventRow(uuid.uuid4(), "o", "p", "user", "s", "k", T, {"text": text}, "trusted", None)
    out = guard([Sourced(c, event) for c in extract_payload({"text": text})])
    return [
        (s.candidate.fact_kind, s.candidate.predicate, str(s.candidate.value)) for s in out.accepted
    ]


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I prefer getting the bad news first", "prefers", "getting the bad news first"),
        ("I'd rather read than watch videos", "prefers", "read rather than watch videos"),
        ("love spicy food, the hotter the better", "likes", "spicy food"),
        ("hate mornings", "dislikes", "mornings"),
        ("perso j'aime pas trop les réunions le matin", "dislikes", "les réunions le matin"),
        ("j'ai besoin de pauses toutes les heures", "prefers", "pauses toutes les heures"),
        (
            "honestly i like it when explanations come with a small example",
            "likes",
            "when explanations come with a small example",
        ),
        (
            "i like my answers with headings and bullet points and not too long",
            "likes",
            "my answers with headings and bullet points",
        ),
        ("j'aime quand les réponses sont courtes", "likes", "quand les réponses sont courtes"),
    ],
)
def test_a_taste_is_read_by_its_frame(text, predicate, value):
    found = liking(text, USER)
    assert [(c.fact_kind, c.predicate, c.value) for c in found] == [
        ("preference", predicate, value)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "love you!",
        "love that",
        "I love it",
        "j'adore ça",
        "I like you",
        "I need a coffee",  # the moment's need, not a taste
        "I need to go",
        "I used to love skiing",
        "enjoy your weekend",  # a wish for the other, no subject of the speaker
        "I love my kids",  # a person's own, liked without how
        "do you like jazz?",
        "if I liked jazz I'd say so",
        "J'aimerais recevoir les rapports en espagnol",  # a wish, read by the language rules
        # What the agent does, liked: an order, judged as one elsewhere.
        "I like it when you end with a summary",
        "j'aime bien quand tu termines par le lien de ma boutique",
    ],
)
def test_chat_is_no_taste(text):
    assert liking(text, USER) == []


def test_a_named_speaker_s_taste_is_not_the_subject_s():
    assert liking("love spicy food", Utterance("user", "Caroline", "")) == []


@pytest.mark.parametrize(
    "text",
    [
        "à l'avenir, donne-moi toujours les températures en celsius",
        "from this point on, answer in French",
    ],
)
def test_every_lasting_marker_makes_the_request_an_instruction(text):
    assert any(kind == "instruction" for kind, _, _ in _kept(text)), _kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "toujours me vouvoyer svp",
        "tjrs me vouvoyer svp",
        "ne jamais utiliser de tirets longs stp",
    ],
)
def test_a_french_infinitive_order_is_a_directive(text):
    assert directive(text) is not None
    assert any(kind == "instruction" for kind, _, _ in _kept(text)), _kept(text)


@pytest.mark.parametrize("text", ["jamais vu ça", "toujours pas compris le truc"])
def test_an_infinitive_reading_needs_an_infinitive(text):
    assert directive(text) is None
