"""What forgetting a subject removes from the job queue."""

from __future__ import annotations

from ..storage import Connection

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


async def forget_subject(
    conn: Connection, *, project_id: str, subject_id: str, event_ids: list[str]
) -> None:
    """Remove the subject's jobs and every mention of its (already deleted) events."""
    params = {"project_id": project_id, "subject_id": subject_id, "event_ids": event_ids}
    await conn.execute(DELETE_SUBJECT_JOBS, params)
    await forget_events(conn, project_id=project_id, event_ids=event_ids)


async def forget_events(conn: Connection, *, project_id: str, event_ids: list[str]) -> None:
    """Scrub deleted events out of the jobs that mention them; drop the jobs left empty."""
    if not event_ids:
        return
    cur = await conn.execute(SCRUB_JOBS, {"project_id": project_id, "event_ids": event_ids})
    scrubbed = [row["id"] for row in await cur.fetchall()]
    await conn.execute(DELETE_EMPTIED_JOBS, {"job_ids": scrubbed})
