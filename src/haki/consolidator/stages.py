"""Where consolidation time goes: per-stage timers, summed over the process.

Each stage counts its own time only: a stage timed inside another (the SQL
of the apply stage, the embedding of the chunking stage) is taken out of the
outer one, so the totals add up to the time spent under any stage. An
``inclusive`` stage keeps what runs inside it (maintenance: its own SQL is
maintenance). Two ``perf_counter`` calls per stage per job: cheap enough to
stay on.

The stack is one per process, not per task: a process draining several
jobs at once (a worker beside a "consolidate now" call) mixes their splits.
The benchmark drains one subject at a time (``bench/consolidate.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

_totals: dict[str, float] = {}


@dataclass(slots=True)
class _Frame:
    name: str
    inclusive: bool
    inner: float = 0.0


_stack: list[_Frame] = []


@contextmanager
def stage(name: str, *, inclusive: bool = False) -> Iterator[None]:
    """Count the time of the block as ``name``, less the stages timed inside it."""
    if _stack and _stack[-1].inclusive:
        yield  # counted by the inclusive stage around it
        return
    frame = _Frame(name, inclusive)
    _stack.append(frame)
    began = time.perf_counter()
    try:
        yield
    finally:
        spent = time.perf_counter() - began
        _stack.pop()
        _totals[name] = _totals.get(name, 0.0) + spent - frame.inner
        if _stack:
            _stack[-1].inner += spent


def totals() -> dict[str, float]:
    """Seconds per stage since the process started (or ``reset``), by name."""
    return dict(sorted(_totals.items()))


def reset() -> None:
    _totals.clear()
