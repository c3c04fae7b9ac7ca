"""The OpenAI-compatible gateway: ``/gateway/v1/chat/completions`` and ``/models``.

The caller authenticates to Haki (its OpenAI client's API key is a Haki key);
memory identity comes from ``X-Haki-*`` headers; the model call goes to
``HAKI_LLM_BASE_URL``. The route only wires request, memory and upstream
together: the steps are in ``haki.gateway.proxy``.
"""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse
from starlette.background import BackgroundTask

from ...client import AsyncHakiClient
from ...errors import UpstreamUnavailable
from ...gateway import ClientMemory, Forwarded, Upstream, chat_completions, models
from ..auth import Principal, PrincipalDep
from ..deps import StateDep
from ..mcp_mount import DEV_PROJECT
from ..openapi import errors
from ..state import AppState

router = APIRouter(tags=["gateway"])

# Haki's own refusals use the error envelope; anything else is the upstream's
# answer, passed through as it came (OpenAI's error shape included).
RESPONSES: dict[int | str, dict[str, Any]] = {
    **errors(401, 403, 500, 502, 503),
    "default": {"description": "The upstream's answer, passed through unchanged."},
}

_UPSTREAM = "gateway.upstream"


def upstream(state: AppState) -> Upstream:
    known = state.extras.get(_UPSTREAM)
    if isinstance(known, Upstream):
        return known
    settings = state.settings
    if not settings.llm_base_url:
        raise UpstreamUnavailable("the gateway has no model endpoint: set HAKI_LLM_BASE_URL")
    made = Upstream(settings.llm_base_url, settings.llm_api_key, settings.llm_timeout_s)
    state.extras[_UPSTREAM] = made
    return made


async def close_upstream(state: AppState) -> None:
    known = state.extras.pop(_UPSTREAM, None)
    if isinstance(known, Upstream):
        await known.close()


def _memory(request: Request, principal: Principal, state: AppState) -> ClientMemory | None:
    h = request.headers
    subject = h.get("x-haki-subject-id", "").strip()
    if not subject:
        return None  # no identity, no memory: the call is forwarded as it is
    project = principal.project_id or h.get("x-haki-project-id") or DEV_PROJECT
    client = AsyncHakiClient(
        base_url="http://haki.internal",
        api_key=h.get("authorization", "").partition(" ")[2] or None,
        transport=httpx.ASGITransport(app=request.app),
        project_id=project,
        max_retries=0,
    )
    return ClientMemory(
        client,
        project,
        subject,
        state.settings.gateway_budget_tokens,
        thread_id=h.get("x-haki-thread-id"),
        run_id=h.get("x-haki-run-id"),
        purpose=h.get("x-haki-purpose"),
        idempotency_key=h.get("x-haki-idempotency-key"),
    )


def _respond(out: Forwarded, cleanup: BackgroundTask) -> Response:
    headers = {**out.headers, **out.extra}
    if out.stream is not None:
        return StreamingResponse(out.stream, out.status, headers, background=cleanup)
    return Response(out.body, out.status, headers, background=cleanup)


@router.post(
    "/gateway/v1/chat/completions",
    summary="Chat completion with memory",
    # 422: a body that is not a chat completion, or nests too deep; 429: the
    # key's calls per minute, counted before anything is forwarded.
    responses={**RESPONSES, **errors(413, 422, 429)},
)
async def gateway_chat(request: Request, principal: PrincipalDep, state: StateDep) -> Response:
    """Forwards an OpenAI chat completion, with the subject's memory injected and the turn captured."""
    memory = _memory(request, principal, state)
    try:
        out = await chat_completions(await request.body(), memory, upstream(state))
    except BaseException:
        if memory is not None:
            await memory.client.aclose()
        raise

    async def finish() -> None:
        try:
            if out.after is not None:
                await out.after()
        finally:
            if memory is not None:
                await memory.client.aclose()

    return _respond(out, BackgroundTask(finish))


@router.get("/gateway/v1/models", summary="Models of the upstream endpoint", responses=RESPONSES)
async def gateway_models(principal: PrincipalDep, state: StateDep) -> Response:
    """The upstream's model list, passed through."""
    out = await models(upstream(state))
    return Response(out.body, out.status, out.headers)
