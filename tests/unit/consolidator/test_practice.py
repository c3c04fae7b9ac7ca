"""Standing practices and habits read from their structure (``providers.extraction.patterns_practice``)."""

import pytest

from haki.providers.extraction.rules import extract_payload


def read(text: str) -> set[tuple[str, str]]:
    return {(c.fact_kind, c.predicate) for c in extract_payload({"text": text})}


@pytest.mark.parametrize(
    "text",
    [
        "we always squash commits before merging, keep that in mind",
        "in our repo tests live next to the code, not in a tests/ folder",
        "our team writes commit messages in the imperative mood",
        "our PRs need two approvals before merge",
        "chez nous on fait des revues de code avant chaque merge",
        "chez nous les tests d'intégration tournent la nuit, pas à chaque push",
        "on utilise black pour formater tout notre code python",
        "talk to me like a colleague, not like a customer service bot",
        "explique-moi les choses simplement, je débute en programmation",
        "no need to apologise all the time btw, just answer",
    ],
)
def test_a_practice_or_a_manner_is_a_convention(text):
    assert ("instruction", "convention") in read(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I mostly code in rust these days", "rust"),
        ("J'utilise PostgreSQL pour tous mes projets", "PostgreSQL"),
        ("je bosse surtout en typescript", "typescript"),
    ],
)
def test_a_habitual_use_is_said_of_the_speaker(text, value):
    (cand,) = [c for c in extract_payload({"text": text}) if c.predicate == "uses"]
    assert (cand.fact_kind, cand.value) == ("preference", value)


@pytest.mark.parametrize(
    "text",
    [
        "We go every weekend.",
        "we went to the beach every weekend",
        "we love hiking in the alps every summer",
        "I use vim",
        "Je travaille à mi-temps le vendredi",
        "at work we had a party yesterday",
    ],
)
def test_narration_feeling_and_plain_use_are_no_practice(text):
    assert not {p for _, p in read(text)} & {"convention", "uses"}


def test_a_routine_is_said_of_its_time():
    (cand,) = extract_payload({"text": "Our team standup is at 9:30 every weekday"})
    assert (cand.fact_kind, cand.predicate, cand.value) == (
        "attribute",
        "schedule",
        "9:30 every weekday",
    )
    assert cand.qualifiers["context"] == "team standup"


@pytest.mark.parametrize(
    "text",
    [
        "hey, can you stop using so many emojis? they're distracting",
        "Could you keep a friendly, casual tone with me? formal stuff bugs me",
        "when you summarise articles for me give me 3 bullets max thanks",
        "stp arrête de me vouvoyer, on se tutoie",
        "je suis daltonien, évite de différencier les choses seulement par la couleur",
        "I'm colour blind so don't rely on red vs green in charts",
    ],
)
def test_wrappers_and_reasons_leave_the_standing_order(text):
    assert ("instruction", "convention") in read(text)


def test_a_one_off_with_a_reason_is_no_standing_order():
    assert read("I'm hungry so order a pizza") == set()
    assert read("when I was a kid I loved trains") == set()
