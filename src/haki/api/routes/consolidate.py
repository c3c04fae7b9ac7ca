"""``POST /v1/consolidate`` and ``/v1/consolidate/subject``: run pending jobs now."""

from __future__ import annotations

from fastapi import APIRouter

from ...consolidator import Worker, run_pending
from ...errors import ForbiddenScope
from ..auth import PrincipalDep
from ..deps import StateDep
from ..schemas.consolidate import ConsolidateIn, ConsolidateOut
from ..schemas.scope import required_scope
from ..state import AppState

router = APIRouter(tags=["consolidation"])


def worker_for(state: AppState) -> Worker:
    return Worker(
        state.db,
        embedder=state.providers.embedder,
        extractor=state.providers.extractor,
        settings=state.settings,
    )


@router.post("/v1/consolidate")
async def consolidate_all(
    principal: PrincipalDep, state: StateDep, body: ConsolidateIn | None = None
) -> ConsolidateOut:
    """Run every claimable job (of one project if given). Admin keys only, or dev mode."""
    body = body or ConsolidateIn()
    if not principal.admin:
        raise ForbiddenScope(
            "running every pending job needs the admin key; use /v1/consolidate/subject"
        )
    principal.require(body.project_id)
    summary = await run_pending(
        worker_for(state), project_id=body.project_id, max_jobs=body.max_jobs
    )
    return ConsolidateOut.of(summary)


@router.post("/v1/consolidate/subject")
async def consolidate_subject(
    principal: PrincipalDep,
    state: StateDep,
    project_id: str | None = None,
    subject_id: str | None = None,
) -> ConsolidateOut:
    """Run the subject's claimable jobs, and the project's jobs that mix several subjects."""
    project = required_scope(project_id, "project_id")
    subject = required_scope(subject_id, "subject_id")
    principal.require(project)
    summary = await run_pending(worker_for(state), project_id=project, subject_id=subject)
    return ConsolidateOut.of(summary)


async def in_process_worker(state: AppState) -> None:
    """The worker ``haki serve`` runs beside the API (``--no-worker`` turns it off)."""
    await worker_for(state).run_forever()
