"""``engram mcp``: the tools over an in-process MCP client, and host registration."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from engram_repo import Repo
from mcp import Client

from haki.engram.mcp_install import install_mcp, uninstall_mcp
from haki.engram.mcp_server import build_server


def _text(result: object) -> str:
    return "".join(getattr(c, "text", "") for c in getattr(result, "content", []))


async def test_tools_route_fetch_verify_and_report_status(repo: Repo) -> None:
    repo.add("pytest-style", directive="Use pytest fixtures.", tags=["pytest"])
    repo.add("api-layer", directive="Keep handlers thin.", applies_to=["src/api/**"])
    async with Client(build_server(repo.roots())) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert names == {
            "engram_load",
            "engram_search",
            "engram_fetch",
            "engram_verify",
            "engram_status",
        }
        loaded = _text(await client.call_tool("engram_load", {"query": "pytest fixture"}))
        assert loaded.startswith("loaded 1 memory files / 1 total related memories")
        assert "### pytest-style [rule, instruction]" in loaded
        by_path = _text(
            await client.call_tool("engram_load", {"query": "", "files": ["src/api/x.py"]})
        )
        assert "### api-layer" in by_path
        found = await client.call_tool("engram_search", {"query": "pytest"})
        rows = (found.structured_content or {})["result"]
        assert [(r["id"], r["selected"]) for r in rows] == [("pytest-style", True)]
        fetched = _text(await client.call_tool("engram_fetch", {"ids": ["api-layer"]}))
        assert "### api-layer" in fetched
        missing = await client.call_tool("engram_fetch", {"ids": ["nope"]})
        assert missing.is_error and "no visible memory" in _text(missing)
        status = _text(await client.call_tool("engram_status", {}))
        assert '"memories": 2' in status


def test_install_registers_each_host_and_uninstall_removes_only_ours(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / ".cursor").mkdir()
    (project / ".cursor/mcp.json").write_text(
        json.dumps({"mcpServers": {"other": {"command": "x"}}})
    )
    (project / ".codex").mkdir()
    (project / ".codex/config.toml").write_text('model = "gpt-5"\n')
    for host in ("claude", "gemini", "cursor", "codex"):
        path, changed = install_mcp(host, project, False, "engram")
        assert changed
        assert install_mcp(host, project, False, "engram") == (path, False)
    assert json.loads((project / ".mcp.json").read_text()) == {
        "mcpServers": {"engram": {"command": "engram", "args": ["mcp"]}}
    }
    cursor = json.loads((project / ".cursor/mcp.json").read_text())
    assert set(cursor["mcpServers"]) == {"other", "engram"}
    codex = tomllib.loads((project / ".codex/config.toml").read_text())
    assert codex == {
        "model": "gpt-5",
        "mcp_servers": {
            "engram": {
                "command": "engram",
                "args": ["mcp"],
                "default_tools_approval_mode": "approve",
                "required": True,
                "startup_timeout_sec": 30,
            }
        },
    }
    for host in ("claude", "gemini", "cursor", "codex"):
        assert uninstall_mcp(host, project, False)[1]
    assert json.loads((project / ".cursor/mcp.json").read_text()) == {
        "mcpServers": {"other": {"command": "x"}}
    }
    assert tomllib.loads((project / ".codex/config.toml").read_text()) == {"model": "gpt-5"}
