"""A name closing a sentence stands for a definite phrase only after an article of its own."""

import pytest

from haki.providers.extraction.restatements import named_in_apposition


@pytest.mark.parametrize(
    "said",
    [
        "I started working at theodore's place, Sam",
        "I left for good, Tom",
        "I moved here lately, Tom",
    ],
)
def test_letters_of_a_word_are_no_article(said: str) -> None:
    assert named_in_apposition(said) == []


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("I started at the lab, Genentech", "I started at Genentech"),
        ("j'ai rejoint l'association du quartier, Les Amis", "j'ai rejoint Les Amis"),
        ("je bosse à la boulangerie du coin, Chez Paul", "je bosse à Chez Paul"),
        # An indefinite article is one too.
        ("I left for a job, Google", "I left for Google"),
    ],
)
def test_an_article_of_its_own_still_leads_the_phrase(said: str, read: str) -> None:
    assert named_in_apposition(said) == [read]
