"""The benches' verdicts cannot be won by a near miss (bench/extraction_quality.py)."""

from __future__ import annotations

from datetime import datetime

from bench_modules import load_bench

quality = load_bench("extraction_quality.py", "extraction_quality")


def fact(value: str) -> dict[str, str]:
    return {"predicate": "schedule", "value": value}


def test_a_schedule_typed_on_both_sides_matches_on_whole_ranges() -> None:
    assert quality.matches(fact("i work 9 to 5, mon to fri"), fact("9am-5pm Monday-Friday"))
    # Three of four words shared, yet another end hour or other days.
    assert not quality.matches(fact("9am-6pm Monday-Friday"), fact("9am-5pm Monday-Friday"))
    assert not quality.matches(fact("9 to 5 mon-thu"), fact("9am-5pm Monday-Friday"))
    assert not quality.matches(fact("gym 9 to 5"), fact("10pm to 6"))


def test_a_schedule_gold_without_ranges_still_matches_on_words() -> None:
    assert quality.matches(fact("before 10am"), fact("before 10am"))


def test_a_label_shorter_than_its_period_names_none() -> None:
    at = datetime.fromisoformat("2025-03-12T09:00:00+01:00")
    moment = datetime.fromisoformat("2025-03-20T12:00:00+01:00")
    assert not quality.within(moment, {"valid_from": "2025-03", "granularity": "day"}, at)
    assert quality.within(moment, {"valid_from": "2025-03", "granularity": "month"}, at)
    assert quality.within(moment, {"valid_from": "2025-03-20", "granularity": "day"}, at)
