"""``POST /v1/consolidate`` and ``/v1/consolidate/subject``: consolidate now.

When either call returns 200, every job of its scope queued before the call
is finished, including the ones another worker (the in-process worker, a
``haki worker``) was running: the call waits for those, up to
``HAKI_CONSOLIDATE_WAIT_S``, then answers ``409 consolidation_pending``
naming the jobs still unfinished.
"""

from __future__ import annotations

from fastapi import APIRouter

from ...consolidator import Worker, run_pending, run_until_done
from ...errors import ForbiddenScope
from ..auth import PrincipalDep
from ..deps import StateDep
from ..openapi import errors
from ..schemas.consolidate import ConsolidateIn, ConsolidateOut
from ..schemas.fields import ProjectQuery, SubjectQuery
from ..state import AppState

router = APIRouter(tags=["consolidation"])

ERRORS = errors(
    409,
    502,
    notes={
        409: "`consolidation_pending`: jobs queued before the call are still running "
        "elsewhere after HAKI_CONSOLIDATE_WAIT_S, or are backing off after a failure "
        "(the message names them)"
    },
)


def worker_for(state: AppState) -> Worker:
    return Worker(
        state.db,
        embedder=state.providers.embedder,
        extractor=state.providers.extractor,
        settings=state.settings,
        spaces=state.spaces,
    )


@router.post(
    "/v1/consolidate",
    summary="Run pending consolidation jobs",
    responses=ERRORS,
)
async def consolidate_all(
    principal: PrincipalDep, state: StateDep, body: ConsolidateIn | None = None
) -> ConsolidateOut:
    """Run every job (of one project if given) and wait for those held elsewhere.

    Admin keys only, or dev mode. With ``max_jobs`` it runs at most that many
    claimable jobs and waits for nothing.
    """
    body = body or ConsolidateIn()
    if not principal.admin:
        raise ForbiddenScope(
            "running every pending job needs the admin key; use /v1/consolidate/subject"
        )
    principal.require(body.project_id)  # the admin key: any project, or all of them
    if body.max_jobs is not None:
        summary = await run_pending(
            worker_for(state), project_id=body.project_id, max_jobs=body.max_jobs
        )
        return ConsolidateOut.of(summary)
    summary, waited = await run_until_done(
        worker_for(state),
        project_id=body.project_id,
        timeout_s=state.settings.consolidate_wait_s,
    )
    return ConsolidateOut.of(summary, waited)


@router.post(
    "/v1/consolidate/subject",
    summary="Run one subject's pending consolidation jobs",
    responses=ERRORS,
)
async def consolidate_subject(
    principal: PrincipalDep,
    state: StateDep,
    subject_id: SubjectQuery,
    project_id: ProjectQuery = None,
) -> ConsolidateOut:
    """Finish the subject's jobs (and the project's jobs that mix several subjects)
    queued before the call: run them here, or wait for the worker holding them."""
    project = principal.project(project_id)
    summary, waited = await run_until_done(
        worker_for(state),
        project_id=project,
        subject_id=subject_id,
        timeout_s=state.settings.consolidate_wait_s,
    )
    return ConsolidateOut.of(summary, waited)


async def in_process_worker(state: AppState) -> None:
    """The worker ``haki serve`` runs beside the API (``--no-worker`` turns it off)."""
    await worker_for(state).run_forever()
