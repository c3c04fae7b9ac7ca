"""Runs of spaces do not change what the correction patterns read, nor make them backtrack."""

from __future__ import annotations

import time

import pytest

from haki.providers.extraction.corrections import (
    _ANY_MORE,
    _CLAUSES,
    _NOT_OLD,
    old_value,
    split_negated,
)


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


@pytest.mark.parametrize("blank", [" ", " \t", "\u00a0 "])
@pytest.mark.parametrize(
    "template",
    ["x{run}y", ", not{run}", "I'm not{run}x any more", "Lyon{run}rather than{run}Paris"],
)
def test_the_patterns_are_linear_on_a_long_blank_run_without_the_fold(blank, template):
    # Called on text nobody folded, the clause, old-value and "any more"
    # patterns once backtracked over a blank run from every position in it
    # (20 kB took 13-30 s each); now each run is scanned once.
    text = template.format(run=blank * 25_000)
    started = time.perf_counter()
    _CLAUSES.split(text)
    _NOT_OLD.search(text)
    _ANY_MORE.sub("", text)
    assert time.perf_counter() - started < 1.0


def test_the_linear_patterns_still_read_clauses_and_old_values():
    assert _CLAUSES.split("tough, but fine - ok; done") == ["tough", "", "fine", "ok", "done"]
    assert _NOT_OLD.search("I live in Lyon rather than Paris.").group("old") == "Paris"
    assert _NOT_OLD.search("I live in Lyon, not in   Paris .").group("old") == "Paris"
    assert _ANY_MORE.sub("", "I'm a nurse   any more") == "I'm a nurse"
