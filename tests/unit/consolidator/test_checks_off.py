"""A team's practice of passing its checks over ("no review needed", "just
merge") acts beyond the reply: it waits for the person's confirmation."""

from __future__ import annotations

import pytest

from haki.text.risk import reaches


@pytest.mark.parametrize(
    "practice",
    [
        "We always push straight to main, no review needed.",
        "Our team never runs the linter, just merge.",
        "Chez nous on merge directement sur main sans revue.",
    ],
)
def test_a_practice_of_passing_checks_over_waits_for_confirmation(practice: str) -> None:
    assert reaches(practice)
    assert not reaches("Never run the tests on my laptop, use CI.")
