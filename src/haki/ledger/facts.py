"""Reading facts: one by id, or one subject's facts on both time axes.

``as_of`` asks what was true at a business time (``valid_from``/``valid_to``);
``known_at`` asks what we held as knowledge at a system time
(``recorded_from``/``recorded_to``). Without ``known_at`` the listing uses
current knowledge, which leaves out deleted facts. Disabled facts (out of
service, e.g. forgotten in mode ``disable``) are listed only when asked for
with ``status=disabled``; no other status is filtered unless ``status`` is
given, since a fact superseded today was true back then.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from ..errors import InvalidPayload, NotFound
from ..storage import Connection
from . import cursor
from .types import FactQuery, Page

FACT_COLUMNS = """
id, org_id, project_id, subject_type, subject_id, predicate, value, qualifiers, status,
confidence, version, valid_from, valid_to, recorded_from, recorded_to, supersedes_id,
source_event_ids, fact_kind, volatility, reinforcement_count, last_reinforced_at, origin_trust,
evidence_span, asserted_by, updated_at"""

GET_FACT = f"""
SELECT {FACT_COLUMNS} FROM facts
WHERE id = %(id)s AND project_id = %(project_id)s"""

LIST_FACTS = f"""
SELECT {FACT_COLUMNS} FROM facts
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
  AND (status = %(status)s::text OR (%(status)s::text IS NULL AND status <> 'disabled'))
  AND recorded_from <= coalesce(%(known_at)s::timestamptz, now())
  AND (recorded_to IS NULL OR recorded_to > coalesce(%(known_at)s::timestamptz, now()))
  AND (%(as_of)s::timestamptz IS NULL
       OR ((valid_from IS NULL OR valid_from <= %(as_of)s::timestamptz)
           AND (valid_to IS NULL OR valid_to > %(as_of)s::timestamptz)))
  AND (recorded_from, id) > (%(recorded_from)s::timestamptz, %(id)s::uuid)
ORDER BY recorded_from, id
LIMIT %(limit)s"""

_TAG = "facts"


async def get_fact(conn: Connection, *, project_id: str, fact_id: UUID) -> dict[str, Any]:
    cur = await conn.execute(GET_FACT, {"id": fact_id, "project_id": project_id})
    row = await cur.fetchone()
    if row is None:
        raise NotFound("fact not found")
    return row


def _after(token: str | None) -> dict[str, Any]:
    if token is None:
        return {"recorded_from": "-infinity", "id": UUID(int=0)}
    recorded_from, fact_id = cursor.decode(_TAG, token, 2)
    try:
        return {"recorded_from": datetime.fromisoformat(recorded_from), "id": UUID(fact_id)}
    except ValueError:
        raise InvalidPayload("cursor: not a cursor of this listing", field="cursor") from None


def _aware(moment: datetime | None, field: str) -> None:
    if moment is not None and moment.utcoffset() is None:
        raise InvalidPayload(
            f"{field} must carry a timezone offset, e.g. 2026-01-31T09:00:00Z", field=field
        )


async def list_facts(conn: Connection, query: FactQuery) -> Page:
    """One page of a subject's facts, oldest knowledge first."""
    _aware(query.as_of, "as_of")
    _aware(query.known_at, "known_at")
    params = {
        "project_id": query.project_id,
        "subject_id": query.subject_id,
        "status": query.status,
        "as_of": query.as_of,
        "known_at": query.known_at,
        "limit": query.limit + 1,
        **_after(query.cursor),
    }
    cur = await conn.execute(LIST_FACTS, params)
    rows = await cur.fetchall()
    if len(rows) <= query.limit:
        return Page(items=rows, next_cursor=None)
    last = rows[query.limit - 1]
    token = cursor.encode(_TAG, last["recorded_from"].isoformat(), last["id"])
    return Page(items=rows[: query.limit], next_cursor=token)
