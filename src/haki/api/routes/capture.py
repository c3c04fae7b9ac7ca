"""``POST /v1/capture``: parse, authorize, call the ledger in one transaction."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from ... import ledger
from ...consolidator import run_pending
from ...observability import metrics, tracing
from ..auth import PrincipalDep
from ..deps import DbDep, StateDep
from ..schemas.capture import CAPTURE_EXAMPLES, CaptureIn, CaptureOut
from .consolidate import worker_for

# Far above any valid batch (1,000 events of at most 256 KiB each would
# exceed it, but such batches are not a real workload): it only stops a
# runaway body before it is buffered and parsed (``BodyLimitMiddleware``).
MAX_BODY_BYTES = 64 * 1024 * 1024

router = APIRouter(tags=["capture"])


@router.post("/v1/capture", status_code=202, summary="Capture a batch of events")
async def capture(
    body: Annotated[CaptureIn, Body(openapi_examples=CAPTURE_EXAMPLES)],
    principal: PrincipalDep,
    db: DbDep,
    state: StateDep,
) -> CaptureOut:
    """Write a batch of events (idempotent) and enqueue their consolidation.

    Payload shapes, ``actor_type`` and trust, ``occurred_at`` and
    idempotency: docs/events.md. With a project key, ``project_id`` may be
    left out of each event.
    """
    batch = body.to_ledger(principal.project)
    projects = sorted({event.project_id for event in batch.events})
    trusted = principal.project_id is None or principal.admin
    attributes = {"haki.events": len(batch.events)}
    with tracing.span("haki.capture", attributes):
        async with db.transaction(project_id=projects[0] if projects else None) as conn:
            result = await ledger.write_events(conn, batch, origin_trust_allowed=trusted)
    new = len(result.new_event_ids)
    metrics.observe_capture(new, len(result.events) - new)
    if state.settings.autoconsolidate:
        # Dev convenience: the jobs are committed above, so they run like any
        # queued job (in queue order: a large batch is cut into several).
        for job_id in result.consolidation_job_ids:
            await run_pending(worker_for(state), job_id=job_id)
    return CaptureOut.of(result)
