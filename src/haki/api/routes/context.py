"""POST /v1/context: the context packet for one query, traced."""

from __future__ import annotations

import orjson
from fastapi import APIRouter
from fastapi.responses import Response

from ...context import ContextRequest, assemble, recipe
from ...storage.db import in_space
from ...storage.spaces import SpaceMoved
from ..auth import PrincipalDep
from ..deps import DbDep, SettingsDep, StateDep, TracesDep
from ..schemas.context import ContextIn, ContextOut

router = APIRouter(tags=["context"])


def server_timing(timings: dict[str, float]) -> str:
    return ", ".join(f"{name.removesuffix('_ms')};dur={ms}" for name, ms in timings.items())


def work_header(work: dict[str, int]) -> str:
    """``Haki-Work: fact_pool=90, ..., episode_pool=120, ...``: rows each
    fact and episode step handled (docs/context.md lists their caps)."""
    return ", ".join(f"{name}={n}" for name, n in work.items())


# The assembler serialises the packet once (it stores the same JSON in the
# trace); the response wraps those bytes as they are, skipping a second
# validation and serialisation pass over every fact and episode.
@router.post("/v1/context", response_model=ContextOut, summary="Get the context packet for a query")
async def context(
    body: ContextIn,
    principal: PrincipalDep,
    db: DbDep,
    settings: SettingsDep,
    state: StateDep,
    traces: TracesDep,
) -> Response:
    """Facts and episodes relevant to ``query`` within ``budget_tokens``; every decision is traced."""
    request = ContextRequest(
        project_id=principal.project(body.project_id),
        subject_id=body.subject_id,
        query=body.query,
        budget_tokens=settings.default_budget_tokens
        if body.budget_tokens is None
        else body.budget_tokens,
        purpose=body.purpose,
        as_of=body.as_of,
    )
    cfg = recipe(
        settings.context_recipe,
        recall_max_distance=settings.recall_max_distance,
        recall_fact_max_distance=settings.recall_fact_max_distance,
    )
    # The project's embedding space: its query embedded by that space's model
    # and compared with that space's vectors only. The space may be as read
    # by an earlier call; the call checks it in its own transaction, and a
    # project switched since is read again and asked again in its new space.
    space, embedder = await state.embedder_for(request.project_id, fresh=False)
    try:
        with in_space(space):
            result = await assemble(db, embedder, request, cfg, traces, space=space)
    except SpaceMoved:
        space, embedder = await state.embedder_for(request.project_id)
        with in_space(space):
            result = await assemble(db, embedder, request, cfg, traces)
    body_out = {
        "packet": orjson.Fragment(result.packet_json),
        "token_count": result.token_count,
        "trace_id": str(result.trace_id),
    }
    return Response(
        orjson.dumps(body_out),
        media_type="application/json",
        headers={
            "Server-Timing": server_timing(result.timings),
            "Haki-Work": work_header(result.work),
        },
    )
