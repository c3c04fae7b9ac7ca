"""Listing open conflict sets and resolving one: keep a fact, or dismiss the candidates.

Resolving activates the kept fact and supersedes every other open member.
Dismissing (a quarantined candidate, or the newcomer of a contradiction
that is simply wrong) disables every candidate member and leaves the other
members as they are; the set is resolved either way, so it no longer
blocks anything.
Lineage always points from the survivor to what it replaced: when the kept
fact has no predecessor yet, its ``supersedes_id`` is set to the latest
member it replaced, the same direction supersession writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from ..errors import ConflictAlreadyResolved, InvalidPayload, NotFound
from ..ledger.transitions import set_status
from ..storage import Connection

LIST_CONFLICTS = """
SELECT c.id, c.project_id, c.subject_type, c.subject_id, c.fact_ids, c.status, c.kind, c.reason,
       c.resolution, c.created_at, c.resolved_at,
       coalesce(
           (SELECT jsonb_agg(jsonb_build_object(
                       'id', f.id, 'predicate', f.predicate, 'value', f.value, 'qualifiers', f.qualifiers,
                       'status', f.status, 'origin_trust', f.origin_trust, 'valid_from', f.valid_from,
                       'source_event_ids', f.source_event_ids)
                   ORDER BY f.valid_from, f.id)
            FROM facts f WHERE f.project_id = c.project_id AND f.id = ANY(c.fact_ids)),
           '[]'::jsonb) AS facts
FROM conflict_sets c
WHERE c.project_id = %(project_id)s
  AND (%(subject_id)s::text IS NULL OR c.subject_id = %(subject_id)s)
  AND (%(status)s::text IS NULL OR c.status = %(status)s)
ORDER BY c.created_at, c.id
LIMIT %(limit)s"""

LOCK_CONFLICT = """
SELECT id, fact_ids, status FROM conflict_sets
WHERE id = %(id)s AND project_id = %(project_id)s
FOR UPDATE"""

MEMBERS = """
SELECT id, status, valid_from, supersedes_id FROM facts
WHERE project_id = %(project_id)s AND id = ANY(%(ids)s)
ORDER BY valid_from, id"""

LINK_PREDECESSOR = """
UPDATE facts SET supersedes_id = %(predecessor)s, updated_at = now()
WHERE id = %(id)s AND project_id = %(project_id)s AND supersedes_id IS NULL"""

CLOSE = """
UPDATE conflict_sets SET status = 'resolved', resolved_at = now(), resolution = %(resolution)s
WHERE id = %(id)s AND project_id = %(project_id)s
RETURNING resolved_at"""

# Statuses a losing member moves out of; superseded, disabled and deleted
# members are already out of the way.
REPLACEABLE = frozenset({"candidate", "active", "disputed"})


async def list_conflicts(
    conn: Connection, *, project_id: str, subject_id: str | None, status: str | None, limit: int
) -> list[dict[str, Any]]:
    cur = await conn.execute(
        LIST_CONFLICTS,
        {"project_id": project_id, "subject_id": subject_id, "status": status, "limit": limit},
    )
    return await cur.fetchall()


def _ended(kept_from: datetime | None, other_from: datetime | None) -> datetime | None:
    """When a losing member stopped being true: when the kept one started, never before it began."""
    if kept_from is None or other_from is None:
        return kept_from
    return max(kept_from, other_from)


async def _lock_open(conn: Connection, project_id: str, conflict_id: UUID) -> dict[str, Any]:
    cur = await conn.execute(LOCK_CONFLICT, {"id": conflict_id, "project_id": project_id})
    conflict = await cur.fetchone()
    if conflict is None:
        raise NotFound("conflict set not found")
    if conflict["status"] != "open":
        raise ConflictAlreadyResolved("this conflict set is already resolved", field="conflict_id")
    return conflict


async def _close(
    conn: Connection, project_id: str, conflict_id: UUID, resolution: dict[str, Any]
) -> dict[str, Any]:
    """Store the resolution; return it with the time the set was closed."""
    cur = await conn.execute(
        CLOSE, {"id": conflict_id, "project_id": project_id, "resolution": Jsonb(resolution)}
    )
    closed = await cur.fetchone()
    assert closed is not None  # the caller locked the set
    return {**resolution, "resolved_at": closed["resolved_at"]}


async def dismiss(
    conn: Connection, *, project_id: str, conflict_id: UUID, reason: str | None = None
) -> dict[str, Any]:
    """Disable every candidate member of an open set and resolve it; return the record."""
    conflict = await _lock_open(conn, project_id, conflict_id)
    cur = await conn.execute(MEMBERS, {"project_id": project_id, "ids": conflict["fact_ids"]})
    dismissed: list[UUID] = []
    for row in await cur.fetchall():
        if row["status"] == "candidate":
            await set_status(
                conn,
                project_id=project_id,
                fact_id=row["id"],
                status="disabled",
                reason=reason or f"dismissed from conflict set {conflict_id}",
            )
            dismissed.append(row["id"])
    resolution = {"dismissed": [str(f) for f in dismissed]}
    return await _close(conn, project_id, conflict_id, resolution)


async def resolve(
    conn: Connection, *, project_id: str, conflict_id: UUID, keep_fact_id: UUID
) -> dict[str, Any]:
    """Keep one member of an open set; return the resolution record."""
    conflict = await _lock_open(conn, project_id, conflict_id)
    if keep_fact_id not in conflict["fact_ids"]:
        raise InvalidPayload(
            "keep_fact_id is not a member of this conflict set", field="keep_fact_id"
        )
    cur = await conn.execute(MEMBERS, {"project_id": project_id, "ids": conflict["fact_ids"]})
    members = {row["id"]: row for row in await cur.fetchall()}
    kept = members.get(keep_fact_id)
    if kept is None or kept["status"] == "deleted":
        raise InvalidPayload("the kept fact no longer exists", field="keep_fact_id")
    superseded: list[UUID] = []
    for fact_id, row in members.items():
        if fact_id != keep_fact_id and row["status"] in REPLACEABLE:
            await set_status(
                conn,
                project_id=project_id,
                fact_id=fact_id,
                status="superseded",
                valid_to=_ended(kept["valid_from"], row["valid_from"]),
            )
            superseded.append(fact_id)
    if kept["status"] != "active":
        await set_status(conn, project_id=project_id, fact_id=keep_fact_id, status="active")
    if superseded and kept["supersedes_id"] is None:
        await conn.execute(
            LINK_PREDECESSOR,
            {"id": keep_fact_id, "project_id": project_id, "predecessor": superseded[-1]},
        )
    resolution = {"keep_fact_id": str(keep_fact_id), "superseded": [str(f) for f in superseded]}
    return await _close(conn, project_id, conflict_id, resolution)
