"""Runs of spaces do not change what the correction patterns read, nor make them backtrack."""

from __future__ import annotations

import pytest

from haki.providers.extraction.corrections import old_value, split_negated


@pytest.mark.parametrize(
    "sentence",
    [
        "I live in Lyon, not Paris.",
        "I'm not a nurse any more, I'm a midwife now.",
        "Je ne suis plus infirmière - je suis sage-femme.",
        "J'aime le café mais plus le thé.",
    ],
)
@pytest.mark.parametrize("run", [2, 2_000, 20_000])
def test_a_run_of_spaces_reads_as_one_space(sentence, run):
    # 20 kB of spaces took tens of seconds per pattern before the fold; it
    # must now read as the single-spaced sentence does.
    spread = sentence.replace(" ", " " * run)
    assert split_negated(spread) == split_negated(sentence)
    assert old_value(spread) == old_value(sentence)


def test_a_run_of_spaces_with_no_clause_in_it_reads_nothing():
    assert old_value(" " * 20_000) is None
    assert split_negated(" " * 20_000) == split_negated(" ")
