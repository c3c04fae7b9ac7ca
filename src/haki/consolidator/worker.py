"""Running jobs: one at a time per worker, each in its own transaction.

``Worker.run_forever`` is what ``haki worker`` and the in-process worker of
``haki serve`` run; ``run_pending`` drains the queue once (``/v1/consolidate``,
autoconsolidate, ``haki consolidate``). Claiming spans projects, so it runs
without a project; each job then runs in a transaction scoped to its own
project (row-level security).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from uuid import UUID

from .. import jobs
from ..config import Settings
from ..errors import ConsolidationPending, DatabaseUnavailable
from ..observability import metrics, tracing
from ..providers.embed import Embedder
from ..providers.extraction import Extractor
from ..storage import Connection, Database
from ..storage.db import in_space
from ..storage.embedded import pid_alive
from ..storage.locks import lock_subjects
from ..storage.maintenance import refresh_stale_statistics
from ..storage.spaces import SpaceMoved, hold_written_space
from .embedding import PrefetchedEmbedder, embed_texts
from .episodes import event_subjects, load_events, pending_chunks
from .lookahead import Lookahead, next_jobs
from .pipeline import Checkpoint, JobResult, consolidate, no_checkpoint
from .project_spaces import ProjectSpaces
from .stages import stage
from .statistics import refresh_due

# Reads of a project's space before a job gives up (a switch per read).
SPACE_READS = 3

log = logging.getLogger(__name__)

Outcome = Literal["done", "retry", "failed", "lost"]
# Jobs claimed together (at most one per subject, since a subject's jobs run
# in order): their chunks are embedded in one call, which fills inference
# batches far better than one job's turns, then each job runs in its own
# transaction. The price: a worker that dies holding them delays them until
# the claim expires, and charges each an attempt.
CLAIM_BATCH = 8
# The tables consolidation fills, which the context plans read: their
# statistics are refreshed during and after a drain (statistics.refresh_due).
WRITTEN_TABLES = ("episode_chunks", "facts")


@dataclass(frozen=True, slots=True)
class Ran:
    job_id: UUID
    outcome: Outcome
    result: JobResult | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts over the jobs one drain ran (the body of ``POST /v1/consolidate``)."""

    jobs: dict[str, int] = field(default_factory=dict)
    events: int = 0
    chunks: int = 0
    candidates: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, runs: list[Ran]) -> Summary:
        outcomes: Counter[str] = Counter(r.outcome for r in runs)
        rejected: Counter[str] = Counter()
        actions: Counter[str] = Counter()
        done = [r.result for r in runs if r.result is not None]
        for res in done:
            rejected.update(res.rejected)
            actions.update(res.actions)
        return cls(
            jobs=dict(sorted(outcomes.items())),
            events=sum(r.events for r in done),
            chunks=sum(r.chunks for r in done),
            candidates=sum(r.candidates for r in done),
            rejected=dict(sorted(rejected.items())),
            actions=dict(sorted(actions.items())),
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "jobs": self.jobs,
            "events": self.events,
            "chunks": self.chunks,
            "candidates": self.candidates,
            "rejected": self.rejected,
            "actions": self.actions,
        }


@dataclass(frozen=True, slots=True)
class Waited:
    """What a "consolidate now" call answered for: the jobs of its scope queued
    before it, those another worker held (and this call waited for), those that
    ended ``failed``, and how long it waited."""

    jobs: tuple[UUID, ...] = ()
    held_elsewhere: tuple[UUID, ...] = ()
    failed: tuple[UUID, ...] = ()
    waited_ms: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "jobs": [str(i) for i in self.jobs],
            "held_elsewhere": [str(i) for i in self.held_elsewhere],
            "failed": [str(i) for i in self.failed],
            "waited_ms": round(self.waited_ms, 1),
        }


class Worker:
    def __init__(
        self,
        db: Database,
        *,
        embedder: Embedder,
        extractor: Extractor,
        settings: Settings,
        name: str | None = None,
        checkpoint: Checkpoint = no_checkpoint,
        spaces: ProjectSpaces | None = None,
    ):
        self.db = db
        self.embedder = embedder
        # Each project's embedding space (its job runs in it); None: every
        # project in this process's space.
        self.spaces = spaces
        self.extractor = extractor
        self.settings = settings
        # Called between the stages of each job, inside its transaction
        # (``pipeline.consolidate``); tests pause there to race or kill a job.
        self.checkpoint = checkpoint
        self.host = socket.gethostname()
        self.name = name or jobs.claimer(self.host, os.getpid(), uuid.uuid4().hex[:6])
        self._released_at: float | None = None
        # When this worker last checked the written tables' statistics, and
        # whether a job finished since (statistics.refresh_due).
        self._analysed_at: float | None = None
        self._wrote = False
        self._ahead = Lookahead()

    async def prime(self, claimed: list[jobs.Job]) -> Embedder:
        """An embedder primed with the vectors of every chunk the claimed jobs
        will write, computed in one call: a few jobs' turns fill inference
        batches far better than one job's. A lone job is primed too, so that
        the next job's chunks, embedded ahead while it runs (``lookahead``),
        never race its own for a text they share.

        Read-only and optional: if reading or inference fails, the plain
        embedder comes back, and each job meets (and records) the error itself.
        Each job still reads and chunks its events again in its own
        transaction (cheap next to inference): the primed vectors are only a
        cache keyed by text, so anything that changed in between costs an
        embedding, never correctness.
        """
        texts: list[str] = []
        try:
            for project_id in sorted({j.project_id for j in claimed}):
                ids = [i for j in claimed if j.project_id == project_id for i in j.event_ids]
                async with self.db.transaction(project_id=project_id) as conn:
                    events = await load_events(conn, project_id, ids)
                    texts.extend(c.text for _, c in await pending_chunks(conn, events))
            unique = list(dict.fromkeys(texts))
            vectors = await embed_texts(self.embedder, unique)
        except Exception as exc:
            log.info("embedding claimed jobs ahead failed, each job embeds its own chunks: %s", exc)
            return self.embedder
        return PrefetchedEmbedder(self.embedder, unique, vectors)

    async def space_of(self, project_id: str) -> tuple[int | None, Embedder]:
        """The space and embedder a project's job runs with."""
        if self.spaces is None:
            return None, self.embedder
        return await self.spaces.for_project(project_id)

    async def run_job(self, job: jobs.Job, embedder: Embedder | None = None) -> Ran:
        """Run one claimed job, timed and counted by outcome, in a span."""
        start = time.perf_counter()
        attributes = {"haki.job_id": str(job.id), "haki.project_id": job.project_id}
        with tracing.span("haki.consolidate.job", attributes) as span:
            ran = await self._run_job(job, embedder)
            if span is not None:
                span.set_attribute("haki.job_outcome", ran.outcome)
        metrics.observe_job(ran.outcome, time.perf_counter() - start)
        return ran

    async def _run_job(self, job: jobs.Job, embedder: Embedder | None) -> Ran:
        """The job in its project's space; ``embedder``: one primed for this
        process's space (``prime``), used if the project is in it."""
        try:
            for _ in range(SPACE_READS):
                space, own = await self.space_of(job.project_id)
                chosen = embedder if own is self.embedder and embedder else own
                try:
                    with in_space(space):
                        return await self._run(job, chosen, space)
                except SpaceMoved:
                    # A switch committed between the read and the job's
                    # transaction: read the space again, embed in the new one.
                    continue
            raise SpaceMoved(job.project_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # any failure is recorded on the job, never lost
            log.warning("job %s failed (attempt %d): %s", job.id, job.attempts, exc)
            return Ran(job.id, await self._record_failure(job, f"{type(exc).__name__}: {exc}"))

    async def _run(self, job: jobs.Job, embedder: Embedder, space: int | None) -> Ran:
        async with self.db.transaction(project_id=job.project_id) as conn:
            # The project's space first (a switch takes it before any row
            # lock), held to the commit: the job's vectors are stamped with
            # the space they were embedded in, and no switch lands between.
            await hold_written_space(conn, job.project_id, space, self.db.embedding_space)
            # The subjects' locks before the job row (storage.locks: one
            # order), so a forget of a subject never deadlocks with its job.
            subjects = (
                [job.subject_id]
                if job.subject_id
                else await event_subjects(conn, job.project_id, job.event_ids)
            )
            await lock_subjects(conn, job.project_id, subjects)
            if not await jobs.lock_for_run(conn, job, self.name):
                return Ran(job.id, "lost")
            result = await consolidate(
                conn,
                project_id=job.project_id,
                event_ids=job.event_ids,
                embedder=embedder,
                extractor=self.extractor,
                checkpoint=self.checkpoint,
            )
            await jobs.complete(conn, job, result.as_json())
        return Ran(job.id, "done", result)

    async def _record_failure(self, job: jobs.Job, error: str) -> Outcome:
        try:
            async with self.db.transaction(project_id=job.project_id) as conn:
                status = await jobs.fail(
                    conn,
                    job,
                    worker=self.name,
                    error=error,
                    max_attempts=self.settings.job_max_attempts,
                )
        except DatabaseUnavailable:
            return "retry"  # the claim expires and the job is reclaimed
        return "failed" if status == "failed" else "retry"

    async def claim(
        self,
        *,
        limit: int = CLAIM_BATCH,
        project_id: str | None = None,
        subject_id: str | None = None,
        job_id: UUID | str | None = None,
    ) -> list[jobs.Job]:
        async with self.db.transaction() as conn:
            await self._release_dead_claims(conn)
            await jobs.reclaim(
                conn,
                timeout_s=self.settings.job_claim_timeout_s,
                max_attempts=self.settings.job_max_attempts,
            )
            return await jobs.claim(
                conn,
                worker=self.name,
                limit=limit,
                project_id=project_id,
                subject_id=subject_id,
                job_id=job_id,
            )

    async def _release_dead_claims(self, conn: Connection) -> None:
        """On the first claim, then every ``job_release_interval_s``: the jobs a dead process
        claimed, on this host or another, go back to the queue now, not after the claim
        timeout."""
        now = time.monotonic()
        every = self.settings.job_release_interval_s
        if self._released_at is not None and now - self._released_at < every:
            return
        self._released_at = now
        released = await jobs.release_dead_claims(
            conn, host=self.host, alive=pid_alive, max_attempts=self.settings.job_max_attempts
        )
        if released:
            log.warning(
                "released %d job(s) claimed by dead processes: %s",
                len(released),
                ", ".join(str(i) for i in released),
            )

    async def run_claimed(
        self, claimed: list[jobs.Job], on_job: Callable[[Ran], None] | None = None
    ) -> list[Ran]:
        """Run claimed jobs in claim order, each in its own transaction; the
        statistics of the tables they wrote are brought up to date when due
        (more jobs may follow: ``settle`` once the queue is empty)."""
        own = await self._in_own_space(claimed)
        embedder = await self._ahead.take([j.id for j in own]) or (
            await self.prime(own) if own else self.embedder
        )
        if len(claimed) == 1 and own:
            # One job claimed: its subject's jobs run one by one; the next
            # one's chunks are embedded while this one runs (``lookahead``).
            self._ahead.start(lambda: self._following(own), self.prime)
        runs: list[Ran] = []
        for job in claimed:
            runs.append(await self.run_job(job, embedder))
            if on_job is not None:
                on_job(runs[-1])
        self._wrote = self._wrote or any(run.outcome == "done" for run in runs)
        await self._refresh_statistics(draining=True)
        return runs

    async def _in_own_space(self, claimed: list[jobs.Job]) -> list[jobs.Job]:
        """The jobs of projects in this process's space: priming embeds in it only."""
        own: list[jobs.Job] = []
        for job in claimed:
            try:
                if (await self.space_of(job.project_id))[1] is self.embedder:
                    own.append(job)
            except Exception as exc:  # the job meets (and records) it when it runs
                log.info("project %s's embedding space: %s", job.project_id, exc)
        return own

    async def _following(self, running: list[jobs.Job]) -> list[jobs.Job]:
        """The jobs that follow ``running`` in their subjects' queues, in this process's space."""
        async with self.db.transaction() as conn:
            upcoming = await next_jobs(conn, running)
        return await self._in_own_space(upcoming)

    async def settle(self) -> None:
        """The queue is empty: bring the written tables' statistics up to date now."""
        self.drop_lookahead()
        await self._refresh_statistics(draining=False)

    def drop_lookahead(self) -> None:
        """Forget the next jobs' vectors being computed: no claim of this drain will take them."""
        self._ahead.drop()

    async def _refresh_statistics(self, *, draining: bool) -> None:
        now = time.monotonic()
        if not refresh_due(
            wrote=self._wrote, draining=draining, last_at=self._analysed_at, now=now
        ):
            return
        self._analysed_at, self._wrote = now, False
        with stage("maintenance", inclusive=True):
            await refresh_stale_statistics(self.db, WRITTEN_TABLES)

    async def run_batch(self, **filters: Any) -> list[Ran]:
        return await self.run_claimed(await self.claim(**filters))

    async def run_forever(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        log.info("worker %s started", self.name)
        try:
            while not stop.is_set():
                try:
                    ran = await self.run_batch()
                except DatabaseUnavailable:
                    ran = []
                if not ran:
                    await self.settle()  # never fails: the refresh is best effort
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(
                            stop.wait(), timeout=self.settings.job_poll_interval_s
                        )
        finally:
            self.drop_lookahead()


async def run_pending(
    worker: Worker,
    *,
    project_id: str | None = None,
    subject_id: str | None = None,
    job_id: UUID | str | None = None,
    max_jobs: int | None = None,
    on_job: Callable[[Ran], None] | None = None,
) -> Summary:
    """Run claimable jobs now until none is left (or ``max_jobs``); jobs backing off are left."""
    runs: list[Ran] = []
    try:
        while max_jobs is None or len(runs) < max_jobs:
            limit = CLAIM_BATCH if max_jobs is None else min(CLAIM_BATCH, max_jobs - len(runs))
            claimed = await worker.claim(
                limit=limit, project_id=project_id, subject_id=subject_id, job_id=job_id
            )
            if not claimed:
                break
            runs.extend(await worker.run_claimed(claimed, on_job))
        await worker.settle()
    finally:
        worker.drop_lookahead()  # ``max_jobs`` reached, or an error
    return Summary.of(runs)


# Polling a job another worker holds: start short (most jobs take tens of
# milliseconds), back off to a ceiling so a long job costs few queries.
WAIT_POLL_FIRST_S = 0.02
WAIT_POLL_MAX_S = 0.25


async def run_until_done(
    worker: Worker,
    *,
    timeout_s: float,
    project_id: str | None = None,
    subject_id: str | None = None,
    job_id: UUID | str | None = None,
) -> tuple[Summary, Waited]:
    """Run the scope's jobs now and wait for those another worker holds.

    On return every job of the scope that was pending or running when the
    call began is finished (``done``, or ``failed`` for good). Raises
    ``ConsolidationPending`` naming what is left when a job is still held
    elsewhere after ``timeout_s``, or is backing off after a failure (waiting
    would not finish it: its retry is scheduled later).
    """
    started = time.monotonic()
    async with worker.db.transaction() as conn:
        queued = await jobs.open_jobs(
            conn, project_id=project_id, subject_id=subject_id, job_id=job_id
        )
    runs: list[Ran] = []
    held: dict[UUID, None] = {}
    poll = WAIT_POLL_FIRST_S
    open_before, idle = len(queued), 0
    while True:
        claimed_before = len(runs)
        # The whole scope, not only the queued ids: a queued job of a subject
        # cannot start before that subject's earlier jobs.
        try:
            while claimed := await worker.claim(
                project_id=project_id, subject_id=subject_id, job_id=job_id
            ):
                runs.extend(await worker.run_claimed(claimed))
        finally:
            worker.drop_lookahead()  # the scope is drained, or an error ends the call
        await worker.settle()
        async with worker.db.transaction() as conn:
            states = await jobs.job_states(conn, queued)
        left = [s for s in states if s.open]
        running = [s for s in left if s.status == "running"]
        held.update((s.id, None) for s in running)
        elapsed = time.monotonic() - started
        if not left:
            break
        # Nothing running and nothing moved: left jobs are backing off, or
        # wait behind one that is. A pending job that simply became claimable
        # since the claim above gets one more round.
        moved = len(runs) > claimed_before or len(left) < open_before
        idle = 0 if running or moved else idle + 1
        open_before = len(left)
        stuck = not running and (all(s.backing_off for s in left) or idle >= 2)
        if stuck or elapsed >= timeout_s:
            what = "; ".join(s.describe() for s in left)
            raise ConsolidationPending(
                f"{len(left)} of the {len(queued)} jobs queued before this call "
                f"{'are' if len(left) > 1 else 'is'} not finished after {elapsed:.1f} s: {what}",
                headers={"Retry-After": "1" if running else "5"},
            )
        await asyncio.sleep(min(poll, max(0.0, timeout_s - elapsed)))
        poll = min(poll * 2, WAIT_POLL_MAX_S)
    ours = {r.job_id for r in runs}
    waited = Waited(
        jobs=tuple(queued),
        held_elsewhere=tuple(i for i in held if i not in ours),
        failed=tuple(s.id for s in states if s.status == "failed"),
        waited_ms=(time.monotonic() - started) * 1000,
    )
    return Summary.of(runs), waited
