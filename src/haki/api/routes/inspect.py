"""GET /v1/inspect/{trace_id}: what one context call decided, and why."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter

from ...context.trace import read_trace
from ..auth import PrincipalDep
from ..deps import DbDep, TracesDep
from ..schemas.context import TraceOut
from ..schemas.scope import required_scope

router = APIRouter(tags=["context"])


@router.get("/v1/inspect/{trace_id}")
async def inspect(
    trace_id: UUID,
    principal: PrincipalDep,
    db: DbDep,
    traces: TracesDep,
    project_id: str | None = None,
    subject_id: str | None = None,
) -> TraceOut:
    project = required_scope(project_id, "project_id")
    subject = required_scope(subject_id, "subject_id")
    principal.require(project)
    await traces.wait(trace_id)  # a call just answered may still be writing it
    async with db.transaction(project_id=project) as conn:
        row = await read_trace(conn, trace_id, project, subject)
    return TraceOut.of(row)
