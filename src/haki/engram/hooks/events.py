"""Read a host's event JSON into one shape the runtime understands."""

from __future__ import annotations

import re
from pathlib import Path

from ..record import Record

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any, Literal

    Kind = Literal["start", "prompt", "files", "compact", "subagent", "instructions", "other"]


_KINDS: dict[str, Kind] = {
    "SessionStart": "start",
    "sessionStart": "start",
    "UserPromptSubmit": "prompt",
    "BeforeAgent": "prompt",
    "PreToolUse": "files",
    "AfterTool": "files",
    "PreCompact": "compact",
    "PreCompress": "compact",
    "SubagentStart": "subagent",
    "InstructionsLoaded": "instructions",
}
CLAUDE_FILE_TOOLS = frozenset({"Read", "Edit", "Write", "MultiEdit"})
GEMINI_FILE_TOOLS = frozenset({"read_file", "write_file", "replace"})
_PATCH_PATH = re.compile(r"^\*\*\* (?:Add File|Update File|Move to): (.+?)\s*$", re.M)


class Event(Record):
    """One host event, read from the hook's stdin in the host's own words."""

    name: str  # the host's own event name, echoed back in the answer
    kind: Kind
    session: str
    cwd: str
    prompt: str = ""
    paths: tuple[str, ...] = ()  # as the host gave them (absolute or relative)
    agent: str = ""  # subagent id ("" for the main agent)
    agent_type: str = ""
    source: str = ""  # SessionStart: startup | resume | clear | compact
    file_path: str = ""  # InstructionsLoaded
    transcript: str = ""  # the host's transcript file, when it names one


def parse(host: str, data: Any) -> Event:
    if not isinstance(data, dict):
        raise ValueError("event JSON must be an object")
    name = _text(data, "hook_event_name")
    if not name:
        raise ValueError("event JSON has no hook_event_name")
    kind = _KINDS.get(name, "other")
    session = _text(data, "session_id") or _text(data, "conversation_id") or "default"
    roots = data.get("workspace_roots")
    first_root = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else ""
    cwd = _text(data, "cwd") or first_root
    paths: tuple[str, ...] = ()
    if kind == "files":
        paths = _tool_paths(host, _text(data, "tool_name"), data.get("tool_input"))
    return Event(
        name=name,
        kind=kind,
        session=session,
        cwd=cwd,
        prompt=strip_injected(_text(data, "prompt")),
        paths=paths,
        agent=_text(data, "agent_id"),
        agent_type=_text(data, "agent_type"),
        source=_text(data, "source") or _text(data, "trigger"),
        file_path=_text(data, "file_path"),
        transcript=_text(data, "transcript_path"),
    )


# Gemini CLI hands BeforeAgent the prompt with the context hooks added earlier
# wrapped in <hook_context> (sometimes HTML-escaped); our own proof lines can
# also come back quoted. Routing on them would route on Engram's own output.
_HOOK_CONTEXT = re.compile(
    r"(?:<|&lt;)hook_context(?:>|&gt;).*?(?:<|&lt;)/hook_context(?:>|&gt;)", re.S
)
_PROOF = re.compile(r"^\[engram\] \w+: .*$", re.M)


def strip_injected(prompt: str) -> str:
    """The prompt without the text Engram (or another hook) injected into it."""
    return _PROOF.sub("", _HOOK_CONTEXT.sub("", prompt)).strip()


def relative_paths(paths: tuple[str, ...], cwd: Path, repo: Path) -> tuple[str, ...]:
    """Repository-relative forms of ``paths``; paths outside the repository drop out."""
    out: list[str] = []
    repo = repo.resolve()
    for raw in paths:
        candidate = Path(raw)
        full = candidate if candidate.is_absolute() else cwd / candidate
        try:
            rel = Path(_normalise(full)).relative_to(repo).as_posix()
        except ValueError:
            continue
        if rel and rel != "." and rel not in out:
            out.append(rel)
    return tuple(out)


def _normalise(path: Path) -> str:
    import os

    return os.path.normpath(str(path.resolve() if path.exists() else path.absolute()))


def _tool_paths(host: str, tool: str, tool_input: Any) -> tuple[str, ...]:
    if not isinstance(tool_input, dict):
        return ()
    if host == "codex":
        # Codex 0.171 applies patches through its shell tool (``tool_name`` "Bash",
        # an ``apply_patch`` heredoc in ``command``); older models had an apply_patch tool.
        if tool not in ("apply_patch", "Bash"):
            return ()
        patch = tool_input.get("command") or tool_input.get("patch") or tool_input.get("input")
        return tuple(dict.fromkeys(_PATCH_PATH.findall(patch))) if isinstance(patch, str) else ()
    allowed = GEMINI_FILE_TOOLS if host == "gemini" else CLAUDE_FILE_TOOLS
    if tool not in allowed:
        return ()
    for key in ("file_path", "absolute_path", "path"):
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return (value,)
    return ()


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""
