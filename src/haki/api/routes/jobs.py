"""``GET /v1/jobs``: a project's consolidation jobs, failures with their error."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from ... import jobs
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.consolidate import JobListOut, JobOut
from ..schemas.scope import required_scope

router = APIRouter(tags=["consolidation"])


@router.get("/v1/jobs")
async def list_jobs(
    principal: PrincipalDep,
    db: DbDep,
    project_id: str | None = None,
    status: Literal["pending", "running", "done", "failed"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> JobListOut:
    """Newest first, with counts by status for the whole project."""
    project = required_scope(project_id, "project_id")
    principal.require(project)
    async with db.transaction(project_id=project) as conn:
        rows = await jobs.list_jobs(conn, project_id=project, status=status, limit=limit)
        counts = await jobs.count_by_status(conn, project)
    return JobListOut(jobs=[JobOut.model_validate(r) for r in rows], counts=counts)
