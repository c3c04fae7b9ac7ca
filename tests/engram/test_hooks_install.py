"""``engram hooks install|uninstall|status`` and the end-to-end path a host takes:
read the command back from the host's config file, run it with event JSON on
stdin, check what the agent would receive."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from haki.engram.hooks import install as inst
from haki.engram.hooks.hosts import host

USER_CLAUDE = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./block-rm.sh"}]}
        ],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./branch.sh"}]}],
    },
}


@pytest.fixture
def engram(tmp_path: Path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    env = dict(
        os.environ,
        ENGRAM_GLOBAL_DIR=str(tmp_path / "global"),
        ENGRAM_CACHE_DIR=str(tmp_path / "cache"),
        HOME=str(tmp_path / "home"),
    )

    def run(*args: str, stdin: str | None = None, code: int = 0) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "haki.engram.cli", *args],
            cwd=repo,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == code, (done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done.stdout

    run.repo = repo  # type: ignore[attr-defined]
    run.env = env  # type: ignore[attr-defined]
    return run


PROGRAM = f"{shlex.quote(sys.executable)} -m haki.engram.cli"


def test_install_merges_keeps_user_hooks_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(USER_CLAUDE, indent=4))
    spec = host("claude")
    assert inst.install(spec, path, "engram hook --host claude", "native").changed
    data = json.loads(path.read_text())
    assert data["permissions"] == USER_CLAUDE["permissions"]
    # The user's entries stay first and untouched; ours come after.
    assert data["hooks"]["PreToolUse"] == USER_CLAUDE["hooks"]["PreToolUse"]
    assert data["hooks"]["UserPromptSubmit"][0] == USER_CLAUDE["hooks"]["UserPromptSubmit"][0]
    assert data["hooks"]["UserPromptSubmit"][1] == {
        "hooks": [{"type": "command", "command": "engram hook --host claude", "timeout": 10}]
    }
    assert list(data["hooks"]) == [
        "PreToolUse",
        "UserPromptSubmit",
        "SessionStart",
        "PreCompact",
        "SubagentStart",
    ]
    before = path.read_bytes()
    assert not inst.install(spec, path, "engram hook --host claude", "native").changed
    assert path.read_bytes() == before
    # Switching path rules to hooks adds our PreToolUse file hook after the user's.
    inst.install(spec, path, "engram hook --host claude", "hooks")
    data = json.loads(path.read_text())
    assert data["hooks"]["PreToolUse"][0] == USER_CLAUDE["hooks"]["PreToolUse"][0]
    assert data["hooks"]["PreToolUse"][1]["matcher"] == "Read|Edit|Write|MultiEdit"
    assert inst.uninstall(spec, path).changed
    assert json.loads(path.read_text()) == USER_CLAUDE


def test_shared_group_keeps_the_users_handler(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    ours = {"type": "command", "command": "/opt/bin/engram hook --host claude", "timeout": 5}
    mine = {"type": "command", "command": "./mine.sh"}
    path.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [mine, ours]}]}}))
    inst.install(host("claude"), path, "engram hook --host claude", "native")
    group = json.loads(path.read_text())["hooks"]["SessionStart"]
    assert group == [
        {
            "hooks": [
                mine,
                {"type": "command", "command": "engram hook --host claude", "timeout": 10},
            ]
        }
    ]
    inst.uninstall(host("claude"), path)
    assert "hooks" not in json.loads(path.read_text()) or json.loads(path.read_text())["hooks"] == {
        "SessionStart": [{"hooks": [mine]}]
    }


def test_cursor_file_gets_the_version_wrapper(tmp_path: Path) -> None:
    path = tmp_path / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"afterFileEdit": [{"command": "./fmt.sh"}]}}))
    inst.install(host("cursor"), path, "engram hook --host cursor", "native")
    assert json.loads(path.read_text()) == {
        "version": 1,
        "hooks": {
            "afterFileEdit": [{"command": "./fmt.sh"}],
            "sessionStart": [{"command": "engram hook --host cursor"}],
        },
    }


def test_timeouts_use_each_hosts_unit(tmp_path: Path) -> None:
    for name, expected in (("claude", 10), ("codex", 10), ("gemini", 10000)):
        path = tmp_path / f"{name}.json"
        inst.install(host(name), path, f"engram hook --host {name}", "native")
        hooks = json.loads(path.read_text())["hooks"]
        timeouts = {h["timeout"] for groups in hooks.values() for g in groups for h in g["hooks"]}
        assert timeouts == {expected}


def test_invalid_json_is_refused_not_overwritten(engram) -> None:
    target = engram.repo / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text("{not json")
    engram("init")
    out = engram("hooks", "install", "--host", "claude", code=2)
    assert out == ""
    assert target.read_text() == "{not json"


def _commands(config: dict[str, Any], event: str) -> list[str]:
    out = []
    for entry in config["hooks"][event]:
        for handler in entry.get("hooks", [entry]):
            if "hook --host" in handler["command"]:
                out.append(handler["command"])
    return out


def test_end_to_end_every_host(engram, tmp_path: Path) -> None:
    repo: Path = engram.repo
    engram("init")
    engram(
        "add",
        "rule",
        "--id",
        "api-layer",
        "--directive",
        "Keep HTTP handlers thin.",
        "--tags",
        "api",
        "--applies-to",
        "src/api/**",
    )
    engram(
        "add",
        "rule",
        "--id",
        "pytest-style",
        "--directive",
        "Use pytest fixtures.",
        "--tags",
        "pytest",
    )
    out = engram(
        "hooks",
        "install",
        "--host",
        "claude",
        "--host",
        "codex",
        "--host",
        "gemini",
        "--host",
        "cursor",
        "--command",
        PROGRAM,
    )
    assert "claude: installed in .claude/settings.json" in out
    assert (
        (repo / ".claude/rules/engram/api-layer.md")
        .read_text()
        .startswith('---\npaths:\n  - "src/api/**"\n---\n')
    )
    mdc = (repo / ".cursor/rules/engram/api-layer.mdc").read_text()
    assert mdc.startswith("---\ndescription: Keep HTTP handlers thin.\nglobs: src/api/**\n")
    assert "pytest-style" not in " ".join(os.listdir(repo / ".claude/rules/engram"))

    def fire(config: Path, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        (command,) = _commands(json.loads(config.read_text()), event)
        done = subprocess.run(
            command,
            shell=True,
            cwd=repo,
            env=engram.env,
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    common = {"session_id": "e2e", "cwd": str(repo), "transcript_path": None}
    claude = fire(
        repo / ".claude/settings.json",
        "UserPromptSubmit",
        common | {"hook_event_name": "UserPromptSubmit", "prompt": "write a pytest fixture"},
    )
    text = claude["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("[engram] UserPromptSubmit: 1 new body")
    assert "### pytest-style [rule, instruction]\n- Use pytest fixtures." in text

    codex = fire(
        repo / ".codex/hooks.json",
        "PreToolUse",
        common
        | {
            "hook_event_name": "PreToolUse",
            "tool_name": "apply_patch",
            "tool_input": {
                "command": "*** Begin Patch\n*** Add File: src/api/x.py\n+1\n*** End Patch"
            },
        },
    )
    assert "### api-layer" in codex["hookSpecificOutput"]["additionalContext"]

    gemini = fire(
        repo / ".gemini/settings.json",
        "BeforeAgent",
        common | {"hook_event_name": "BeforeAgent", "prompt": "pytest fixture"},
    )
    assert "### pytest-style" in gemini["hookSpecificOutput"]["additionalContext"]

    cursor = fire(
        repo / ".cursor/hooks.json",
        "sessionStart",
        {"conversation_id": "c", "hook_event_name": "sessionStart", "workspace_roots": [str(repo)]},
    )
    assert cursor["additional_context"].startswith("[engram] sessionStart: ")

    status = engram("hooks", "status")
    assert "claude: SessionStart, UserPromptSubmit, PreCompact, SubagentStart" in status
    assert "rule files: 1 in .claude/rules/engram" in status

    # A changed memory regenerates the rule file on `engram index`.
    engram(
        "add", "rule", "--id", "db-tx", "--directive", "Wrap writes.", "--applies-to", "src/db/**"
    )
    assert "claude: 2 path rule files" in engram("index")
    assert (repo / ".claude/rules/engram/db-tx.md").exists()

    engram("hooks", "uninstall", "--host", "claude", "--host", "cursor")
    assert not (repo / ".claude/rules/engram").exists()
    assert json.loads((repo / ".claude/settings.json").read_text()) == {}
    assert json.loads((repo / ".cursor/hooks.json").read_text()) == {"version": 1}


def test_global_install_writes_under_home(engram) -> None:
    engram("init")
    engram("hooks", "install", "--host", "gemini", "--global", "--command", PROGRAM)
    home = Path(engram.env["HOME"])
    assert _commands(json.loads((home / ".gemini/settings.json").read_text()), "BeforeAgent") == [
        f"{PROGRAM} hook --host gemini"
    ]
    assert not (engram.repo / ".gemini").exists()
