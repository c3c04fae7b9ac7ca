"""``GET /v1/jobs``: a project's consolidation jobs, failures with their error;
``POST /v1/jobs/{job_id}/retry`` puts a failed one back in the queue."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Path, Query

from ... import jobs
from ...errors import NotFound
from ..auth import PrincipalDep
from ..deps import DbDep
from ..openapi import errors
from ..schemas.consolidate import JobListOut, JobOut, JobRetryIn
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


@router.post("/v1/jobs/{job_id}/retry", responses=errors(404))
async def retry_job(
    job_id: Annotated[UUID, Path(description="The failed job")],
    body: JobRetryIn,
    principal: PrincipalDep,
    db: DbDep,
) -> JobOut:
    """A failed job back to ``pending`` with fresh attempts; the worker runs it next."""
    principal.require(body.project_id)
    async with db.transaction(project_id=body.project_id) as conn:
        row = await jobs.retry(conn, project_id=body.project_id, job_id=job_id)
    if row is None:
        raise NotFound("no failed job with that id in this project", field="job_id")
    return JobOut.model_validate(row)
