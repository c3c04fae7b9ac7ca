"""Per-stage timers count each stage's own time (consolidator/stages.py)."""

from __future__ import annotations

import pytest

from haki.consolidator import stages


class Clock:
    def __init__(self):
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def process_time(self) -> float:
        return self.now / 2  # CPU half the wall time


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(stages, "time", fake)
    stages.reset()
    yield fake
    stages.reset()


def test_a_stage_inside_another_is_taken_out_of_it(clock):
    with stages.stage("apply"):
        clock.now += 1
        with stages.stage("sql"):
            clock.now += 3
        clock.now += 1
    assert stages.totals() == {"apply": (2.0, 1.0), "sql": (3.0, 1.5)}


def test_an_inclusive_stage_keeps_what_runs_inside_it(clock):
    with stages.stage("maintenance", inclusive=True), stages.stage("sql"):
        clock.now += 4
    assert stages.totals() == {"maintenance": (4.0, 2.0)}


def test_times_add_up_over_calls_and_survive_an_error(clock):
    for _ in range(2):
        with stages.stage("guard"):
            clock.now += 1
    with pytest.raises(ValueError), stages.stage("guard"):
        clock.now += 1
        raise ValueError
    with stages.stage("extraction"):  # the stack is empty again: nothing nests
        clock.now += 1
    assert stages.totals() == {"extraction": (1.0, 0.5), "guard": (3.0, 1.5)}


async def test_a_task_beside_a_stage_keeps_its_own_stack(clock):
    """The lookahead's task and the job's stages interleave; neither pops the other's."""
    import asyncio

    entered, release = asyncio.Event(), asyncio.Event()

    async def beside() -> str | None:
        with stages.stage("embedding ahead", inclusive=True):
            entered.set()
            await release.wait()
            with stages.stage("embedding"):  # inside an inclusive stage: not counted apart
                return stages.current()

    task = asyncio.create_task(beside())
    await entered.wait()
    with stages.stage("sql"):
        assert stages.current() == "sql"
        clock.now += 1
        release.set()
        assert await task == "embedding ahead"
        assert stages.current() == "sql"
        clock.now += 2
    assert stages.current() is None
    # Overlapping stages of two tasks: neither is taken out of the other.
    assert stages.totals() == {"embedding ahead": (1.0, 0.5), "sql": (3.0, 1.5)}
