"""Transaction-scoped advisory locks shared by the services that rewrite a subject.

Lock order, everywhere: a subject's advisory lock comes before any row lock
of that subject's data (job rows, events, chunks, facts). A consolidation job
takes its subjects' locks before it locks its job row; a forget takes the
subject's lock before it deletes anything. Either one waits for the other at
the advisory lock, holding nothing the other needs, so they never deadlock.
"""

from __future__ import annotations

from .db import Connection

LOCK_SUBJECT = "SELECT pg_advisory_xact_lock(hashtext(%(key)s))"


async def lock_subject(conn: Connection, project_id: str, subject_id: str) -> None:
    """Serialise consolidation and forgetting of one subject until the transaction ends."""
    await conn.execute(LOCK_SUBJECT, {"key": f"{project_id}/{subject_id}"})


async def lock_subjects(conn: Connection, project_id: str, subject_ids: list[str]) -> None:
    """Take several subjects' locks in one global order (sorted), so two holders never cross."""
    for subject_id in sorted(set(subject_ids)):
        await lock_subject(conn, project_id, subject_id)
