"""``engram mcp install|uninstall --host H``: register the stdio server with a host.

JSON hosts get ``mcpServers.engram`` merged into their file (other servers and
keys untouched); Codex gets an ``[mcp_servers.engram]`` table in its TOML
config, written and removed as one marked block.

Each entry also carries what the host needs before the model may call the
tools, as measured with the hosts themselves: Codex refuses every call under
its default approval policy unless the server says ``default_tools_approval_mode
= "approve"``, and lists the tools of a stdio server only if it is ``required``; Gemini CLI lists no tool of a server without ``"trust": true``
in its default approval mode; Claude Code loads a project ``.mcp.json`` server
only once it is approved, which ``enabledMcpjsonServers`` in the user's own
``.claude/settings.local.json`` records (never committed).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from .hooks.install import read_config
from .workspace import write_atomic

JSON_FILES = {
    "claude": (".mcp.json", ".claude.json"),  # (project, user)
    "gemini": (".gemini/settings.json", ".gemini/settings.json"),
    "cursor": (".cursor/mcp.json", ".cursor/mcp.json"),
}
CODEX_FILE = ".codex/config.toml"
_BEGIN = "# >>> engram mcp (managed by `engram mcp install`)"
_END = "# <<< engram mcp"
_BLOCK = re.compile(re.escape(_BEGIN) + r".*?" + re.escape(_END) + r"\n?", re.S)


def config_path(host: str, project: Path, global_: bool) -> Path:
    base = Path.home() if global_ else project
    if host == "codex":
        return base / CODEX_FILE
    return base / JSON_FILES[host][1 if global_ else 0]


CLAUDE_APPROVAL = ".claude/settings.local.json"
# Codex sends its first model request without waiting for servers that are not
# required: a stdio server still starting (a Python process) is left out of it.
# A required one is waited for, up to the timeout, and Codex stops with the
# server's error when it cannot start.
CODEX_STARTUP = ("required = true", "startup_timeout_sec = 30")


def server_entry(program: str, host: str = "claude") -> dict[str, Any]:
    parts = shlex.split(program) or ["engram"]
    entry: dict[str, Any] = {"command": parts[0], "args": [*parts[1:], "mcp"]}
    if host == "gemini":
        entry["trust"] = True  # read-only tools: no confirmation per call
    return entry


def approve_claude(project: Path, approve: bool = True) -> tuple[Path, bool]:
    """Record (or withdraw) the approval Claude Code asks for a project ``.mcp.json`` server."""
    path = project / CLAUDE_APPROVAL
    data = read_config(path)
    names = data.get("enabledMcpjsonServers")
    names = [n for n in names if isinstance(n, str)] if isinstance(names, list) else []
    if approve == ("engram" in names):
        return path, False
    names = [*names, "engram"] if approve else [n for n in names if n != "engram"]
    if names:
        data["enabledMcpjsonServers"] = names
    else:
        data.pop("enabledMcpjsonServers", None)
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path, True


def install_mcp(host: str, project: Path, global_: bool, program: str) -> tuple[Path, bool]:
    path = config_path(host, project, global_)
    entry = server_entry(program, host)
    if host == "codex":
        return path, _write_text(path, _codex_text(_read_text(path), entry))
    data = read_config(path)
    servers = data.setdefault("mcpServers", {})
    if servers.get("engram") == entry:
        return path, False
    servers["engram"] = entry
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path, True


def uninstall_mcp(host: str, project: Path, global_: bool) -> tuple[Path, bool]:
    path = config_path(host, project, global_)
    if host == "codex":
        text = _read_text(path)
        return path, _write_text(path, _BLOCK.sub("", text)) if text else False
    if not path.exists():
        return path, False
    data = read_config(path)
    servers = data.get("mcpServers")
    if not isinstance(servers, dict) or "engram" not in servers:
        return path, False
    del servers["engram"]
    if not servers:
        del data["mcpServers"]
    write_atomic(path, json.dumps(data, indent=2) + "\n")
    return path, True


def _codex_text(text: str, entry: dict[str, Any]) -> str:
    block = "\n".join(
        [
            _BEGIN,
            "[mcp_servers.engram]",
            f"command = {json.dumps(entry['command'])}",
            f"args = {json.dumps(entry['args'])}",
            # Codex's default approval policy refuses MCP calls that would need approval.
            'default_tools_approval_mode = "approve"',
            *CODEX_STARTUP,
            _END,
            "",
        ]
    )
    if _BLOCK.search(text):
        return _BLOCK.sub(lambda _m: block, text)
    sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    return text + sep + block


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def _write_text(path: Path, text: str) -> bool:
    if _read_text(path) == text:
        return False
    write_atomic(path, text)
    return True
