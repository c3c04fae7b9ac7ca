"""``haki mcp``: the MCP server over stdio, for hosts that spawn a process.

It talks to a running Haki server through the SDK, so the key, the project
and the subject are fixed when the process starts and the model cannot change
them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from ..client import AsyncHakiClient
from .tools import OpenScope, Scope, build


def scope_opener(
    client: AsyncHakiClient, project_id: str | None, subject_id: str | None
) -> OpenScope:
    @asynccontextmanager
    async def open_scope(ctx: Context, subject_arg: str | None) -> AsyncIterator[Scope]:
        if subject_id is not None and subject_arg is not None and subject_arg != subject_id:
            raise ToolError("the subject is fixed by this connection (HAKI_SUBJECT_ID)")
        subject = subject_id or subject_arg
        if not subject:
            raise ToolError("no subject: set HAKI_SUBJECT_ID for this server, or pass subject_id")
        if client.project_id is None:
            raise ToolError("no project: set HAKI_PROJECT_ID for this server")
        yield Scope(client, project_id, subject)

    return open_scope


def serve(
    url: str | None, api_key: str | None, project_id: str | None, subject_id: str | None
) -> None:
    """Run until the host closes stdin."""
    client = AsyncHakiClient(base_url=url, api_key=api_key, project_id=project_id)
    build(scope_opener(client, project_id, subject_id)).run("stdio")
