"""The subjects of a project: who the ledger holds memory about, with counts.

A subject exists once it has an event or a fact (a fact asserted by hand
may come before any event). The listing pages by ``subject_id`` (keyset),
and the counts are computed for the page's subjects only, so a page costs
the same whatever the size of the project.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..storage import Connection
from . import cursor

_TAG = "subjects"

SUBJECTS = """
SELECT s.subject_id,
       (SELECT count(*) FROM events e
         WHERE e.project_id = %(project_id)s AND e.subject_id = s.subject_id) AS events,
       (SELECT count(*) FROM facts f
         WHERE f.project_id = %(project_id)s AND f.subject_id = s.subject_id
           AND f.status = 'active') AS active_facts,
       (SELECT count(*) FROM conflict_sets c
         WHERE c.project_id = %(project_id)s AND c.subject_id = s.subject_id
           AND c.status = 'open') AS open_conflicts,
       greatest(
           (SELECT max(e.recorded_at) FROM events e
             WHERE e.project_id = %(project_id)s AND e.subject_id = s.subject_id),
           (SELECT max(f.recorded_from) FROM facts f
             WHERE f.project_id = %(project_id)s AND f.subject_id = s.subject_id)
       ) AS last_activity
FROM (
    SELECT subject_id FROM events
     WHERE project_id = %(project_id)s AND subject_id > %(after)s
       AND subject_id LIKE %(pattern)s ESCAPE '\\'
    UNION
    SELECT subject_id FROM facts
     WHERE project_id = %(project_id)s AND subject_id > %(after)s
       AND subject_id LIKE %(pattern)s ESCAPE '\\' AND status <> 'deleted'
) s
ORDER BY s.subject_id
LIMIT %(limit)s"""


@dataclass(frozen=True, slots=True)
class SubjectSummary:
    subject_id: str
    events: int
    active_facts: int
    open_conflicts: int
    last_activity: datetime | None


@dataclass(frozen=True, slots=True)
class SubjectPage:
    subjects: list[SubjectSummary]
    next_cursor: str | None


def like_prefix(prefix: str) -> str:
    """A ``LIKE`` pattern matching ``prefix`` literally at the start."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


async def list_subjects(
    conn: Connection,
    *,
    project_id: str,
    prefix: str = "",
    limit: int = 50,
    after: str | None = None,
) -> SubjectPage:
    """One page of subjects in ``subject_id`` order; pass ``next_cursor`` back as ``after``."""
    start = cursor.decode(_TAG, after, 1)[0] if after else ""
    params = {
        "project_id": project_id,
        "after": start,
        "pattern": like_prefix(prefix),
        "limit": limit + 1,
    }
    cur = await conn.execute(SUBJECTS, params)
    rows = await cur.fetchall()
    items = [SubjectSummary(**row) for row in rows[:limit]]
    more = len(rows) > limit
    return SubjectPage(items, cursor.encode(_TAG, items[-1].subject_id) if more else None)
