"""A set of words as one tree-shaped regex matches what their flat alternation matches."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from haki.text.literals import alternation

WORDS = st.lists(st.text(alphabet="ab .*(", min_size=1, max_size=4), min_size=1, max_size=8)
TEXTS = st.text(alphabet="ab .*(c", max_size=12)


@given(WORDS, TEXTS)
def test_the_longest_word_at_each_position(words, text):
    tree = re.compile(alternation(words))
    for at in range(len(text) + 1):
        starting = [w for w in words if text.startswith(w, at)]
        found = tree.match(text, at)
        assert (found.group(0) if found else None) == max(starting, key=len, default=None)


@given(WORDS, TEXTS)
def test_a_search_finds_what_the_flat_alternation_finds(words, text):
    flat = re.compile("|".join(map(re.escape, words)))
    tree = re.compile(r"\b(?:" + alternation(words) + r")\b")
    bounded = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b")
    assert (re.search(alternation(words), text) is None) == (flat.search(text) is None)
    assert (tree.search(text) is None) == (bounded.search(text) is None)


def test_shared_beginnings_are_written_once():
    assert alternation(["ago", "april", "back"]) == "(?:a(?:go|pril)|back)"
    assert alternation(["ab", "abc"]) == "ab(?:c)?"


@pytest.mark.parametrize("words", [[], [""]])
def test_no_word_or_an_empty_one_is_refused(words):
    with pytest.raises(ValueError):
        alternation(words)
