"""Transaction-scoped advisory locks shared by the services that rewrite a subject."""

from __future__ import annotations

from .db import Connection

LOCK_SUBJECT = "SELECT pg_advisory_xact_lock(hashtext(%(key)s))"


async def lock_subject(conn: Connection, project_id: str, subject_id: str) -> None:
    """Serialise consolidation and forgetting of one subject until the transaction ends."""
    await conn.execute(LOCK_SUBJECT, {"key": f"{project_id}/{subject_id}"})
