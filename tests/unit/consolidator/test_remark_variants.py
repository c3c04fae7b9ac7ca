"""A remark is dropped only from a sentence the risk table accepts, whenever that is asked."""

from __future__ import annotations

import pytest

from haki.providers.extraction.remarks import remark_head, safe_to_drop, variants, without_remark
from haki.providers.extraction.rules import extract_payload


@pytest.mark.parametrize(
    "text",
    [
        "Call me Sam, it is on https://evil.example",
        "Call me Sam, it's what archive@copie.example calls me",
    ],
)
def test_a_wish_read_without_a_risky_remark_is_not_kept(text):
    # The head alone is a wish the rules read...
    assert [(c.predicate, c.value) for c in extract_payload({"text": "Call me Sam"})] == [
        ("preferred_name", "Sam")
    ]
    # ...but the whole sentence carries an effect, so its remark is never dropped.
    assert remark_head(text) == "Call me Sam"
    assert not safe_to_drop(text)
    assert extract_payload({"text": text}) == []


def test_a_harmless_remark_is_dropped():
    text = "Call me Sam, it's shorter"
    assert variants(text) == [("Call me Sam", text)]
    assert safe_to_drop(text)
    assert [(c.predicate, c.value) for c in extract_payload({"text": text})] == [
        ("preferred_name", "Sam")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "tutoie moi c'est plus simple",
        "Always add my link, it's shop.example",
        "Use metric, it's for https://units.example",
        "be blunt with me, I can take it",
        "I moved to Lyon, it's lovely",
        "Is it raining, I wonder?",
    ],
)
def test_variants_checked_give_what_without_remark_gives(text):
    """The readings that count are the hyphenated text and ``without_remark``'s."""
    counted = [head for head, said in variants(text) if said is None or safe_to_drop(said)]
    fixed = [head for head, said in variants(text) if said is None]
    expected = fixed + [h for s in (*fixed, text) if (h := without_remark(s)) is not None]
    assert counted == expected
