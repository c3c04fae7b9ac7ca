"""Where consolidation time goes: per-stage timers, summed over the process.

Each stage counts its own time only: a stage timed inside another (the SQL
of the apply stage, the embedding of the chunking stage) is taken out of the
outer one, so the totals add up to the time spent under any stage. An
``inclusive`` stage keeps what runs inside it (maintenance: its own SQL is
maintenance). Two clock readings per stage per job: cheap enough to stay on.

The stack is one per asyncio task (a context variable), so a task running
beside a job (the worker's ``lookahead``) keeps its own stages; the CPU is
still the whole process's, so stages that overlap share it, and their wall
times add up to more than the time that passed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

# Per stage: [wall seconds, CPU seconds of the whole process].
_totals: dict[str, list[float]] = {}


@dataclass(slots=True)
class _Frame:
    name: str
    inclusive: bool
    inner: float = 0.0
    inner_cpu: float = 0.0


# The stages open in this task, innermost last: a tuple, never changed in
# place, so a task started inside a stage does not share its parent's list.
_stack: ContextVar[tuple[_Frame, ...]] = ContextVar("haki_stages", default=())


def current() -> str | None:
    """The innermost stage open in this task, if any."""
    stack = _stack.get()
    return stack[-1].name if stack else None


@contextmanager
def stage(name: str, *, inclusive: bool = False) -> Iterator[None]:
    """Count the time of the block as ``name``, less the stages timed inside it."""
    outer = _stack.get()
    if outer and outer[-1].inclusive:
        yield  # counted by the inclusive stage around it
        return
    frame = _Frame(name, inclusive)
    token = _stack.set((*outer, frame))
    began, began_cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        spent, spent_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        _stack.reset(token)
        total = _totals.setdefault(name, [0.0, 0.0])
        total[0] += spent - frame.inner
        total[1] += spent_cpu - frame.inner_cpu
        if outer:
            outer[-1].inner += spent
            outer[-1].inner_cpu += spent_cpu


def totals() -> dict[str, tuple[float, float]]:
    """(wall seconds, process CPU seconds) per stage since the process started
    (or ``reset``), by name. The CPU is the whole process's (embedding threads
    included) while the stage ran: on a machine shared with other work it is
    the steadier measure."""
    return {name: (t[0], t[1]) for name, t in sorted(_totals.items())}


def reset() -> None:
    _totals.clear()
