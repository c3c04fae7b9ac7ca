"""Queueing the events that were never chunked (imported, or whose job failed for good)."""

from __future__ import annotations

from itertools import groupby

from .. import jobs
from ..jobs.sizing import JOB_MAX_EVENTS, split_by_size
from ..storage import Connection

# Ordered so that each subject's events come together, oldest first.
UNCHUNKED_EVENTS = """
SELECT e.id::text AS id, e.org_id, e.project_id, e.subject_id,
       octet_length(e.payload::text) AS size
FROM events e
WHERE (%(project_id)s::text IS NULL OR e.project_id = %(project_id)s)
  AND e.forgotten_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM episode_chunks c WHERE c.event_id = e.id)
ORDER BY e.project_id, e.subject_id, e.org_id, e.occurred_at, e.recorded_at, e.id"""


async def enqueue_unconsolidated(
    conn: Connection, *, project_id: str | None, batch: int = JOB_MAX_EVENTS
) -> int:
    """Queue every event with no chunks and no open job, in jobs of at most
    ``batch`` events and within the size bounds (``jobs.sizing``).

    Returns the number of jobs created.
    """
    carried = await jobs.carried_event_ids(conn, project_id=project_id)
    cur = await conn.execute(UNCHUNKED_EVENTS, {"project_id": project_id})
    todo = [row for row in await cur.fetchall() if row["id"] not in carried]
    new_jobs = []
    for (org_id, project, subject_id), rows in groupby(
        todo, key=lambda r: (r["org_id"], r["project_id"], r["subject_id"])
    ):
        mine = list(rows)
        new_jobs += [
            jobs.NewJob(
                org_id,
                project,
                subject_id,
                tuple(mine[i]["id"] for i in piece),
                size=sum(mine[i]["size"] for i in piece),
            )
            for piece in split_by_size([row["size"] for row in mine], max_events=batch)
        ]
    return len(await jobs.enqueue_many(conn, new_jobs))
