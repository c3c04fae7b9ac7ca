"""The consolidation queue: enqueue, claim, run-lock, complete, fail, reclaim.

The ledger enqueues through it when it captures events; the consolidator
claims and finishes jobs through it. Nothing else touches the ``jobs`` table.

A claim is a short transaction of its own (``FOR UPDATE SKIP LOCKED``, so
any number of workers take disjoint jobs). The job then runs in a second
transaction that first re-locks its row (``lock_for_run``) and ends with
``complete``: effects and ``status = done`` commit together. A worker killed
mid-job leaves the row ``running`` with nothing written; once the claim is
older than the timeout, ``reclaim`` makes it pending again. A live worker
holds its row lock, so ``reclaim`` (which skips locked rows) never steals a
job that is still running, however slow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from psycopg.types.json import Jsonb

from ..backoff import backoff_s
from ..storage import Connection
from ..storage.db import process_name

ENQUEUE = """
INSERT INTO jobs (kind, org_id, project_id, subject_id, payload)
VALUES ('consolidate', %(org_id)s, %(project_id)s, %(subject_id)s, %(payload)s)
RETURNING id"""

# A subject's jobs run in the order they were queued (``seq``, numbered as
# they are inserted: jobs queued by one transaction share ``created_at``): a
# job waits while an earlier job of its subject is unfinished, so
# supersession sees events in capture order even when a worker dies or a job
# backs off.
#
# Projects take turns: each claimable job is ranked within its project
# (``turn``: 1 for the project's oldest), and a claim takes every project's
# first job before any project's second. A project with a deep backlog so
# delays another project's new job by at most the jobs already claimed, not
# by its whole backlog (global FIFO did). The ranking is a window over the
# claimable jobs; only ``j`` is locked (a window cannot sit beside FOR
# UPDATE), and a row another worker locked meanwhile is skipped.
CLAIM = """
UPDATE jobs SET status = 'running', claimed_at = clock_timestamp(), claimed_by = %(worker)s,
    attempts = attempts + 1, started_at = NULL
WHERE id IN (
    SELECT j.id
    FROM jobs j
    JOIN (
        SELECT c.id, row_number() OVER (PARTITION BY c.project_id ORDER BY c.run_after, c.seq)
            AS turn
        FROM jobs c
        WHERE c.status = 'pending' AND c.kind = 'consolidate' AND c.run_after <= now()
          AND (%(project_id)s::text IS NULL OR c.project_id = %(project_id)s)
          AND (%(subject_id)s::text IS NULL OR c.subject_id = %(subject_id)s OR c.subject_id IS NULL)
          AND (%(job_id)s::uuid IS NULL OR c.id = %(job_id)s::uuid)
          AND NOT EXISTS (
              SELECT 1 FROM jobs earlier
              WHERE earlier.project_id = c.project_id AND earlier.subject_id = c.subject_id
                AND earlier.status IN ('pending', 'running')
                AND earlier.seq < c.seq)
    ) ranked ON ranked.id = j.id
    WHERE j.status = 'pending'
    ORDER BY ranked.turn, j.run_after, j.seq
    LIMIT %(limit)s
    FOR UPDATE OF j SKIP LOCKED)
RETURNING id, org_id, project_id, subject_id, payload, attempts, run_after, created_at, seq"""

# Locks the row until the job's transaction ends, and stamps when it began.
LOCK_FOR_RUN = """
UPDATE jobs SET started_at = clock_timestamp()
WHERE id = %(id)s AND status = 'running' AND claimed_by = %(worker)s
RETURNING id"""

COMPLETE = """
UPDATE jobs SET status = 'done', finished_at = clock_timestamp(), result = %(result)s, last_error = NULL
WHERE id = %(id)s"""

FAIL = """
UPDATE jobs SET
    status = CASE WHEN attempts >= %(max_attempts)s THEN 'failed' ELSE 'pending' END,
    finished_at = CASE WHEN attempts >= %(max_attempts)s THEN clock_timestamp() END,
    run_after = clock_timestamp() + make_interval(secs => %(delay_s)s),
    last_error = %(error)s,
    claimed_at = NULL,
    claimed_by = NULL
WHERE id = %(id)s AND status = 'running' AND claimed_by = %(worker)s
RETURNING status"""

RECLAIM = """
UPDATE jobs SET
    status = CASE WHEN attempts >= %(max_attempts)s THEN 'failed' ELSE 'pending' END,
    finished_at = CASE WHEN attempts >= %(max_attempts)s THEN clock_timestamp() END,
    last_error = 'claim expired: the worker stopped before finishing',
    claimed_at = NULL,
    claimed_by = NULL
WHERE id IN (
    SELECT id FROM jobs
    WHERE status = 'running' AND claimed_at < now() - make_interval(secs => %(timeout_s)s)
    ORDER BY claimed_at, id
    FOR UPDATE SKIP LOCKED)
RETURNING id"""

# Claims held, oldest first; rows a live worker is running stay locked, so
# they are skipped.
HELD_CLAIMS = """
SELECT id, claimed_by FROM jobs
WHERE status = 'running'
ORDER BY claimed_at, id
FOR UPDATE SKIP LOCKED"""

# The processes connected now, by the name their pool gives every connection
# (storage.db.process_name).
CONNECTED = """
SELECT DISTINCT application_name AS name FROM pg_stat_activity
WHERE application_name LIKE 'haki %'"""

RELEASE = """
UPDATE jobs SET
    status = CASE WHEN attempts >= %(max_attempts)s THEN 'failed' ELSE 'pending' END,
    finished_at = CASE WHEN attempts >= %(max_attempts)s THEN clock_timestamp() END,
    last_error = %(reason)s,
    claimed_at = NULL,
    claimed_by = NULL
WHERE id = ANY(%(ids)s)
RETURNING id"""

LIST_JOBS = """
SELECT id, kind, status, project_id, subject_id, attempts, run_after, claimed_at, claimed_by,
       started_at, finished_at, last_error, result, created_at
FROM jobs
WHERE project_id = %(project_id)s AND (%(status)s::text IS NULL OR status = %(status)s)
ORDER BY seq DESC
LIMIT %(limit)s"""

# A person's retry of a failed job: a fresh set of attempts, now. The last
# error stays until the next run overwrites it.
RETRY = """
UPDATE jobs SET status = 'pending', attempts = 0, run_after = now(), started_at = NULL, finished_at = NULL,
    claimed_at = NULL, claimed_by = NULL
WHERE id = %(id)s AND project_id = %(project_id)s AND status = 'failed'
RETURNING id, kind, status, project_id, subject_id, attempts, run_after, claimed_at, claimed_by,
          started_at, finished_at, last_error, result, created_at"""

COUNT_BY_STATUS = """
SELECT status, count(*) AS n FROM jobs WHERE project_id = %(project_id)s GROUP BY status ORDER BY status"""

# Events carried by a job not yet finished: a backlog sweep skips them.
CARRIED_EVENT_IDS = """
SELECT DISTINCT e.id AS event_id
FROM jobs j, jsonb_array_elements_text(j.payload->'event_ids') AS e(id)
WHERE j.status IN ('pending', 'running')
  AND (%(project_id)s::text IS NULL OR j.project_id = %(project_id)s)"""

ENQUEUE_MANY = """
INSERT INTO jobs (kind, org_id, project_id, subject_id, payload)
SELECT 'consolidate', r.org_id, r.project_id, r.subject_id, r.payload::jsonb
FROM unnest(%(org_id)s::text[], %(project_id)s::text[], %(subject_id)s::text[], %(payload)s::text[])
    WITH ORDINALITY AS r(org_id, project_id, subject_id, payload, n)
ORDER BY r.n
RETURNING id"""

COUNT_CLAIMABLE = """
SELECT count(*) AS n FROM jobs
WHERE status = 'pending' AND run_after <= now()
  AND (%(project_id)s::text IS NULL OR project_id = %(project_id)s)
  AND (%(subject_id)s::text IS NULL OR subject_id = %(subject_id)s OR subject_id IS NULL)"""

# The unfinished jobs a "consolidate now" call answers for: those of the
# scope queued before the call (a subject's scope includes the project's
# jobs that mix several subjects, as CLAIM does).
OPEN_JOBS = """
SELECT id FROM jobs
WHERE status IN ('pending', 'running') AND kind = 'consolidate'
  AND (%(project_id)s::text IS NULL OR project_id = %(project_id)s)
  AND (%(subject_id)s::text IS NULL OR subject_id = %(subject_id)s OR subject_id IS NULL)
  AND (%(job_id)s::uuid IS NULL OR id = %(job_id)s::uuid)
ORDER BY seq"""

JOB_STATES = """
SELECT id, status, claimed_by, claimed_at, run_after, run_after > now() AS backing_off, last_error
FROM jobs WHERE id = ANY(%(ids)s::uuid[])
ORDER BY seq"""

BACKOFF_BASE_S = 2.0
BACKOFF_MAX_S = 600.0


@dataclass(frozen=True, slots=True)
class Job:
    id: UUID
    org_id: str
    project_id: str
    subject_id: str | None
    payload: dict[str, Any]
    attempts: int
    run_after: datetime
    created_at: datetime
    seq: int

    @property
    def event_ids(self) -> list[str]:
        ids = self.payload.get("event_ids")
        return [str(i) for i in ids] if isinstance(ids, list) else []


@dataclass(frozen=True, slots=True)
class JobState:
    """Where one job stands, as a caller waiting for it sees it."""

    id: UUID
    status: str
    claimed_by: str | None
    claimed_at: datetime | None
    run_after: datetime
    backing_off: bool
    last_error: str | None

    @property
    def open(self) -> bool:
        return self.status in ("pending", "running")

    def describe(self) -> str:
        if self.status == "running":
            return f"{self.id} running on worker {self.claimed_by} since {self.claimed_at:%H:%M:%S}"
        if self.backing_off:
            why = f" after: {self.last_error}" if self.last_error else ""
            return f"{self.id} pending, retried at {self.run_after:%H:%M:%S}{why}"
        return f"{self.id} {self.status}"


async def enqueue(
    conn: Connection,
    *,
    project_id: str,
    event_ids: list[UUID | str],
    org_id: str = "default",
    subject_id: str | None = None,
    size: int | None = None,
) -> UUID:
    """Queue one job; ``size``: the bytes of payload its events carry (``jobs.sizing``)."""
    cur = await conn.execute(
        ENQUEUE,
        {
            "org_id": org_id,
            "project_id": project_id,
            "subject_id": subject_id,
            "payload": Jsonb(_payload([str(i) for i in event_ids], size)),
        },
    )
    row = await cur.fetchone()
    assert row is not None
    job_id: UUID = row["id"]
    return job_id


async def claim(
    conn: Connection,
    *,
    worker: str,
    limit: int,
    project_id: str | None = None,
    subject_id: str | None = None,
    job_id: UUID | str | None = None,
) -> list[Job]:
    cur = await conn.execute(
        CLAIM,
        {
            "worker": worker,
            "limit": limit,
            "project_id": project_id,
            "subject_id": subject_id,
            "job_id": str(job_id) if job_id else None,
        },
    )
    return in_turns([Job(**row) for row in await cur.fetchall()])


def in_turns(claimed: list[Job]) -> list[Job]:
    """The claimed jobs in the order CLAIM chose them (RETURNING keeps none):
    every project's first job, then every project's second, and so on, each
    round oldest first. The claimed set is a prefix of that order, so a job's
    rank among its project's claimed jobs is its turn."""
    turn: dict[UUID, int] = {}
    taken: dict[str, int] = {}
    for job in sorted(claimed, key=lambda j: (j.run_after, j.seq)):
        taken[job.project_id] = taken.get(job.project_id, 0) + 1
        turn[job.id] = taken[job.project_id]
    return sorted(claimed, key=lambda j: (turn[j.id], j.run_after, j.seq))


async def lock_for_run(conn: Connection, job: Job, worker: str) -> bool:
    """True while this worker still owns the claim; the row stays locked until commit."""
    cur = await conn.execute(LOCK_FOR_RUN, {"id": job.id, "worker": worker})
    return await cur.fetchone() is not None


async def complete(conn: Connection, job: Job, result: dict[str, Any]) -> None:
    await conn.execute(COMPLETE, {"id": job.id, "result": Jsonb(result)})


async def fail(
    conn: Connection, job: Job, *, worker: str, error: str, max_attempts: int
) -> str | None:
    """Record a failure: back to pending after a backoff, or ``failed`` at the last attempt."""
    cur = await conn.execute(
        FAIL,
        {
            "id": job.id,
            "worker": worker,
            "error": error[:2000],
            "max_attempts": max_attempts,
            "delay_s": backoff_s(job.attempts - 1, base_s=BACKOFF_BASE_S, max_s=BACKOFF_MAX_S),
        },
    )
    row = await cur.fetchone()
    return row["status"] if row else None


async def reclaim(conn: Connection, *, timeout_s: float, max_attempts: int) -> list[UUID]:
    cur = await conn.execute(RECLAIM, {"timeout_s": timeout_s, "max_attempts": max_attempts})
    return [row["id"] for row in await cur.fetchall()]


def claimer(host: str, pid: int, tag: str) -> str:
    """The ``claimed_by`` of a worker: its host and pid say whether it still lives."""
    return f"{host}:{pid}:{tag}"


def claimer_process(claimed_by: str) -> tuple[str, int] | None:
    """The host and pid in a ``claimed_by``, or None if it has none."""
    where, _, rest = claimed_by.partition(":")
    pid = rest.partition(":")[0]
    return (where, int(pid)) if where and pid.isdigit() else None


def claimer_dead(
    claimed_by: str, *, host: str, alive: Callable[[int], bool], connected: set[str] | None
) -> bool:
    """Whether the process that wrote ``claimed_by`` is gone: on this host, its
    pid is not running; on another, it holds no connection to the database
    (``connected``: the names of the connected processes; None when they
    cannot be seen, and then another host's claimer is never judged dead).

    The second rule errs only one way: a live process briefly without a
    connection (its pool reconnecting) loses its queued claims, never a job
    it is running (that row is locked), and its next ``lock_for_run`` sees the
    claim is no longer its own.
    """
    process = claimer_process(claimed_by)
    if process is None:
        return False  # not written by a worker: only the claim timeout frees it
    where, pid = process
    if where == host:
        return not alive(pid)
    return connected is not None and process_name(where, pid) not in connected


async def release_dead_claims(
    conn: Connection, *, host: str, alive: Callable[[int], bool], max_attempts: int
) -> list[UUID]:
    """Give back, at once, the jobs claimed by processes that are dead, on this
    host or any other (``claimer_dead``).

    Without this a killed worker's jobs wait out the claim timeout, and every
    later job of their subjects waits behind them.
    """
    cur = await conn.execute(HELD_CLAIMS)
    held = await cur.fetchall()
    if not held:
        return []
    cur = await conn.execute(CONNECTED)
    names = {row["name"] for row in await cur.fetchall()}
    # A server that hides other sessions' names would make every claimer of
    # another host look dead: the names count only where this process sees
    # its own.
    connected = names if process_name(host) in names else None
    dead = [
        row["id"]
        for row in held
        if claimer_dead(row["claimed_by"], host=host, alive=alive, connected=connected)
    ]
    if not dead:
        return []
    cur = await conn.execute(
        RELEASE,
        {
            "ids": dead,
            "max_attempts": max_attempts,
            "reason": "released: the process that claimed it is dead",
        },
    )
    return [row["id"] for row in await cur.fetchall()]


async def list_jobs(
    conn: Connection, *, project_id: str, status: str | None, limit: int
) -> list[dict[str, Any]]:
    cur = await conn.execute(
        LIST_JOBS, {"project_id": project_id, "status": status, "limit": limit}
    )
    return await cur.fetchall()


async def count_by_status(conn: Connection, project_id: str) -> dict[str, int]:
    cur = await conn.execute(COUNT_BY_STATUS, {"project_id": project_id})
    return {row["status"]: row["n"] for row in await cur.fetchall()}


async def carried_event_ids(conn: Connection, *, project_id: str | None) -> set[str]:
    """Ids of the events that a pending or running job already carries."""
    cur = await conn.execute(CARRIED_EVENT_IDS, {"project_id": project_id})
    return {row["event_id"] for row in await cur.fetchall()}


@dataclass(frozen=True, slots=True)
class NewJob:
    org_id: str
    project_id: str
    subject_id: str | None
    event_ids: tuple[str, ...]
    size: int | None = None  # bytes of payload, when known


def _payload(event_ids: list[str], size: int | None) -> dict[str, Any]:
    payload: dict[str, Any] = {"event_ids": event_ids}
    if size is not None:
        payload["bytes"] = size
    return payload


async def enqueue_many(conn: Connection, new_jobs: Sequence[NewJob]) -> list[UUID]:
    """Queue several consolidation jobs in one statement, in the given order."""
    if not new_jobs:
        return []
    cur = await conn.execute(
        ENQUEUE_MANY,
        {
            "org_id": [j.org_id for j in new_jobs],
            "project_id": [j.project_id for j in new_jobs],
            "subject_id": [j.subject_id for j in new_jobs],
            "payload": [
                orjson.dumps(_payload(list(j.event_ids), j.size)).decode() for j in new_jobs
            ],
        },
    )
    return [row["id"] for row in await cur.fetchall()]


async def count_claimable(
    conn: Connection, *, project_id: str | None = None, subject_id: str | None = None
) -> int:
    cur = await conn.execute(COUNT_CLAIMABLE, {"project_id": project_id, "subject_id": subject_id})
    row = await cur.fetchone()
    return int(row["n"]) if row else 0


async def open_jobs(
    conn: Connection,
    *,
    project_id: str | None = None,
    subject_id: str | None = None,
    job_id: UUID | str | None = None,
) -> list[UUID]:
    cur = await conn.execute(
        OPEN_JOBS,
        {
            "project_id": project_id,
            "subject_id": subject_id,
            "job_id": str(job_id) if job_id else None,
        },
    )
    return [row["id"] for row in await cur.fetchall()]


async def job_states(conn: Connection, ids: list[UUID]) -> list[JobState]:
    cur = await conn.execute(JOB_STATES, {"ids": ids})
    return [JobState(**row) for row in await cur.fetchall()]


async def retry(conn: Connection, *, project_id: str, job_id: UUID) -> dict[str, Any] | None:
    """Put a failed job back in the queue; None when the project has no such failed job."""
    cur = await conn.execute(RETRY, {"id": job_id, "project_id": project_id})
    return await cur.fetchone()
