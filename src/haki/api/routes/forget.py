"""``POST /v1/forget``: disable or delete a subject's memory or one fact."""

from __future__ import annotations

from fastapi import APIRouter

from ...forget import forget as forget_memory
from ..auth import PrincipalDep
from ..deps import DbDep, TracesDep
from ..schemas.forget import ForgetIn, ForgetOut

router = APIRouter(tags=["forget"])


@router.post("/v1/forget")
async def forget(
    body: ForgetIn, principal: PrincipalDep, db: DbDep, traces: TracesDep
) -> ForgetOut:
    """Returns the stored receipt: counts only, never content."""
    principal.require(body.project_id)
    # Traces still being written hold what this erases: they land first, so
    # the forget removes them too.
    await traces.wait_all()
    async with db.transaction(project_id=body.project_id) as conn:
        receipt = await forget_memory(conn, body.to_request())
    return ForgetOut.of(receipt)
