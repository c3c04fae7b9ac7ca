"""``/v1/retention``: a project's retention policy and its enforcement receipts."""

from __future__ import annotations

from fastapi import APIRouter

from ...retention import get_policy, list_receipts, set_policy
from ...retention import run_forever as run_retention
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.fields import ProjectQuery
from ..schemas.retention import RetentionIn, RetentionOut
from ..state import AppState

router = APIRouter(tags=["retention"])


@router.get("/v1/retention", summary="Read a project's retention policy")
async def read_retention(
    principal: PrincipalDep, db: DbDep, project_id: ProjectQuery = None
) -> RetentionOut:
    """The policy (null terms: kept for ever) and the latest runs that deleted rows."""
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        policy = await get_policy(conn, project)
        receipts = await list_receipts(conn, project)
    return RetentionOut.of(policy, receipts)


@router.put("/v1/retention", summary="Set a project's retention policy")
async def write_retention(body: RetentionIn, principal: PrincipalDep, db: DbDep) -> RetentionOut:
    """The worker deletes, in batches, events older than `events_days` (aged from the
    later of when they happened and when they were captured, with their episode
    chunks; facts stay) and context traces older than `traces_days`. Null keeps them."""
    project = principal.project(body.project_id)
    async with db.transaction(project_id=project) as conn:
        policy = await set_policy(
            conn, project, events_days=body.events_days, traces_days=body.traces_days
        )
        receipts = await list_receipts(conn, project)
    return RetentionOut.of(policy, receipts)


async def in_process_retention(state: AppState) -> None:
    """Retention enforcement beside the in-process worker (``haki serve``)."""
    settings = state.settings
    await run_retention(
        state.db, interval_s=settings.retention_interval_s, batch=settings.retention_batch
    )
