"""How bench/memory_truth_e2e.py judges a resolved date (its verdicts are the blind figures)."""

from __future__ import annotations

from bench_modules import load_bench

e2e = load_bench("memory_truth_e2e.py", "memory_truth_e2e")

SAID = "2025-03-12T09:00:00+01:00"


def test_a_date_is_read_in_the_turns_own_time_zone():
    # 23:30 UTC on the 9th is already the 10th in Paris, where the turn was said.
    assert e2e.same("2025-03-09T23:30:00Z", SAID, "2025-03-10", "day")
    assert not e2e.same("2025-03-09T22:30:00Z", SAID, "2025-03-10", "day")


def test_each_granularity_compares_only_what_it_names():
    assert e2e.same(
        "2025-03-06T12:00:00+00:00", SAID, "2025-03-03", "week"
    )  # Thursday, week of Monday 3rd
    assert not e2e.same("2025-03-10T12:00:00+00:00", SAID, "2025-03-03", "week")
    assert e2e.same("2025-02-01T12:00:00+00:00", SAID, "2025-02", "month")
    assert not e2e.same("2025-03-01T12:00:00+00:00", SAID, "2025-02", "month")
    assert e2e.same("2024-07-01T12:00:00+00:00", SAID, "2024", "year")


def test_a_period_labelled_by_its_first_day_reads_as_the_period():
    # "2025-02-01" with granularity month is February, as "2025-02" is.
    assert e2e.same("2025-02-14T12:00:00+00:00", SAID, "2025-02-01", "month")
    assert not e2e.same("2025-03-01T12:00:00+00:00", SAID, "2025-02-01", "month")
    assert e2e.same("2024-07-01T12:00:00+00:00", SAID, "2024-01-01", "year")
    assert not e2e.same("2025-07-01T12:00:00+00:00", SAID, "2024-01-01", "year")
