"""When a worker checks the statistics of the tables it fills (consolidator.statistics)."""

from __future__ import annotations

import pytest

from haki.consolidator.statistics import REFRESH_EVERY_S, refresh_due


def test_nothing_written_means_no_check_even_at_the_end_of_a_drain():
    assert not refresh_due(wrote=False, draining=False, last_at=None, now=100.0)
    assert not refresh_due(wrote=False, draining=True, last_at=0.0, now=1e6)


def test_the_first_write_of_a_process_is_checked_at_once():
    assert refresh_due(wrote=True, draining=True, last_at=None, now=5.0)


@pytest.mark.parametrize("since", [0.0, 1.0, 3.0, REFRESH_EVERY_S - 0.01])
def test_during_a_drain_a_recent_check_is_not_repeated(since):
    assert not refresh_due(wrote=True, draining=True, last_at=100.0, now=100.0 + since)


@pytest.mark.parametrize("since", [REFRESH_EVERY_S, REFRESH_EVERY_S + 0.01, 3600.0])
def test_during_a_drain_a_check_is_repeated_once_the_interval_passed(since):
    assert refresh_due(wrote=True, draining=True, last_at=100.0, now=100.0 + since)


def test_the_end_of_a_drain_checks_whatever_the_interval():
    assert refresh_due(wrote=True, draining=False, last_at=100.0, now=100.5)


def test_a_drain_of_ten_minutes_checks_at_most_once_per_interval():
    """Batches every second for 600 s: checks at 0, 30, ..., 570 s, not 600 of them."""
    last, checks = None, 0
    for second in range(600):
        if refresh_due(wrote=True, draining=True, last_at=last, now=float(second)):
            last, checks = float(second), checks + 1
    assert REFRESH_EVERY_S == 30.0
    assert checks == 20
