"""Reading events: one by id, or one subject's timeline.

A timeline always names one subject (never a cross-subject listing) and
is ordered by ``(occurred_at, recorded_at, id)``: business time first,
then system time, then the id so equal instants keep a total order.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from ..errors import InvalidPayload, NotFound
from ..storage import Connection
from . import cursor
from .types import Page

# Every column but the embedding, which readers never need and which costs
# more to decode than the rest of the row.
EVENT_COLUMNS = """
id, org_id, project_id, subject_type, subject_id, actor_type, actor_id, agent_id, thread_id,
run_id, kind, occurred_at, recorded_at, payload, source, classification, hash, idempotency_key,
origin_trust"""

GET_EVENT = f"""
SELECT {EVENT_COLUMNS} FROM events
WHERE id = %(id)s AND project_id = %(project_id)s AND forgotten_at IS NULL"""

# The first page starts after the smallest possible key, so one statement
# (and one plan) serves every page through the timeline index.
TIMELINE = f"""
SELECT {EVENT_COLUMNS} FROM events
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s AND forgotten_at IS NULL
  AND (occurred_at, recorded_at, id) > (%(occurred_at)s::timestamptz, %(recorded_at)s::timestamptz, %(id)s::uuid)
ORDER BY occurred_at, recorded_at, id
LIMIT %(limit)s"""

_START = {"occurred_at": "-infinity", "recorded_at": "-infinity", "id": UUID(int=0)}
_TAG = "timeline"


async def get_event(conn: Connection, *, project_id: str, event_id: UUID) -> dict[str, Any]:
    cur = await conn.execute(GET_EVENT, {"id": event_id, "project_id": project_id})
    row = await cur.fetchone()
    if row is None:
        raise NotFound("event not found")
    return row


def _after(token: str | None) -> dict[str, Any]:
    if token is None:
        return dict(_START)
    occurred_at, recorded_at, event_id = cursor.decode(_TAG, token, 3)
    try:
        return {
            "occurred_at": datetime.fromisoformat(occurred_at),
            "recorded_at": datetime.fromisoformat(recorded_at),
            "id": UUID(event_id),
        }
    except ValueError:
        raise InvalidPayload("cursor: not a cursor of this listing", field="cursor") from None


async def timeline(
    conn: Connection,
    *,
    project_id: str,
    subject_id: str,
    limit: int = 100,
    after: str | None = None,
) -> Page:
    """One page of a subject's events; pass ``next_cursor`` back as ``after``."""
    params = {
        "project_id": project_id,
        "subject_id": subject_id,
        "limit": limit + 1,
        **_after(after),
    }
    cur = await conn.execute(TIMELINE, params)
    rows = await cur.fetchall()
    if len(rows) <= limit:
        return Page(items=rows, next_cursor=None)
    last = rows[limit - 1]
    return Page(
        items=rows[:limit],
        next_cursor=cursor.encode(
            _TAG, last["occurred_at"].isoformat(), last["recorded_at"].isoformat(), last["id"]
        ),
    )
