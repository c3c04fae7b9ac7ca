"""Where consolidation time goes: per-stage timers, summed over the process.

Each stage counts its own time only: a stage timed inside another (the SQL
of the apply stage, the embedding of the chunking stage) is taken out of the
outer one, so the totals add up to the time spent under any stage. An
``inclusive`` stage keeps what runs inside it (maintenance: its own SQL is
maintenance). Two clock readings per stage per job: cheap enough to stay on.

The stack is one per process, not per task: a process draining several
jobs at once (a worker beside a "consolidate now" call) mixes their splits.
The benchmark drains one subject at a time (``bench/consolidate.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

# Per stage: [wall seconds, CPU seconds of the whole process].
_totals: dict[str, list[float]] = {}


@dataclass(slots=True)
class _Frame:
    name: str
    inclusive: bool
    inner: float = 0.0
    inner_cpu: float = 0.0


_stack: list[_Frame] = []


@contextmanager
def stage(name: str, *, inclusive: bool = False) -> Iterator[None]:
    """Count the time of the block as ``name``, less the stages timed inside it."""
    if _stack and _stack[-1].inclusive:
        yield  # counted by the inclusive stage around it
        return
    frame = _Frame(name, inclusive)
    _stack.append(frame)
    began, began_cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        spent, spent_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        _stack.pop()
        total = _totals.setdefault(name, [0.0, 0.0])
        total[0] += spent - frame.inner
        total[1] += spent_cpu - frame.inner_cpu
        if _stack:
            _stack[-1].inner += spent
            _stack[-1].inner_cpu += spent_cpu


def totals() -> dict[str, tuple[float, float]]:
    """(wall seconds, process CPU seconds) per stage since the process started
    (or ``reset``), by name. The CPU is the whole process's (embedding threads
    included) while the stage ran: on a machine shared with other work it is
    the steadier measure."""
    return {name: (t[0], t[1]) for name, t in sorted(_totals.items())}


def reset() -> None:
    _totals.clear()
