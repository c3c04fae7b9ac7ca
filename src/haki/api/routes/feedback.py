"""POST /v1/feedback: a rating on a trace or a fact."""

from __future__ import annotations

from fastapi import APIRouter

from ...context import feedback
from ..auth import PrincipalDep
from ..deps import DbDep, TracesDep
from ..openapi import errors
from ..schemas.context import FeedbackIn, FeedbackOut

router = APIRouter(tags=["feedback"])


@router.post(
    "/v1/feedback",
    status_code=201,
    summary="Rate a context call or a fact",
    responses=errors(404),
)
async def post_feedback(
    body: FeedbackIn, principal: PrincipalDep, db: DbDep, traces: TracesDep
) -> FeedbackOut:
    """``incorrect`` on a fact disputes it (a disputed fact stays disputed)."""
    project = principal.project(body.project_id)
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
