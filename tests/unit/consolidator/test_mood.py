"""The kind of a wish about the agent's work follows the mood of its clause (``providers.extraction.mood``)."""

import pytest

from haki.providers.extraction.mood import asks
from haki.providers.extraction.rules import extract_payload


def kinds(text: str, predicate: str) -> set[str]:
    return {c.fact_kind for c in extract_payload({"text": text}) if c.predicate == predicate}


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("pls use celsius for temps, not fahrenheit", "units"),
        ("Réponds-moi en français à partir de maintenant", "language"),
        ("could you answer in spanish from now on? practising for my trip", "language"),
        ("Tutoie-moi s'il te plait", "address_form"),
    ],
)
def test_a_wish_asked_of_the_agent_is_an_instruction(text, predicate):
    assert kinds(text, predicate) == {"instruction"}


@pytest.mark.parametrize(
    ("text", "predicate", "kind"),
    [
        ("I prefer metric units", "units", "preference"),
        ("I'm on Pacific time", "timezone", "attribute"),
        # One's own calendar is said of one's own time, whatever the mood.
        ("No meetings before 10am, please.", "schedule", "preference"),
        ("Pas de réunions avant 10h le matin, merci", "schedule", "preference"),
    ],
)
def test_a_wish_said_of_the_speaker_keeps_its_kind(text, predicate, kind):
    assert kinds(text, predicate) == {kind}


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("use metric units", True),
        ("Could you keep a friendly tone", True),
        ("mets les heures en heure de l'Est", True),
        ("Pas de sucre, merci", True),
        ("I like my reports in markdown tables", False),
        ("je suis à Montréal", False),
        ("My name is Sam, thanks", False),
    ],
)
def test_asks_reads_the_mood_not_the_topic(clause, expected):
    assert asks(clause) is expected
