"""Haki's MCP server (stdio, ``haki mcp``) inside the real hosts, on a real server and database."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from harness import BIN, Workspace
from model_server import Step

from haki.client import HakiClient
from haki_server import running


@pytest.fixture
def haki_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """``haki serve`` on the test's fresh database, its consolidation worker in process."""
    with running(db_url, tmp_path / "server.log", worker=True) as url:
        yield url


TOOL = {
    "claude": "mcp__haki__haki_context",
    "codex": "mcp__haki__haki_context",  # the namespace "mcp__haki", tool "haki_context"
    "gemini": "mcp_haki_haki_context",
}


@pytest.mark.parametrize("workspace", ["claude", "codex", "gemini"], indirect=True)
def test_haki_context_through_the_host(workspace: Workspace, haki_url: str) -> None:
    ws = workspace
    client = HakiClient(haki_url, project_id="prj_hosts")
    client.capture(
        [
            {
                "subject_id": "maya",
                "project_id": "prj_hosts",
                "kind": "conversation.turn",
                "actor_type": "user",
                "occurred_at": datetime.now(UTC).isoformat(),
                "payload": {"text": "I am allergic to peanuts, remember that."},
            }
        ]
    )
    deadline = time.monotonic() + 120  # until the worker has consolidated the event
    while "peanut" not in str(client.context("maya", "what am I allergic to?").packet).lower():
        assert time.monotonic() < deadline, "the captured fact never reached the context"
        time.sleep(1)
    ws.env.update({"HAKI_PROJECT_ID": "prj_hosts", "HAKI_API_KEY": "unused-auth-off"})
    done = subprocess.run(
        [str(BIN / "haki"), "mcp", "install", "--host", ws.host, "--transport", "stdio",
         "--url", haki_url, "--subject-id", "maya", "--dir", str(ws.repo)],
        env={**os.environ, **ws.env}, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    extra: tuple[str, ...] = ()
    if ws.host == "claude":
        # What the user approves on first start: the project's .mcp.json server.
        approval = ws.repo / ".claude" / "settings.local.json"
        approval.parent.mkdir(exist_ok=True)
        approval.write_text('{"enabledMcpjsonServers": ["haki"]}\n')
        extra = ("--allowedTools", TOOL["claude"])
    call = (TOOL[ws.host], {"query": "what am I allergic to?"})
    ws.model.reset([Step("What am I allergic to?", [call], wait="WaitForMcpServers")])
    ws.run("What am I allergic to?", extra=extra)
    assert any(call[0] in r.tools for r in ws.model.model_requests("allergic")), "listed"
    seen = ws.conversation("What am I allergic to?")
    assert "<haki_memory>" in seen and "peanut" in seen.lower(), seen[-1500:]
