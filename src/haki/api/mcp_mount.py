"""MCP over Streamable HTTP at ``/mcp``, in the API process, behind the API's own auth.

The bearer key is checked here as on ``/v1`` (auth off only where the API's
is), and it fixes the project. Each tool call then runs through the SDK
against this same app in-process, carrying the caller's key, so the tools
meet exactly the validation, scope checks, rate limits and row-level security
of ``/v1``. The transport is stateless: any API process can answer any call.
Host headers are checked against an allow-list (loopback by default,
``HAKI_MCP_ALLOWED_HOSTS`` adds more) against DNS rebinding.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from ..client import AsyncHakiClient
from ..config import Settings
from ..errors import HakiError
from ..mcp.tools import Scope as ToolScope
from ..mcp.tools import build
from .auth import DEV_PRINCIPAL, Principal, authenticate
from .errors import error_response

PATH = "/mcp"
_PRINCIPAL = "haki.principal"
# The project dev mode acts on when the connection names none.
DEV_PROJECT = "default"


def _open_scope(app: ASGIApp) -> object:
    @asynccontextmanager
    async def open_scope(ctx: Context, subject_arg: str | None) -> AsyncIterator[ToolScope]:
        request = ctx.request_context.request
        if not isinstance(request, Request):
            raise ToolError("no HTTP request behind this call")
        principal: Principal = request.scope.get(_PRINCIPAL, DEV_PRINCIPAL)
        header = request.headers.get("x-haki-subject-id", "").strip()
        if header and subject_arg is not None and subject_arg != header:
            raise ToolError("the subject is fixed by this connection (X-Haki-Subject-Id)")
        subject = header or subject_arg
        if not subject:
            raise ToolError("no subject: send the X-Haki-Subject-Id header, or pass subject_id")
        project = principal.project_id or request.headers.get("x-haki-project-id") or DEV_PROJECT
        client = AsyncHakiClient(
            base_url="http://haki.internal",
            api_key=request.headers.get("authorization", "").partition(" ")[2] or None,
            transport=httpx.ASGITransport(app=app),
            project_id=project,
            max_retries=0,
        )
        try:
            yield ToolScope(client, project, subject)
        finally:
            await client.aclose()

    return open_scope


class McpEndpoint:
    """The ASGI endpoint mounted at ``/mcp``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.settings = settings
        self.server = build(_open_scope(app))  # type: ignore[arg-type]
        hosts = list(settings.mcp_hosts)
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection="*" not in hosts,
            allowed_hosts=hosts,
            allowed_origins=[f"http://{h}" for h in hosts] + [f"https://{h}" for h in hosts],
        )
        self.inner = self.server.streamable_http_app(
            streamable_http_path=PATH,
            stateless_http=True,
            json_response=True,
            transport_security=security,
        )

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The session manager's task group, for as long as the block runs.

        The group is entered and left by one dedicated task: a lifespan may
        start and stop in different tasks, and an anyio cancel scope must not.
        """
        started, stop = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with self.server.session_manager.run():
                started.set()
                await stop.wait()

        task = asyncio.create_task(hold(), name="mcp-session-manager")
        waiter = asyncio.create_task(started.wait())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():  # it failed to start: say why
            waiter.cancel()
            task.result()
        try:
            yield
        finally:
            stop.set()
            await task

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        if self.settings.auth_enabled:
            try:
                scope[_PRINCIPAL] = await authenticate(Request(scope))
            except HakiError as exc:
                response = error_response(exc)
                response.headers["WWW-Authenticate"] = "Bearer"
                await response(scope, receive, send)
                return
        await self.inner(scope, receive, send)
