"""A name tied to the noun it names, across clauses and sentences of one turn (``tied_names``)."""

import pytest

from haki.providers.extraction.rules import extract_payload


def read(text: str) -> dict[str, tuple[str, dict, str | None]]:
    return {
        c.predicate: (str(c.value), c.qualifiers, c.said_when)
        for c in extract_payload({"text": text})
        if not c.retract
    }


@pytest.mark.parametrize(
    ("text", "predicate", "name", "when"),
    [
        # The kind's fact renamed, its date kept.
        (
            "we adopted a dog last month!! his name is pablo and he snores",
            "pet",
            "Pablo",
            "last month",
        ),
        (
            "on a pris un lapin samedi, il s'appelle Caramel 🐰 il mange quoi ?",
            "pet",
            "Caramel",
            "samedi",
        ),
        # No fact of the kind read: made, dated by the noun's own clause.
        (
            "My son was born three days ago!!! His name is Tane, we're exhausted",
            "son",
            "Tane",
            "three days ago",
        ),
        (
            "I started a band in 2023, it's called Velvet Static",
            "member_of",
            "Velvet Static",
            "in 2023",
        ),
        (
            "i registered my own business last month. it's called Fernleaf Studio",
            "employer",
            "Fernleaf Studio",
            "last month",
        ),
        # Beside its noun, before a verb.
        ("my dog pancake keeps eating socks", "pet", "Pancake", None),
    ],
)
def test_a_name_goes_to_the_noun_it_names(text, predicate, name, when):
    value, qualifiers, said_when = read(text)[predicate]
    assert value == name
    assert said_when == when
    if predicate == "pet":
        assert qualifiers.get("kind")


@pytest.mark.parametrize(
    "text",
    [
        "I saw my neighbour's dog yesterday, her name is Lola",  # someone else's
        "My friend adopted a cat, her name is Olive",
        "we watched a film about a dog named Hachiko",  # not got by the speaker
        "If I got a cat her name would be Miso",  # a hypothetical
        "my dog food is running out",  # a pet's thing, not a name
        "I adopted a cat, her name is not decided yet",  # a stop word is no name
        "my sister visited. I joined a gym last week, it's called Lola",  # the gym's name
    ],
)
def test_no_name_is_tied_to_a_noun_that_is_not_the_speakers(text):
    names = {v for v, _, _ in read(text).values()}
    assert not names & {"Lola", "Olive", "Hachiko", "Miso", "Food", "Not"}
