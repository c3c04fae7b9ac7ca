"""``GET /v1/jobs``: a project's consolidation jobs, failures with their error."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from ... import jobs
from ..auth import PrincipalDep
from ..deps import DbDep
from ..schemas.consolidate import JobListOut, JobOut
from ..schemas.fields import LimitQuery, ProjectQuery

router = APIRouter(tags=["consolidation"])


@router.get("/v1/jobs", summary="List consolidation jobs")
async def list_jobs(
    principal: PrincipalDep,
    db: DbDep,
    project_id: ProjectQuery = None,
    status: Annotated[
        Literal["pending", "running", "done", "failed"] | None,
        Query(description="Only jobs in this status."),
    ] = None,
    limit: LimitQuery = 50,
) -> JobListOut:
    """Newest first, with counts by status for the whole project."""
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        rows = await jobs.list_jobs(conn, project_id=project, status=status, limit=limit)
        counts = await jobs.count_by_status(conn, project)
    return JobListOut(jobs=[JobOut.model_validate(r) for r in rows], counts=counts)
