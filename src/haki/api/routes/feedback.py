"""POST /v1/feedback: a rating on a trace or a fact."""

from __future__ import annotations

from fastapi import APIRouter

from ...context import feedback
from ..auth import PrincipalDep
from ..deps import DbDep, TracesDep
from ..schemas.context import FeedbackIn, FeedbackOut
from ..schemas.scope import required_scope

router = APIRouter(tags=["feedback"])


@router.post("/v1/feedback", status_code=201)
async def post_feedback(
    body: FeedbackIn, principal: PrincipalDep, db: DbDep, traces: TracesDep
) -> FeedbackOut:
    """``incorrect`` on a fact disputes it (a disputed fact stays disputed)."""
    project = required_scope(body.project_id, "project_id")
    principal.require(project)
    fb = feedback.FeedbackIn(
        project_id=project,
        subject_id=body.subject_id,
        trace_id=body.trace_id,
        fact_id=body.fact_id,
        rating=body.rating,
        comment=body.comment,
    )
    if fb.trace_id is not None:
        await traces.wait(fb.trace_id)  # a call just answered may still be writing it
    async with db.transaction(project_id=project) as conn:
        receipt = await feedback.record_feedback(conn, fb)
    return FeedbackOut(id=receipt.id, feedback_id=receipt.id, fact_status=receipt.fact_status)
