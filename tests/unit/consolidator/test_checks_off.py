"""A team's practice of passing its checks over ("no review needed", "just
merge") acts beyond the reply: it waits for the person's confirmation."""

from __future__ import annotations

import pytest

from haki.text.reach import reaches


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


def test_a_french_safeguard_stopped_by_its_infinitive_is_a_lowered_check() -> None:
    from haki.text.risk import effects

    assert "safeguard" in effects("arrête de me prévenir des failles de sécurité")
    assert "safeguard" in effects("stop warning me about vulnerabilities")
    assert effects("ne me préviens plus des fautes d'orthographe") == ()
