"""What each agent host expects: where its hook config lives, which events we
register, its timeout unit, its payload ceiling and the JSON it reads back.

Sources (read with the hosts' own documentation):
- Claude Code: ``.claude/settings.json`` ``hooks.<Event>: [{matcher, hooks: [{type,
  command, timeout}]}]``, timeout in seconds; output ``hookSpecificOutput.additionalContext``.
- Codex: ``.codex/hooks.json``, same nesting, seconds; outputs checked against the
  JSON schemas published in ``openai/codex`` (``codex-rs/hooks/schema/generated``).
- Gemini CLI: ``.gemini/settings.json`` ``hooks.<Event>``, timeout in milliseconds;
  output ``hookSpecificOutput.additionalContext``.
- Cursor: ``.cursor/hooks.json`` ``{"version": 1, "hooks": {"sessionStart": [{command}]}}``;
  output ``additional_context``.
"""

from __future__ import annotations

from pathlib import Path

from ..record import Record

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any, Literal

    HostName = Literal["claude", "codex", "gemini", "cursor"]

HOSTS: tuple[HostName, ...] = ("claude", "codex", "gemini", "cursor")

# Our handler must finish well inside this; the runtime gives up earlier (``runtime.DEADLINE``).
TIMEOUT_SECONDS = 10


class Registration(Record):
    """One hook entry written into a host's configuration."""

    event: str
    matcher: str | None = None


class Host(Record):
    """How one agent host configures hooks and reads their answers."""

    name: HostName
    config: str  # relative to the project root, or to $HOME with --global
    nested: bool  # Claude-style ``[{matcher, hooks: [...]}]`` groups; Cursor is flat
    timeout: int | None  # written as-is: seconds or milliseconds per host
    cap_chars: int | None = None
    cap_tokens: int | None = None
    # Whether a resumed session still holds what hooks injected before (measured
    # with the host: Claude Code and Codex replay it; Gemini CLI 0.61 rebuilds a
    # resumed session without the earlier user turns and their hook context).
    resume_keeps_context: bool = True

    def config_path(self, project: Path, global_: bool, home: Path | None = None) -> Path:
        return ((home or Path.home()) if global_ else project) / self.config

    def registrations(self, path_rules: str) -> tuple[Registration, ...]:
        return _REGISTRATIONS[self.name](path_rules)

    def command(self, program: str = "engram") -> str:
        return f"{program} hook --host {self.name}"

    def handler(self, command: str) -> dict[str, Any]:
        entry: dict[str, Any] = {}
        if self.name == "gemini":
            entry["name"] = "engram"
        if self.nested:
            entry["type"] = "command"
        entry["command"] = command
        if self.timeout is not None:
            entry["timeout"] = self.timeout
        return entry

    def answer(self, event: str, context: str | None) -> dict[str, Any]:
        """The JSON the host reads back; ``{}`` is every host's no-op."""
        if not context:
            return {}
        if self.name == "cursor":
            return {"additional_context": context}
        return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}


def _claude(path_rules: str) -> tuple[Registration, ...]:
    # With native path rules Claude Code loads the rule files itself, and hooks
    # name those memories as cards only, so no file event is hooked at all (an
    # ``InstructionsLoaded`` hook cost one Python start per rule file loaded).
    files = (
        () if path_rules == "native" else (Registration("PreToolUse", "Read|Edit|Write|MultiEdit"),)
    )
    return (
        Registration("SessionStart"),
        Registration("UserPromptSubmit"),
        *files,
        Registration("PreCompact"),
        Registration("SubagentStart"),
    )


def _codex(_: str) -> tuple[Registration, ...]:
    return (
        Registration("SessionStart"),
        Registration("UserPromptSubmit"),
        Registration("PreToolUse", "apply_patch|Bash"),
        Registration("PreCompact"),
        Registration("SubagentStart"),
    )


def _gemini(_: str) -> tuple[Registration, ...]:
    return (
        Registration("SessionStart"),
        Registration("BeforeAgent"),
        Registration("AfterTool", "read_file|write_file|replace"),
        Registration("PreCompress"),
    )


def _cursor(_: str) -> tuple[Registration, ...]:
    return (Registration("sessionStart"),)


_REGISTRATIONS = {"claude": _claude, "codex": _codex, "gemini": _gemini, "cursor": _cursor}

HOST_SPECS: dict[str, Host] = {
    "claude": Host(
        "claude", ".claude/settings.json", nested=True, timeout=TIMEOUT_SECONDS, cap_chars=9500
    ),
    "codex": Host(
        "codex", ".codex/hooks.json", nested=True, timeout=TIMEOUT_SECONDS, cap_tokens=2400
    ),
    "gemini": Host(
        "gemini",
        ".gemini/settings.json",
        nested=True,
        timeout=TIMEOUT_SECONDS * 1000,
        cap_chars=9500,
        resume_keeps_context=False,
    ),
    # Cursor's handler timeout unit is not confirmed by a document we could read,
    # so none is written and Cursor's default applies.
    "cursor": Host(
        "cursor",
        ".cursor/hooks.json",
        nested=False,
        timeout=None,
        cap_chars=9500,
        resume_keeps_context=False,  # not measured: deliver again rather than claim loaded
    ),
}


def host(name: str) -> Host:
    return HOST_SPECS[name]
