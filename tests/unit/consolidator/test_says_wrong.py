"""``says_wrong`` is the strongest correction cue alone, without the change cue."""

from __future__ import annotations

import pytest

from haki.providers.extraction.corrections import cue_strength, says_wrong


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("Oops, I meant Lyon", True),
        ("je me suis trompée, c'est Marie", True),
        ("I don't eat meat any more", True),
        ("We moved to Lyon", False),  # a change, not an error
        ("Tom and I broke up", False),
        ("Sounds good, thanks!", False),
    ],
)
def test_says_wrong_is_cue_strength_two(text, wrong):
    assert says_wrong(text) is wrong
    assert says_wrong(text) == (cue_strength(text) == 2)
    if not wrong and text != "Sounds good, thanks!":
        assert cue_strength(text) == 1
