"""The next jobs' chunks embedded while the current job runs.

A subject's jobs run one after the other (a claim takes a subject's earliest
open job), so a drain of one subject (``POST /v1/consolidate/subject``)
claims one job at a time. Its stages then take turns on the machine: the
model embeds the job's chunks while PostgreSQL and the pipeline wait, then
PostgreSQL writes them (the chunk index's insert), the rules read the turns
and the later stages ask the database, while the model's threads idle.

When a claim returns a single job, the worker reads the job that follows it
(the subject's next pending job, ``NEXT_JOBS``) and embeds that job's chunks
meanwhile (``Worker.prime``, in a task of its own); the next claim finds
them ready. Read-only and optional, as ``prime``: the vectors are a cache
keyed by text, a text's vector does not depend on the call it ran in
(``LocalEmbedder``), so a job that changed since, or another job claimed
instead, costs an embedding, never a different fact. The lookahead starts
once the current job's own chunks are embedded, so no text runs twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from uuid import UUID

from .. import jobs
from ..providers.embed import Embedder
from ..storage import Connection
from .stages import stage

log = logging.getLogger(__name__)

# The next pending job of each (project, subject) given, as ``jobs.claim``
# would take it once the job before it is done. Jobs backing off are left:
# their turn is later.
NEXT_JOBS = """
SELECT DISTINCT ON (j.project_id, j.subject_id)
       j.id, j.org_id, j.project_id, j.subject_id, j.payload, j.attempts, j.run_after, j.created_at, j.seq
FROM jobs j
JOIN unnest(%(projects)s::text[], %(subjects)s::text[]) AS s(project_id, subject_id)
  ON j.project_id = s.project_id AND j.subject_id = s.subject_id
WHERE j.status = 'pending' AND j.kind = 'consolidate' AND j.run_after <= now()
ORDER BY j.project_id, j.subject_id, j.seq"""


async def next_jobs(conn: Connection, running: Sequence[jobs.Job]) -> list[jobs.Job]:
    """The job that follows each of ``running`` in its subject's queue (jobs of one subject only)."""
    keys = sorted({(j.project_id, j.subject_id) for j in running if j.subject_id is not None})
    if not keys:
        return []
    cur = await conn.execute(
        NEXT_JOBS, {"projects": [p for p, _ in keys], "subjects": [s for _, s in keys]}
    )
    return [jobs.Job(**row) for row in await cur.fetchall()]


@dataclass(frozen=True, slots=True)
class Ahead:
    """An embedder primed with the chunks of ``job_ids``."""

    job_ids: frozenset[UUID]
    embedder: Embedder


def covers(ahead: Ahead | None, job_ids: Collection[UUID]) -> bool:
    """Whether ``ahead`` was primed for every one of ``job_ids`` (and there are some)."""
    return ahead is not None and bool(job_ids) and set(job_ids) <= ahead.job_ids


class Lookahead:
    """At most one lookahead at a time: started after a claim, taken by the next."""

    def __init__(self) -> None:
        self._task: asyncio.Task[Ahead | None] | None = None

    def start(
        self,
        following: Callable[[], Awaitable[list[jobs.Job]]],
        prime: Callable[[list[jobs.Job]], Awaitable[Embedder]],
    ) -> None:
        """Read the jobs that follow (``following``) and prime an embedder with their chunks."""
        self.drop()

        async def run() -> Ahead | None:
            # A stage of its own (this task's): it overlaps the job's stages.
            with stage("embedding ahead", inclusive=True):
                try:
                    upcoming = await following()
                    if not upcoming:
                        return None
                    return Ahead(frozenset(j.id for j in upcoming), await prime(upcoming))
                except Exception as exc:  # each job embeds its own chunks then
                    log.info("embedding the next jobs ahead failed: %s", exc)
                    return None

        self._task = asyncio.create_task(run(), name="haki-lookahead")

    async def take(self, job_ids: Collection[UUID]) -> Embedder | None:
        """The embedder primed for ``job_ids``, waiting for it if it is still running;
        None if no lookahead covers them all."""
        task, self._task = self._task, None
        if task is None:
            return None
        ahead = await task
        return ahead.embedder if ahead is not None and covers(ahead, job_ids) else None

    def drop(self) -> None:
        """Forget a lookahead no claim will take (its inference, if running, ends unused)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
