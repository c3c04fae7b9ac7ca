"""``GET /v1/subjects`` and ``GET /v1/traces``: what a project holds memory about, and
the context calls it answered — the listings a console or a script starts from."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ...context.trace import list_traces
from ...ledger.subjects import list_subjects
from ..auth import PrincipalDep
from ..deps import DbDep, TracesDep
from ..schemas.fields import CursorQuery, Identifier, ProjectQuery, Text
from ..schemas.subjects import SubjectOut, SubjectPageOut, TracePageOut, TraceSummaryOut

router = APIRouter(tags=["subjects"])


@router.get("/v1/subjects")
async def subjects(
    principal: PrincipalDep,
    db: DbDep,
    project_id: ProjectQuery = None,
    prefix: Annotated[Text, Query(max_length=256, description="Subject ids starting with")] = "",
    limit: Annotated[int, Query(ge=1, le=500, description="Page size")] = 50,
    cursor: CursorQuery = None,
) -> SubjectPageOut:
    """Subjects with an event or a fact, in ``subject_id`` order, with their counts."""
    project = principal.project(project_id)
    async with db.transaction(project_id=project) as conn:
        page = await list_subjects(
            conn, project_id=project, prefix=prefix, limit=limit, after=cursor
        )
    return SubjectPageOut(
        subjects=[SubjectOut.model_validate(s, from_attributes=True) for s in page.subjects],
        next_cursor=page.next_cursor,
    )


@router.get("/v1/traces")
async def traces(
    principal: PrincipalDep,
    db: DbDep,
    writer: TracesDep,
    project_id: ProjectQuery = None,
    subject_id: Annotated[Identifier | None, Query(description="One subject's calls only")] = None,
    limit: Annotated[int, Query(ge=1, le=200, description="Page size")] = 20,
    cursor: CursorQuery = None,
) -> TracePageOut:
    """Recent context calls, newest first (one subject's, or the project's); read one
    whole with ``GET /v1/inspect/{trace_id}``."""
    project = principal.project(project_id)
    await writer.wait_all()  # the calls already answered are listed
    async with db.transaction(project_id=project) as conn:
        rows, next_cursor = await list_traces(
            conn, project_id=project, subject_id=subject_id, limit=limit, after=cursor
        )
    return TracePageOut(
        traces=[TraceSummaryOut.model_validate({**r, "trace_id": r["id"]}) for r in rows],
        next_cursor=next_cursor,
    )
