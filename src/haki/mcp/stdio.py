"""``haki mcp``: the MCP server over stdio, for hosts that spawn a process.

It talks to a running Haki server through the SDK, so the key, the project
and the subject are fixed when the process starts and the model cannot change
them. A project key fixes its own project: the process asks the server which
one on its first tool call (the key's own listing names it, as the console's
sign-in does), so ``HAKI_API_KEY`` and ``HAKI_SUBJECT_ID`` are enough.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from ..client import AsyncHakiClient, HakiError
from .tools import OpenScope, Scope, build, tool_error

# The project dev mode acts on when nothing names one: the same as /mcp's.
DEV_PROJECT = "default"
# Loggers that would write a line per HTTP request to the host's stderr.
_CHATTY = ("httpx", "httpcore", "mcp")


class ProjectOf:
    """The project every call acts on: given, or learned once from the key."""

    def __init__(self, client: AsyncHakiClient, api_key: str | None, project_id: str | None):
        self.client = client
        self.api_key = api_key
        self.known = project_id

    async def get(self) -> str:
        if self.known:
            return self.known
        if not self.api_key:
            # No key: a dev-mode server, which acts on its default project.
            self.known = DEV_PROJECT
            return self.known
        try:
            listing = await self.client.list_keys()
        except HakiError as exc:
            raise tool_error(exc) from None
        projects = {k.project_id for k in listing.keys}
        mine = [k for k in listing.keys if self.api_key.startswith(k.prefix)]
        if len(projects) == 1 and mine:
            self.known = mine[0].project_id
            return self.known
        # The admin key sees every project's keys and is none of them.
        raise ToolError(
            "missing_scope: this key does not fix a project (an admin key acts on any): "
            "set HAKI_PROJECT_ID for this server, or use a project key"
        )


def scope_opener(client: AsyncHakiClient, project: ProjectOf, subject_id: str | None) -> OpenScope:
    @asynccontextmanager
    async def open_scope(ctx: Context, subject_arg: str | None) -> AsyncIterator[Scope]:
        if subject_id is not None and subject_arg is not None and subject_arg != subject_id:
            raise ToolError(
                "forbidden_scope: the subject is fixed by this connection (HAKI_SUBJECT_ID)"
            )
        subject = subject_id or subject_arg
        if not subject:
            raise ToolError(
                "missing_scope: no subject: set HAKI_SUBJECT_ID for this server, or pass subject_id"
            )
        yield Scope(client, await project.get(), subject)

    return open_scope


def quiet_logs(verbose: bool) -> None:
    """One line per HTTP request on the host's stderr is noise: warnings only, unless asked."""
    level = logging.INFO if verbose else logging.WARNING
    for name in _CHATTY:
        logging.getLogger(name).setLevel(level)


def serve(
    url: str | None,
    api_key: str | None,
    project_id: str | None,
    subject_id: str | None,
    *,
    verbose: bool = False,
) -> None:
    """Run until the host closes stdin."""
    quiet_logs(verbose)
    client = AsyncHakiClient(base_url=url, api_key=api_key, project_id=project_id)
    project = ProjectOf(client, api_key, project_id)
    build(scope_opener(client, project, subject_id)).run("stdio")
