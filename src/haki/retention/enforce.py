"""Enforcing retention: the oldest events and traces of each project with a policy,
deleted a batch per transaction, and one receipt per run that deleted anything.

Events are aged from the later of ``occurred_at`` and ``recorded_at``: a
backfill of old conversations is kept its full term from the day it was
captured. Deleting an event takes its episode chunks and its mentions in
pending jobs with it; facts consolidated from it stay (they are the memory,
not the raw record) and keep its id among their sources. ``haki forget``
removes facts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from psycopg.types.json import Jsonb

from .. import consolidator, context, jobs, ledger
from ..errors import DatabaseUnavailable
from ..storage import Connection, Database
from ..storage.locks import lock_subjects
from .policy import RetentionReceipt, get_policy, receipt_of

log = logging.getLogger(__name__)

POLICIES = """
SELECT project_id FROM retention_policies
WHERE events_days IS NOT NULL OR traces_days IS NOT NULL
ORDER BY project_id"""

OLD_EVENTS = """
SELECT id, subject_id FROM events
WHERE project_id = %(project_id)s AND greatest(occurred_at, recorded_at) < %(before)s
ORDER BY greatest(occurred_at, recorded_at), id
LIMIT %(limit)s"""

INSERT_RECEIPT = """
INSERT INTO retention_receipts (project_id, events_before, traces_before, counts)
VALUES (%(project_id)s, %(events_before)s, %(traces_before)s, %(counts)s)
RETURNING id, project_id, events_before, traces_before, counts, created_at"""

COUNTERS = ("events_deleted", "chunks_deleted", "traces_deleted", "batches")


async def _expire_events(
    conn: Connection, project_id: str, before: datetime, limit: int
) -> tuple[int, int, int]:
    """One batch: (events seen, events deleted, chunks deleted)."""
    cur = await conn.execute(
        OLD_EVENTS, {"project_id": project_id, "before": before, "limit": limit}
    )
    rows = await cur.fetchall()
    if not rows:
        return 0, 0, 0
    # The subjects' locks come before any row lock, as in a consolidation
    # job (storage.locks): a job of these subjects finishes first or starts
    # after their old events are gone.
    await lock_subjects(conn, project_id, [row["subject_id"] for row in rows])
    ids = [row["id"] for row in rows]
    # Chunks go before the events they cascade from, so they are counted.
    chunks = await consolidator.drop_chunks(conn, project_id=project_id, event_ids=ids)
    events = await ledger.delete_events(conn, project_id=project_id, event_ids=ids)
    await jobs.forget_events(conn, project_id=project_id, event_ids=[str(i) for i in ids])
    return len(rows), events, chunks


async def enforce_project(
    db: Database, project_id: str, *, now: datetime | None = None, batch: int = 1000
) -> RetentionReceipt | None:
    """Apply the project's policy as of ``now``; the run's receipt, or None if it
    deleted nothing."""
    now = now or datetime.now(UTC)
    async with db.transaction(project_id=project_id) as conn:
        policy = await get_policy(conn, project_id)
    counts = dict.fromkeys(COUNTERS, 0)
    events_before = traces_before = None
    if policy.events_days is not None:
        events_before = now - timedelta(days=policy.events_days)
        while True:
            async with db.transaction(project_id=project_id) as conn:
                seen, events, chunks = await _expire_events(conn, project_id, events_before, batch)
            counts["batches"] += seen > 0
            counts["events_deleted"] += events
            counts["chunks_deleted"] += chunks
            if seen < batch or events == 0:
                break
    if policy.traces_days is not None:
        traces_before = now - timedelta(days=policy.traces_days)
        while True:
            async with db.transaction(project_id=project_id) as conn:
                traces = await context.expire_traces(
                    conn, project_id=project_id, before=traces_before, limit=batch
                )
            counts["batches"] += traces > 0
            counts["traces_deleted"] += traces
            if traces < batch:
                break
    if not (counts["events_deleted"] or counts["chunks_deleted"] or counts["traces_deleted"]):
        return None
    async with db.transaction(project_id=project_id) as conn:
        cur = await conn.execute(
            INSERT_RECEIPT,
            {
                "project_id": project_id,
                "events_before": events_before,
                "traces_before": traces_before,
                "counts": Jsonb(counts),
            },
        )
        row = await cur.fetchone()
    assert row is not None
    return receipt_of(row)


async def enforce_all(
    db: Database, *, now: datetime | None = None, batch: int = 1000
) -> list[RetentionReceipt]:
    """Every project with a policy, in project order; the receipts of the runs that deleted."""
    async with db.transaction(system=True) as conn:
        cur = await conn.execute(POLICIES)
        projects = [row["project_id"] for row in await cur.fetchall()]
    receipts = []
    for project_id in projects:
        receipt = await enforce_project(db, project_id, now=now, batch=batch)
        if receipt is not None:
            log.info("retention in %s: %s", project_id, receipt.counts)
            receipts.append(receipt)
    return receipts


async def run_forever(
    db: Database, *, interval_s: float, batch: int, stop: asyncio.Event | None = None
) -> None:
    """Enforce every policy now, then every ``interval_s`` until ``stop``."""
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            await enforce_all(db, batch=batch)
        except DatabaseUnavailable:
            log.info("retention: the database is unavailable; the next round retries")
        except Exception:
            # A background loop: one failed round is logged, the next one retries.
            log.exception("retention round failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=interval_s)
