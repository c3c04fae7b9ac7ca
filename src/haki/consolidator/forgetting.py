"""The consolidator's part of a forget: episode chunks and conflict sets."""

from __future__ import annotations

from uuid import UUID

from ..storage import Connection

DELETE_SUBJECT_CONFLICT_SETS = """
DELETE FROM conflict_sets WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_SUBJECT_CHUNKS = """
DELETE FROM episode_chunks WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_EVENT_CHUNKS = """
DELETE FROM episode_chunks WHERE project_id = %(project_id)s AND event_id = ANY(%(ids)s::uuid[])"""

DETACH_FACT_FROM_CONFLICTS = """
UPDATE conflict_sets SET fact_ids = array_remove(fact_ids, %(fact_id)s::uuid)
WHERE project_id = %(project_id)s AND %(fact_id)s::uuid = ANY(fact_ids)
RETURNING id"""

# A conflict needs two sides; one left alone no longer means anything.
DELETE_HOLLOW_CONFLICTS = """
DELETE FROM conflict_sets WHERE id = ANY(%(ids)s::uuid[]) AND cardinality(fact_ids) < 2"""


async def forget_subject(conn: Connection, *, project_id: str, subject_id: str) -> dict[str, int]:
    """Delete the subject's conflict sets and chunks (before its events, to count them)."""
    scope = {"project_id": project_id, "subject_id": subject_id}
    conflicts = await conn.execute(DELETE_SUBJECT_CONFLICT_SETS, scope)
    chunks = await conn.execute(DELETE_SUBJECT_CHUNKS, scope)
    return {"conflict_sets_deleted": conflicts.rowcount, "chunks_deleted": chunks.rowcount}


async def forget_fact(conn: Connection, *, project_id: str, fact_id: UUID) -> dict[str, int]:
    """Take a deleted fact out of its conflict sets; drop the sets left with one side."""
    cur = await conn.execute(
        DETACH_FACT_FROM_CONFLICTS, {"project_id": project_id, "fact_id": fact_id}
    )
    touched = [row["id"] for row in await cur.fetchall()]
    cur = await conn.execute(DELETE_HOLLOW_CONFLICTS, {"ids": touched})
    return {"conflict_sets_deleted": cur.rowcount}


async def drop_chunks(
    conn: Connection,
    *,
    project_id: str,
    subject_id: str | None = None,
    event_ids: list[UUID] | None = None,
) -> int:
    """Delete the episode chunks of a subject, or of some events, taken out of service."""
    if subject_id is not None:
        cur = await conn.execute(
            DELETE_SUBJECT_CHUNKS, {"project_id": project_id, "subject_id": subject_id}
        )
        return cur.rowcount
    if not event_ids:
        return 0
    cur = await conn.execute(DELETE_EVENT_CHUNKS, {"project_id": project_id, "ids": event_ids})
    return cur.rowcount
