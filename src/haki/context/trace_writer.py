"""Writing traces behind the response.

A trace is the audit record of a packet already built: the caller needs the
packet, not the row. So the context call hands its trace to a
``TraceWriter`` and answers at once; the decisions are serialised and the
row inserted in a background task, while the agent reads the packet (the
latency this saves is in docs/context.md).

What keeps this safe:
- Every reader of traces in this process waits for the writes it depends on
  first: ``inspect`` and ``feedback`` for their trace, ``stats`` and
  ``forget`` for all of them (a forget never races a trace of the subject
  it erases that this process is still writing).
- At most ``max_pending`` writes are in flight; past that, the call writes
  its own trace before answering, so a slow database slows calls down
  instead of piling traces up in memory.
- A failed write is retried with back-off, then logged and dropped; the
  packet was served already, and the trace insert commits without waiting
  for its WAL flush anyway (``trace.RELAXED_COMMIT``), so the last traces
  before a crash were never guaranteed.
- Closing the writer (the app's shutdown) waits for every pending write.

Another server process sees a trace once its insert commits, typically a
few milliseconds after the response.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

import psycopg

from ..errors import DatabaseUnavailable
from ..storage import Database
from .trace import RELAXED_COMMIT, TraceRecord, insert_trace, trace_params

log = logging.getLogger(__name__)

MAX_PENDING = 64
RETRY_DELAYS_S: Sequence[float] = (0.05, 0.25, 1.0)


@dataclass(frozen=True, slots=True)
class PendingTrace:
    """Everything the insert needs, captured when the response is ready."""

    record: TraceRecord
    packet_json: bytes
    timings: dict[str, float]
    duration_ms: float


async def write_trace(db: Database, trace: PendingTrace) -> None:
    """Insert one trace in its own short transaction."""
    params = trace_params(trace.record, trace.packet_json)
    async with db.transaction(
        project_id=trace.record.project_id, local=RELAXED_COMMIT, one_trip=True
    ) as conn:
        await insert_trace(conn, params, trace.timings, trace.duration_ms)


class TraceWriter:
    def __init__(
        self,
        db: Database,
        *,
        max_pending: int = MAX_PENDING,
        retry_delays_s: Sequence[float] = RETRY_DELAYS_S,
    ) -> None:
        self._db = db
        self._max_pending = max_pending
        self._retry_delays_s = tuple(retry_delays_s)
        self._pending: dict[UUID, asyncio.Task[None]] = {}

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def submit(self, trace: PendingTrace) -> None:
        """Write ``trace`` in the background, or now if too many writes are in flight."""
        if len(self._pending) >= self._max_pending:
            await self._write(trace)
            return
        trace_id = trace.record.id
        task = asyncio.create_task(self._write(trace), name=f"trace-{trace_id}")
        self._pending[trace_id] = task
        task.add_done_callback(lambda _: self._pending.pop(trace_id, None))

    async def wait(self, trace_id: UUID) -> None:
        """Return once the write of ``trace_id`` (if this process has one pending) is over."""
        task = self._pending.get(trace_id)
        if task is not None:
            await asyncio.shield(task)

    async def wait_all(self) -> None:
        """Return once every write pending now is over."""
        tasks = list(self._pending.values())
        if tasks:
            await asyncio.shield(asyncio.gather(*tasks, return_exceptions=True))

    async def close(self) -> None:
        await self.wait_all()

    async def _write(self, trace: PendingTrace) -> None:
        for attempt, delay in enumerate((*self._retry_delays_s, None), start=1):
            try:
                await write_trace(self._db, trace)
                return
            except (DatabaseUnavailable, psycopg.OperationalError) as exc:
                if delay is None:
                    log.error("trace %s lost after %d attempts: %s", trace.record.id, attempt, exc)
                    return
                log.warning(
                    "trace %s not written (%s); retrying in %.2fs", trace.record.id, exc, delay
                )
                await asyncio.sleep(delay)
            except Exception:
                # Not retried: the same row would fail the same way.
                log.exception("trace %s lost", trace.record.id)
                return
