"""Everyday sentences that look like a change of state but state none: working
together, being with someone this morning, learning the hard way, a tie the
same sentence ends (pure, no database)."""

from __future__ import annotations

import pytest

from haki.providers.extraction.rules import extract_utterance
from haki.providers.extraction.types import Utterance


def read(text: str) -> list[tuple[str, object]]:
    return [
        (c.predicate, c.value)
        for c in extract_utterance(Utterance(role="user", speaker=None, text=text))
    ]


@pytest.mark.parametrize(
    "text",
    [
        "We're together on this one.",
        "We are together in the meeting room.",
        "Je suis avec Paul depuis ce matin au bureau.",
        "J'apprends la nouvelle avec tristesse.",
        "I have been learning the hard way.",
        "I have been learning the ropes.",
        "I started at Google in 2019 but left last year.",
        "I got married to Sarah in 2010 but we divorced in 2015.",
        "Please email my boss at kim@work.example.",
        "My sister's email is sis@x.example",
    ],
)
def test_a_lookalike_states_no_tie(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("We've been together for three years.", ("relationship_status", "in a relationship")),
        ("Je suis avec Karim depuis deux ans.", ("partner", "Karim")),
        ("I'm learning Spanish.", ("learning", "Spanish")),
        ("I started at Google last month.", ("employer", "Google")),
        (
            "Please update my email: it's ana@new-mail.example now.",
            ("email", "ana@new-mail.example"),
        ),
    ],
)
def test_the_tie_itself_is_still_read(text: str, fact: tuple[str, object]) -> None:
    assert fact in read(text)
