"""The context's part of a forget: the traces that served the memory, and feedback on it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from ..storage import Connection

DELETE_SUBJECT_TRACES = """
DELETE FROM context_traces WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
RETURNING id"""

# The oldest traces of a project (retention), a batch at a time; rows another
# transaction holds are left for the next batch.
EXPIRE_TRACES = """
DELETE FROM context_traces WHERE project_id = %(project_id)s AND id IN (
    SELECT id FROM context_traces
    WHERE project_id = %(project_id)s AND created_at < %(before)s
    ORDER BY created_at, id LIMIT %(limit)s FOR UPDATE SKIP LOCKED)"""

DELETE_SUBJECT_FEEDBACK = """
DELETE FROM feedback
WHERE project_id = %(project_id)s
  AND (subject_id = %(subject_id)s OR fact_id = ANY(%(fact_ids)s::uuid[]) OR trace_id = ANY(%(trace_ids)s::uuid[]))"""

DELETE_FACT_FEEDBACK = """
DELETE FROM feedback WHERE project_id = %(project_id)s AND fact_id = %(fact_id)s::uuid"""

# A trace that considered the fact, or served one of its source turns as an
# episode, holds that text in the packet or the decisions: it goes too, or
# the forgotten memory could be read back from it. A trace holds either the
# ``jsonb`` forms or, since migration 0175, the packet as ``json`` and its
# decisions packed (``trace_codec``: each id as its 16 bytes).
DELETE_TRACES_SERVING_FACT = """
DELETE FROM context_traces
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
  AND EXISTS (SELECT 1 FROM unnest(%(ids)s::text[]) AS i(id)
              WHERE strpos(decisions::text, i.id) > 0 OR strpos(packet::text, i.id) > 0
                 OR position(uuid_send(i.id::uuid) IN decision_columns) > 0
                 OR strpos(packet_served::text, i.id) > 0)"""


async def forget_subject(
    conn: Connection, *, project_id: str, subject_id: str, fact_ids: list[UUID]
) -> dict[str, int]:
    """Delete the subject's traces and every feedback on them, on it or on its facts."""
    scope = {"project_id": project_id, "subject_id": subject_id}
    cur = await conn.execute(DELETE_SUBJECT_TRACES, scope)
    trace_ids = [row["id"] for row in await cur.fetchall()]
    await conn.execute(
        DELETE_SUBJECT_FEEDBACK, {**scope, "fact_ids": fact_ids, "trace_ids": trace_ids}
    )
    return {"traces_deleted": len(trace_ids)}


async def forget_fact(
    conn: Connection,
    *,
    project_id: str,
    subject_id: str,
    fact_id: UUID,
    event_ids: Sequence[UUID] = (),
) -> dict[str, int]:
    """Delete the feedback on one fact and the traces that considered it or its source turns."""
    await conn.execute(DELETE_FACT_FEEDBACK, {"project_id": project_id, "fact_id": fact_id})
    ids = [str(fact_id), *(str(e) for e in event_ids)]
    cur = await conn.execute(
        DELETE_TRACES_SERVING_FACT, {"project_id": project_id, "subject_id": subject_id, "ids": ids}
    )
    return {"traces_deleted": cur.rowcount}


async def expire_traces(conn: Connection, *, project_id: str, before: datetime, limit: int) -> int:
    """Delete up to ``limit`` of the project's traces written before ``before``; how many."""
    cur = await conn.execute(
        EXPIRE_TRACES, {"project_id": project_id, "before": before, "limit": limit}
    )
    return cur.rowcount
