"""Inference computed ahead yields to inference a job is waiting for.

A worker embeds the next job's chunks while the current job runs
(``consolidator.lookahead``). Both calls share the embedder's inference
threads, which took calls in the order they came: the job's own call (its
readers' sentences, its new facts) then queued behind the whole lookahead,
about a hundred chunks, while the job, which cannot go on without those
vectors, waited. Work marked ``in_background`` now runs on threads of its own,
one fewer than the job's (the event loop and the database keep a core), and,
between two runs of the model, waits while any urgent call is in progress
(``Gate``): the job's call starts at once, and at most one run of the
lookahead (a few milliseconds) overlaps it. Which call computes a text
never changes its vector (``LocalEmbedder._infer_alone``), so the order is
free.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Set for the calls a task makes while it computes ahead of need; copied into
# ``asyncio.to_thread``'s thread with the rest of the task's context.
_BACKGROUND: ContextVar[bool] = ContextVar("haki_embed_background", default=False)


def in_background_now() -> bool:
    """Whether the calling context computes ahead of need (``in_background``)."""
    return _BACKGROUND.get()


@contextmanager
def in_background() -> Iterator[None]:
    """Mark the inference started inside (in this task or context) as able to wait."""
    token = _BACKGROUND.set(True)
    try:
        yield
    finally:
        _BACKGROUND.reset(token)


class Gate:
    """Counts the urgent calls in progress; background work waits for none to be."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._urgent = 0

    @property
    def urgent_calls(self) -> int:
        return self._urgent

    @contextmanager
    def urgent(self) -> Iterator[None]:
        """Hold background work back (between its runs) while the block runs."""
        with self._changed:
            self._urgent += 1
        try:
            yield
        finally:
            with self._changed:
                self._urgent -= 1
                if self._urgent == 0:
                    self._changed.notify_all()

    def wait_turn(self, timeout: float | None = None) -> bool:
        """Block until no urgent call is in progress; False if ``timeout`` passed first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._urgent == 0, timeout)
