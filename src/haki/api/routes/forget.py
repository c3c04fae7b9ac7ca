"""``POST /v1/forget``: disable or delete a subject's memory or one fact."""

from __future__ import annotations

from fastapi import APIRouter

from ...forget import ForgetReceipt
from ...forget import forget as forget_memory
from ...storage.maintenance import refresh_statistics
from ...storage.secrets import RECEIPT_KEY
from ..auth import PrincipalDep
from ..deps import DbDep, StateDep, TracesDep
from ..openapi import errors
from ..schemas.forget import ForgetIn, ForgetOut

router = APIRouter(tags=["forget"])

# The tables a forget deletes content from.
FORGOTTEN_TABLES = (
    "events",
    "episode_chunks",
    "facts",
    "fact_transitions",
    "conflict_sets",
    "context_traces",
    "feedback",
    "jobs",
)


@router.post("/v1/forget", summary="Forget a subject's memory or one fact", responses=errors(404))
async def forget(
    body: ForgetIn, principal: PrincipalDep, db: DbDep, traces: TracesDep, state: StateDep
) -> ForgetOut:
    """Returns the stored receipt: counts only, never content. ``nothing_found`` says
    when the scope held nothing (a typo in ``subject_id`` shows up there)."""
    project = principal.project(body.project_id)
    # Traces still being written hold what this erases: they land first, so
    # the forget removes them too.
    await traces.wait_all()
    request = body.to_request(project)
    # Read at start-up (app lifespan): a request bound to a project key
    # may not open the owner's transaction that reads it.
    key = state.extras[RECEIPT_KEY]
    assert isinstance(key, bytes)

    async def attempt() -> ForgetReceipt:
        async with db.transaction(project_id=project) as conn:
            return await forget_memory(conn, request, receipt_key=key)

    receipt = await db.retry_conflicts(attempt)
    if body.mode == "delete":
        # Statistics may still sample what was just deleted: refresh them now.
        await refresh_statistics(db, FORGOTTEN_TABLES)
    return ForgetOut.of(receipt)
