"""The sentence splitter reads a separator's spaces from the first of their
run only: it splits every text as the plain pattern does, and a long run of
spaces reads as one."""

from __future__ import annotations

import random
import re

import pytest

from haki.providers.extraction.rules import _SENTENCES, extract_payload

# The pattern without the run guard: the reference for what a split is.
PLAIN = re.compile(
    r"(?<=[.!?])\s+|\n+|\s*[,;]\s*(?:and\s+|et\s+)?(?=(?:always|never|toujours|ne jamais)\b)"
    r"|\s+(?:and|et)\s+(?=(?:always|never|toujours|ne jamais)\b)",
    re.IGNORECASE,
)
PIECES = [
    "I",
    "live",
    "in",
    "Lyon",
    "always",
    "never",
    "and",
    "et",
    "toujours",
    "ne jamais",
    ",",
    ";",
    ".",
    "!",
    "?",
    " ",
    "  ",
    "\t",
    "\n",
    " \n ",
    "use",
    "tabs",
    "\r\n",
    "\r",
    " \t ",
]


def test_it_splits_as_the_plain_pattern_does():
    rng = random.Random(7)
    for _ in range(20000):
        text = "".join(
            rng.choice(PIECES) + rng.choice(["", " "]) for _ in range(rng.randint(1, 14))
        )
        assert _SENTENCES.split(text) == PLAIN.split(text), repr(text)


@pytest.mark.parametrize("run", [2, 20_000])
def test_a_run_of_spaces_before_a_separator_splits_as_one(run):
    text = "I live in Lyon" + " " * run + "and always use tabs"
    assert [p.strip() for p in _SENTENCES.split(text)] == ["I live in Lyon", "always use tabs"]


def test_a_turn_of_spaces_reads_nothing():
    assert extract_payload({"text": "Always" + " " * 20_000 + "b"}) == []
