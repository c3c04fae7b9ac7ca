"""Forgetting a subject or one fact, with a receipt that holds counts only.

``disable`` keeps the rows but takes facts out of service (status
``disabled``). ``delete`` removes them for good: for a subject, every row
of that subject in every table; for a fact, the row, its history, its
place in conflict sets, the feedback on it and the traces that served it.

The receipt never stores content. For a subject it keeps only
``sha256:`` of the subject id, so the receipt can confirm that a given
subject was forgotten without keeping the identifier itself.
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from ..errors import InvalidPayload, NotFound
from ..storage import Connection
from ..storage.locks import lock_subject
from .transitions import ALLOWED, set_status
from .types import ForgetReceipt, ForgetRequest

# Every status from which the lifecycle allows ``disabled``: a disputed fact
# could otherwise come back into service after the subject was disabled.
DISABLEABLE = sorted(status for status, targets in ALLOWED.items() if "disabled" in targets)

DISABLE_SUBJECT_FACTS = """
WITH target AS (
    SELECT id, status FROM facts
    WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s AND status = ANY(%(from)s::text[])
    ORDER BY id
    FOR UPDATE
), changed AS (
    UPDATE facts f SET status = 'disabled', version = f.version + 1, updated_at = now()
    FROM target t WHERE f.id = t.id
    RETURNING f.org_id, f.project_id, f.subject_id, f.id, t.status AS from_status, f.version
)
INSERT INTO fact_transitions (org_id, project_id, subject_id, fact_id, from_status, to_status, version, reason)
SELECT org_id, project_id, subject_id, id, from_status, 'disabled', version, 'forget' FROM changed"""

SUBJECT_EVENT_IDS = """
SELECT id FROM events WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_SUBJECT_TRACES = """
DELETE FROM context_traces WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
RETURNING id"""

DELETE_SUBJECT_FACTS = """
DELETE FROM facts WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
RETURNING id"""

DELETE_SUBJECT_CONFLICT_SETS = """
DELETE FROM conflict_sets WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_SUBJECT_CHUNKS = """
DELETE FROM episode_chunks WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_SUBJECT_EVENTS = """
DELETE FROM events WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_SUBJECT_FEEDBACK = """
DELETE FROM feedback
WHERE project_id = %(project_id)s
  AND (subject_id = %(subject_id)s OR fact_id = ANY(%(fact_ids)s::uuid[]) OR trace_id = ANY(%(trace_ids)s::uuid[]))"""

DELETE_SUBJECT_TRANSITIONS = """
DELETE FROM fact_transitions WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_SUBJECT_ALIASES = """
DELETE FROM subject_aliases
WHERE project_id = %(project_id)s AND (subject_id = %(subject_id)s OR alias = %(subject_id)s)"""

# Finished jobs that mention the subject's events are history: drop them.
# Pending or running ones may carry other subjects' events too: scrub ours
# out of their payload, and drop those left with nothing to do.
DELETE_SUBJECT_JOBS = """
DELETE FROM jobs
WHERE project_id = %(project_id)s
  AND (subject_id = %(subject_id)s
       OR (status IN ('done', 'failed') AND payload->'event_ids' ?| %(event_ids)s::text[]))"""

SCRUB_JOBS = """
UPDATE jobs SET payload = jsonb_set(payload, '{event_ids}', coalesce(
    (SELECT jsonb_agg(e ORDER BY n) FROM jsonb_array_elements(payload->'event_ids') WITH ORDINALITY AS x(e, n)
     WHERE NOT (e #>> '{}') = ANY(%(event_ids)s::text[])), '[]'::jsonb))
WHERE project_id = %(project_id)s AND payload->'event_ids' ?| %(event_ids)s::text[]
RETURNING id"""

DELETE_EMPTIED_JOBS = """
DELETE FROM jobs WHERE id = ANY(%(job_ids)s::uuid[]) AND payload->'event_ids' = '[]'::jsonb"""

FACT_STATUS = """
SELECT status FROM facts WHERE id = %(id)s AND project_id = %(project_id)s"""

DELETE_FACT = """
DELETE FROM facts WHERE id = %(fact_id)s AND project_id = %(project_id)s
RETURNING subject_id"""

DETACH_FACT_FROM_CONFLICTS = """
UPDATE conflict_sets SET fact_ids = array_remove(fact_ids, %(fact_id)s::uuid)
WHERE project_id = %(project_id)s AND %(fact_id)s::uuid = ANY(fact_ids)
RETURNING id"""

# A conflict needs two sides; one left alone no longer means anything.
DELETE_HOLLOW_CONFLICTS = """
DELETE FROM conflict_sets WHERE id = ANY(%(ids)s::uuid[]) AND cardinality(fact_ids) < 2"""

DELETE_FACT_FEEDBACK = """
DELETE FROM feedback WHERE project_id = %(project_id)s AND fact_id = %(fact_id)s::uuid"""

# A trace that considered the fact holds its value in the packet or the
# decisions: it goes too, or the fact could be read back from it.
DELETE_TRACES_SERVING_FACT = """
DELETE FROM context_traces
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
  AND (strpos(decisions::text, %(fact_text)s) > 0 OR strpos(packet::text, %(fact_text)s) > 0)"""

INSERT_RECEIPT = """
INSERT INTO forget_receipts (project_id, subject_id, fact_id, mode, counts)
VALUES (%(project_id)s, %(subject_ref)s, %(fact_id)s, %(mode)s, %(counts)s)
RETURNING id, created_at"""

COUNTERS = (
    "facts_disabled",
    "facts_deleted",
    "events_deleted",
    "chunks_deleted",
    "traces_deleted",
    "conflict_sets_deleted",
)


def subject_reference(subject_id: str) -> str:
    return "sha256:" + hashlib.sha256(subject_id.encode("utf-8")).hexdigest()


async def _rowcount(conn: Connection, sql: str, params: dict[str, Any]) -> int:
    cur = await conn.execute(sql, params)
    return cur.rowcount


async def _ids(conn: Connection, sql: str, params: dict[str, Any]) -> list[UUID]:
    cur = await conn.execute(sql, params)
    return [row["id"] for row in await cur.fetchall()]


async def _disable_subject(conn: Connection, scope: dict[str, Any]) -> dict[str, int]:
    return {
        "facts_disabled": await _rowcount(
            conn, DISABLE_SUBJECT_FACTS, {**scope, "from": DISABLEABLE}
        )
    }


async def _delete_subject(conn: Connection, scope: dict[str, Any]) -> dict[str, int]:
    event_ids = [str(i) for i in await _ids(conn, SUBJECT_EVENT_IDS, scope)]
    trace_ids = await _ids(conn, DELETE_SUBJECT_TRACES, scope)
    await _rowcount(conn, DELETE_SUBJECT_TRANSITIONS, scope)
    fact_ids = await _ids(conn, DELETE_SUBJECT_FACTS, scope)
    counts = {
        "facts_deleted": len(fact_ids),
        "traces_deleted": len(trace_ids),
        "conflict_sets_deleted": await _rowcount(conn, DELETE_SUBJECT_CONFLICT_SETS, scope),
        "chunks_deleted": await _rowcount(conn, DELETE_SUBJECT_CHUNKS, scope),
        "events_deleted": await _rowcount(conn, DELETE_SUBJECT_EVENTS, scope),
    }
    await _rowcount(
        conn, DELETE_SUBJECT_FEEDBACK, {**scope, "fact_ids": fact_ids, "trace_ids": trace_ids}
    )
    await _rowcount(conn, DELETE_SUBJECT_ALIASES, scope)
    jobs = {**scope, "event_ids": event_ids}
    await _rowcount(conn, DELETE_SUBJECT_JOBS, jobs)
    if event_ids:
        scrubbed = await _ids(conn, SCRUB_JOBS, jobs)
        await _rowcount(conn, DELETE_EMPTIED_JOBS, {"job_ids": scrubbed})
    return counts


async def _disable_fact(conn: Connection, project_id: str, fact_id: UUID) -> dict[str, int]:
    cur = await conn.execute(FACT_STATUS, {"id": fact_id, "project_id": project_id})
    row = await cur.fetchone()
    if row is not None and row["status"] == "disabled":
        return {"facts_disabled": 0}  # forgetting twice is not an error
    await set_status(
        conn, project_id=project_id, fact_id=fact_id, status="disabled", reason="forget"
    )
    return {"facts_disabled": 1}


async def _delete_fact(conn: Connection, project_id: str, fact_id: UUID) -> dict[str, int]:
    params = {"project_id": project_id, "fact_id": fact_id}
    cur = await conn.execute(DELETE_FACT, params)
    row = await cur.fetchone()
    if row is None:
        raise NotFound("fact not found")
    touched = await _ids(conn, DETACH_FACT_FROM_CONFLICTS, params)
    await _rowcount(conn, DELETE_FACT_FEEDBACK, params)
    traces = {"project_id": project_id, "subject_id": row["subject_id"], "fact_text": str(fact_id)}
    return {
        "facts_deleted": 1,
        "conflict_sets_deleted": await _rowcount(conn, DELETE_HOLLOW_CONFLICTS, {"ids": touched}),
        "traces_deleted": await _rowcount(conn, DELETE_TRACES_SERVING_FACT, traces),
    }


async def forget(conn: Connection, request: ForgetRequest) -> ForgetReceipt:
    """Disable or delete a subject's memory or one fact; store and return the receipt."""
    if (request.subject_id is None) == (request.fact_id is None):
        raise InvalidPayload("give exactly one of subject_id and fact_id", field="subject_id")
    if request.subject_id is not None:
        if not request.subject_id.strip():
            raise InvalidPayload("subject_id must not be empty", field="subject_id")
        scope = {"project_id": request.project_id, "subject_id": request.subject_id}
        # A consolidation job of this subject either finishes first or
        # starts after the subject is gone; it never re-creates facts midway.
        await lock_subject(conn, request.project_id, request.subject_id)
        run = _delete_subject if request.mode == "delete" else _disable_subject
        done = await run(conn, scope)
    else:
        assert request.fact_id is not None
        run_fact = _delete_fact if request.mode == "delete" else _disable_fact
        done = await run_fact(conn, request.project_id, request.fact_id)
    counts = {name: done.get(name, 0) for name in COUNTERS}
    cur = await conn.execute(
        INSERT_RECEIPT,
        {
            "project_id": request.project_id,
            "subject_ref": subject_reference(request.subject_id)
            if request.subject_id is not None
            else None,
            "fact_id": request.fact_id,
            "mode": request.mode,
            "counts": Jsonb(counts),
        },
    )
    receipt = await cur.fetchone()
    assert receipt is not None
    return ForgetReceipt(
        forget_id=receipt["id"],
        mode=request.mode,
        project_id=request.project_id,
        subject_id=request.subject_id,
        fact_id=request.fact_id,
        created_at=receipt["created_at"],
        counts=counts,
    )
