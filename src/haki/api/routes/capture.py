"""``POST /v1/capture``: parse, authorize, call the ledger in one transaction."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response
from fastapi.routing import APIRoute

from ... import ledger
from ...consolidator import run_pending
from ...errors import PayloadTooLarge
from ..auth import PrincipalDep
from ..deps import DbDep, StateDep
from ..schemas.capture import CAPTURE_EXAMPLES, CaptureIn, CaptureOut
from .consolidate import worker_for

# Far above any valid batch (1,000 events of at most 256 KiB each would
# exceed it, but such batches are not a real workload): it only stops a
# runaway body before it is buffered and parsed.
MAX_BODY_BYTES = 64 * 1024 * 1024


class BoundedBodyRoute(APIRoute):
    """Reads the body with a size cap before FastAPI parses it."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def bounded(request: Request) -> Response:
            declared = request.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
                raise PayloadTooLarge(f"request body over {MAX_BODY_BYTES} bytes")
            chunks, size = [], 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise PayloadTooLarge(f"request body over {MAX_BODY_BYTES} bytes")
                chunks.append(chunk)
            # Starlette serves a body already read from this attribute.
            request._body = b"".join(chunks)
            return await handler(request)

        return bounded


router = APIRouter(tags=["capture"], route_class=BoundedBodyRoute)


@router.post("/v1/capture", status_code=202)
async def capture(
    body: Annotated[CaptureIn, Body(openapi_examples=CAPTURE_EXAMPLES)],
    principal: PrincipalDep,
    db: DbDep,
    state: StateDep,
) -> CaptureOut:
    """Write a batch of events (idempotent) and enqueue their consolidation.

    Payload shapes, ``actor_type`` and trust, ``occurred_at`` and
    idempotency: docs/events.md.
    """
    projects = sorted({event.project_id for event in body.events})
    principal.require(*projects)
    trusted = principal.project_id is None or principal.admin
    async with db.transaction(project_id=projects[0] if projects else None) as conn:
        result = await ledger.write_events(conn, body.to_ledger(), origin_trust_allowed=trusted)
    if state.settings.autoconsolidate and result.consolidation_job_id is not None:
        # Dev convenience: the job is committed above, so it runs like any queued job.
        await run_pending(worker_for(state), job_id=result.consolidation_job_id)
    return CaptureOut.of(result)
