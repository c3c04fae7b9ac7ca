"""A fact's moment said in another clause of its sentence (``providers.extraction.when_aside``
through ``when.past_span``): a naming clause, a vague past and its aside, a clause that refers
back, a season with its year, a weekday that recurs."""

from __future__ import annotations

import pytest

from haki.providers.extraction.when import past_span


def span_of(sentence: str, value: str) -> str | None:
    start = sentence.index(value)
    return past_span(sentence, start, start + len(value))


@pytest.mark.parametrize(
    ("sentence", "value", "span"),
    [
        # The name holds from the moment its bearer came.
        ("got my first rescue rabbit on tuesday, her name is Toffee 🐰", "Toffee", "on tuesday"),
        ("on a pris un chat hier, il s'appelle Pépito", "Pépito", "hier"),
        # A vague past made precise by the aside right after it.
        (
            "I switched to metric a while back — well, in june when I moved here — so use km",
            "metric",
            "in june",
        ),
        ("je suis devenue végane il y a quelque temps, en fait en janvier", "végane", "en janvier"),
        # A clause that says how long the statement before has held.
        ("I work at Google, been there for three years", "Google", "for three years"),
        ("je bosse chez Thales, j'y suis depuis 2021", "Thales", "depuis 2021"),
        # A season said with its year is read whole.
        (
            "ive been a member of the Rowing Club since spring 2024",
            "Rowing Club",
            "since spring 2024",
        ),
    ],
)
def test_the_moment_said_beside_the_fact_dates_it(sentence, value, span):
    assert span_of(sentence, value) == span


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        # A moment inside another statement is that statement's.
        ("I switched to metric a while back, and my sister visited in june", "metric"),
        # A clause that names nothing before it dates nothing.
        ("I adopted a cat, she loves tuna", "tuna"),
        # Days that recur are a habit, not a day gone by.
        ("I volunteer at the food bank on saturday mornings", "food bank"),
    ],
)
def test_no_moment_is_borrowed_from_where_it_does_not_belong(sentence, value):
    assert span_of(sentence, value) is None
