"""GET /v1/inspect/{trace_id}: what one context call decided, and why."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter

from ...context.trace import read_trace
from ..auth import PrincipalDep
from ..deps import DbDep, TracesDep
from ..schemas.context import TraceOut
from ..schemas.fields import ProjectQuery, SubjectQuery, id_path

router = APIRouter(tags=["context"])


@router.get("/v1/inspect/{trace_id}", summary="Explain one context call")
async def inspect(
    trace_id: Annotated[UUID, id_path("the trace (returned by /v1/context)")],
    principal: PrincipalDep,
    db: DbDep,
    traces: TracesDep,
    subject_id: SubjectQuery,
    project_id: ProjectQuery = None,
) -> TraceOut:
    """Every decision of the call: what was included, excluded or blocked, and why."""
    project = principal.project(project_id)
    await traces.wait(trace_id)  # a call just answered may still be writing it
    async with db.transaction(project_id=project) as conn:
        row = await read_trace(conn, trace_id, project, subject_id)
    return TraceOut.of(row)
