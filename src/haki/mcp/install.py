"""Wire an agent host to Haki's MCP server by writing the host's own configuration.

Each host keeps its MCP servers in its own file and format. An install merges
one managed entry, ``haki``, into that file: the user's other servers (and
every other setting) are kept in place and in order, and re-running the same
install writes nothing. Keys never go into these files, since project files
are usually committed: each entry names environment variables (``HAKI_API_KEY``,
``HAKI_SUBJECT_ID``) that the host expands when it connects, in the syntax
that host documents.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import InvalidPayload

Host = Literal["claude", "codex", "cursor", "gemini"]
Transport = Literal["http", "stdio"]
HOSTS: tuple[Host, ...] = ("claude", "codex", "cursor", "gemini")

SERVER_NAME = "haki"
KEY_VAR = "HAKI_API_KEY"
SUBJECT_VAR = "HAKI_SUBJECT_ID"
PROJECT_VAR = "HAKI_PROJECT_ID"
URL_VAR = "HAKI_URL"


@dataclass(frozen=True, slots=True)
class Wiring:
    """What to write: where the server is and how the host reaches it."""

    host: Host
    transport: Transport = "http"
    url: str = "http://127.0.0.1:8100"  # the API; the MCP endpoint is <url>/mcp
    subject_id: str | None = None  # written literally; None = the HAKI_SUBJECT_ID variable
    command: str = "haki"  # the stdio entry point
    # stdio only, written literally when given; a project key fixes its project, so
    # the entry never names HAKI_PROJECT_ID (an unset variable breaks some hosts' configs).
    project_id: str | None = None

    @property
    def mcp_url(self) -> str:
        return self.url.rstrip("/") + "/mcp"


def config_path(host: Host, root: Path, *, global_: bool, home: Path) -> Path:
    """The file the host reads its MCP servers from, per project or per user."""
    if host == "claude":
        # Claude Code keeps user-scope servers in ~/.claude.json, project ones in .mcp.json.
        return home / ".claude.json" if global_ else root / ".mcp.json"
    base = home if global_ else root
    return {
        "codex": base / ".codex" / "config.toml",
        "cursor": base / ".cursor" / "mcp.json",
        "gemini": base / ".gemini" / "settings.json",
    }[host]


def _env_ref(host: Host, var: str) -> str:
    """How a host spells 'the value of this environment variable' inside its config."""
    return f"${{env:{var}}}" if host == "cursor" else f"${{{var}}}"


def entry(w: Wiring) -> dict[str, Any]:
    """The managed server entry for a JSON host (Claude, Cursor, Gemini)."""
    subject = w.subject_id if w.subject_id is not None else _env_ref(w.host, SUBJECT_VAR)
    if w.transport == "stdio":
        env = {URL_VAR: w.url, KEY_VAR: _env_ref(w.host, KEY_VAR)}
        if w.project_id is not None:
            env[PROJECT_VAR] = w.project_id
        env[SUBJECT_VAR] = subject
        stdio: dict[str, Any] = {"command": w.command, "args": ["mcp"], "env": env}
        if w.host == "gemini":
            stdio["trust"] = True  # as for HTTP below
        return {"type": "stdio", **stdio} if w.host == "claude" else stdio
    headers = {
        "Authorization": f"Bearer {_env_ref(w.host, KEY_VAR)}",
        "X-Haki-Subject-Id": subject,
    }
    if w.host == "claude":
        return {"type": "http", "url": w.mcp_url, "headers": headers}
    if w.host == "gemini":
        # Gemini CLI lists no tool of an untrusted server in its default approval mode.
        return {"httpUrl": w.mcp_url, "headers": headers, "trust": True}
    return {"url": w.mcp_url, "headers": headers}


def _toml_str(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def codex_block(w: Wiring) -> str:
    """The ``[mcp_servers.haki]`` table for Codex's config.toml."""
    lines = [f"[mcp_servers.{SERVER_NAME}]"]
    if w.transport == "stdio":
        env = [f"{URL_VAR} = {_toml_str(w.url)}"]
        # Codex passes a stdio server only the variables named here (an unset one is
        # skipped), so the admin key's HAKI_PROJECT_ID must be named to arrive.
        passed = [KEY_VAR]
        if w.project_id:
            env.append(f"{PROJECT_VAR} = {_toml_str(w.project_id)}")
        else:
            passed.append(PROJECT_VAR)
        if w.subject_id is not None:
            env.append(f"{SUBJECT_VAR} = {_toml_str(w.subject_id)}")
        else:
            passed.append(SUBJECT_VAR)
        lines += [
            f"command = {_toml_str(w.command)}",
            'args = ["mcp"]',
            f"env = {{ {', '.join(env)} }}",
            # Codex starts stdio servers with a reduced environment; these are passed through.
            f"env_vars = {json.dumps(passed)}",
            # Codex sends its first model request without waiting for a server that is
            # not required, and a Python process still starting is left out of it.
            "required = true",
            "startup_timeout_sec = 30",
        ]
    else:
        lines += [f"url = {_toml_str(w.mcp_url)}", f'bearer_token_env_var = "{KEY_VAR}"']
        if w.subject_id is not None:
            lines.append(f'http_headers = {{ "X-Haki-Subject-Id" = {_toml_str(w.subject_id)} }}')
        else:
            lines.append(f'env_http_headers = {{ "X-Haki-Subject-Id" = "{SUBJECT_VAR}" }}')
    # Codex refuses MCP calls that need approval under approval policy "never"
    # (every ``codex exec``); the tools' annotations say which ones change memory.
    lines.append('default_tools_approval_mode = "approve"')
    return "\n".join(lines) + "\n"


# ---- merging into existing files -------------------------------------------------------------

_JSON_KEY = "mcpServers"


def _load_json(text: str, path: Path) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidPayload(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}); fix it first"
        ) from exc
    if not isinstance(doc, dict):
        raise InvalidPayload(f"{path} does not hold a JSON object; fix it first")
    return doc


def _dump_json(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def merge_json(text: str, path: Path, server: dict[str, Any] | None) -> str:
    """Set (or, with ``None``, remove) the managed entry; everything else stays as it was."""
    doc = _load_json(text, path)
    servers = doc.get(_JSON_KEY)
    if servers is not None and not isinstance(servers, dict):
        raise InvalidPayload(f"{path}: '{_JSON_KEY}' is not an object; fix it first")
    servers = dict(servers or {})
    if server is None:
        if SERVER_NAME not in servers:
            return text
        del servers[SERVER_NAME]
    else:
        if servers.get(SERVER_NAME) == server:
            return text
        servers[SERVER_NAME] = server  # an existing key keeps its position
    doc[_JSON_KEY] = servers
    return _dump_json(doc)


_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _is_ours(table: str) -> bool:
    name = table.replace('"', "").replace("'", "")
    return name == f"mcp_servers.{SERVER_NAME}" or name.startswith(f"mcp_servers.{SERVER_NAME}.")


def merge_toml(text: str, path: Path, block: str | None) -> str:
    """Replace (or remove) our table in place, leaving every other line untouched."""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidPayload(f"{path} is not valid TOML ({exc}); fix it first") from exc
    lines = text.splitlines(keepends=True)
    kept: list[str] = []
    insert_at: int | None = None
    inside = False
    for line in lines:
        header = _TABLE.match(line)
        if header:
            inside = _is_ours(header.group(1))
            if inside and insert_at is None:
                insert_at = len(kept)
        if not inside:
            kept.append(line)
    if block is None:
        merged = "".join(kept)
    else:
        if insert_at is None:
            if kept and not kept[-1].endswith("\n"):
                kept[-1] += "\n"
            if kept and kept[-1].strip():
                kept.append("\n")
            kept.append(block)
        else:
            piece = block if insert_at == len(kept) or not kept[insert_at:] else block + "\n"
            kept.insert(insert_at, piece)
        merged = "".join(kept)
    if merged.strip() == text.strip():
        return text
    tomllib.loads(merged)  # never write a file the host cannot read
    return merged


@dataclass(frozen=True, slots=True)
class Change:
    path: Path
    before: str
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after


def plan(w: Wiring, path: Path, *, remove: bool = False) -> Change:
    """What installing (or removing) the entry would make of ``path``; nothing is written."""
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    if w.host == "codex":
        after = merge_toml(before, path, None if remove else codex_block(w))
    else:
        after = merge_json(before, path, None if remove else entry(w))
    return Change(path, before, after)


def apply(change: Change) -> bool:
    """Write the planned file when it differs; report whether anything changed."""
    if not change.changed:
        return False
    change.path.parent.mkdir(parents=True, exist_ok=True)
    tmp = change.path.with_name(change.path.name + ".haki-tmp")
    tmp.write_text(change.after, encoding="utf-8")
    tmp.replace(change.path)
    return True
