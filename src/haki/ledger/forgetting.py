"""The ledger's part of a forget: its facts, their history and the subject's events.

``disable`` keeps the rows but takes them out of service: facts become
``disabled``, events get ``forgotten_at`` (no route serves them, consolidation
skips them). ``delete`` removes them for good. A fact's source turns (its
``source_event_ids``) go the same way as the fact. ``haki.forget`` calls
these with the other owners' parts, in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from ..errors import NotFound
from ..storage import Connection
from .transitions import ALLOWED, set_status

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

DELETE_SUBJECT_TRANSITIONS = """
DELETE FROM fact_transitions WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

DELETE_SUBJECT_FACTS = """
DELETE FROM facts WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
RETURNING id"""

DELETE_SUBJECT_EVENTS = """
DELETE FROM events WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s"""

HIDE_SUBJECT_EVENTS = """
UPDATE events SET forgotten_at = now()
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s AND forgotten_at IS NULL"""

FACT_SOURCES = """
SELECT subject_id, source_event_ids FROM facts WHERE id = %(id)s AND project_id = %(project_id)s"""

HIDE_EVENTS = """
UPDATE events SET forgotten_at = now()
WHERE project_id = %(project_id)s AND id = ANY(%(ids)s::uuid[]) AND forgotten_at IS NULL"""

DELETE_EVENTS = """
DELETE FROM events WHERE project_id = %(project_id)s AND id = ANY(%(ids)s::uuid[])"""

FACT_STATUS = """
SELECT status FROM facts WHERE id = %(id)s AND project_id = %(project_id)s"""

DELETE_FACT = """
DELETE FROM facts WHERE id = %(fact_id)s AND project_id = %(project_id)s
RETURNING subject_id"""


@dataclass(frozen=True, slots=True)
class SubjectDeleted:
    """What the ledger removed; the ids let the other owners find what referred to them."""

    facts_deleted: int
    events_deleted: int
    event_ids: list[str]
    fact_ids: list[UUID]


async def disable_subject(conn: Connection, *, project_id: str, subject_id: str) -> int:
    """Disable every fact of the subject still in service and withdraw its
    events from service; return how many facts."""
    scope = {"project_id": project_id, "subject_id": subject_id}
    cur = await conn.execute(DISABLE_SUBJECT_FACTS, {**scope, "from": DISABLEABLE})
    await conn.execute(HIDE_SUBJECT_EVENTS, scope)
    return cur.rowcount


@dataclass(frozen=True, slots=True)
class FactSources:
    subject_id: str
    event_ids: list[UUID]


async def fact_sources(conn: Connection, *, project_id: str, fact_id: UUID) -> FactSources:
    """The fact's subject and source turns, read before the fact is forgotten."""
    cur = await conn.execute(FACT_SOURCES, {"id": fact_id, "project_id": project_id})
    row = await cur.fetchone()
    if row is None:
        raise NotFound("fact not found")
    return FactSources(str(row["subject_id"]), list(row["source_event_ids"]))


async def hide_events(conn: Connection, *, project_id: str, event_ids: list[UUID]) -> None:
    """Withdraw events from service (forget, mode disable): kept, never served."""
    if event_ids:
        await conn.execute(HIDE_EVENTS, {"project_id": project_id, "ids": event_ids})


async def delete_events(conn: Connection, *, project_id: str, event_ids: list[UUID]) -> int:
    """Delete events (forget, mode delete); their chunks cascade. Return how many."""
    if not event_ids:
        return 0
    cur = await conn.execute(DELETE_EVENTS, {"project_id": project_id, "ids": event_ids})
    return cur.rowcount


async def forget_subject(conn: Connection, *, project_id: str, subject_id: str) -> SubjectDeleted:
    """Delete the subject's facts, their transitions and its events."""
    scope = {"project_id": project_id, "subject_id": subject_id}
    cur = await conn.execute(SUBJECT_EVENT_IDS, scope)
    event_ids = [str(row["id"]) for row in await cur.fetchall()]
    await conn.execute(DELETE_SUBJECT_TRANSITIONS, scope)
    cur = await conn.execute(DELETE_SUBJECT_FACTS, scope)
    fact_ids = [row["id"] for row in await cur.fetchall()]
    cur = await conn.execute(DELETE_SUBJECT_EVENTS, scope)
    return SubjectDeleted(
        facts_deleted=len(fact_ids),
        events_deleted=cur.rowcount,
        event_ids=event_ids,
        fact_ids=fact_ids,
    )


async def disable_fact(conn: Connection, *, project_id: str, fact_id: UUID) -> int:
    """Disable one fact; 0 when it already was (forgetting twice is not an error)."""
    cur = await conn.execute(FACT_STATUS, {"id": fact_id, "project_id": project_id})
    row = await cur.fetchone()
    if row is not None and row["status"] == "disabled":
        return 0
    await set_status(
        conn, project_id=project_id, fact_id=fact_id, status="disabled", reason="forget"
    )
    return 1


async def forget_fact(conn: Connection, *, project_id: str, fact_id: UUID) -> str:
    """Delete one fact (its history goes with it); return its subject."""
    cur = await conn.execute(DELETE_FACT, {"project_id": project_id, "fact_id": fact_id})
    row = await cur.fetchone()
    if row is None:
        raise NotFound("fact not found")
    return str(row["subject_id"])
