"""A new user's first repository: ``engram init``, one ``engram add``, then ``engram load``
and the installed Claude ``UserPromptSubmit`` hook, each a real process."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = f"{shlex.quote(sys.executable)} -m haki.engram.cli"
TASKS = (
    "write a migration for the orders table",
    "add a column to the users table with a new migration",
)


@pytest.fixture
def small_repo(tmp_path: Path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    env = dict(
        os.environ,
        ENGRAM_GLOBAL_DIR=str(tmp_path / "global"),
        ENGRAM_CACHE_DIR=str(tmp_path / "cache"),
        HOME=str(tmp_path / "home"),
    )

    def run(*args: str, stdin: str | None = None, shell_command: str | None = None) -> str:
        cmd: str | list[str] = shell_command or [sys.executable, "-m", "haki.engram.cli", *args]
        done = subprocess.run(
            cmd,
            shell=shell_command is not None,
            cwd=repo,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, (done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done.stdout

    run("init")
    run(
        "add",
        "rule",
        "--id",
        "db-migrations",
        "--tags",
        "migrations",
        "--triggers",
        "migration",
        "--directive",
        "Keep schema changes reversible and never edit one that has been merged.",
    )
    run.repo = repo  # type: ignore[attr-defined]
    return run


@pytest.mark.parametrize("task", TASKS)
def test_one_memory_loads_for_the_tasks_it_is_about(small_repo, task: str) -> None:
    out = small_repo("load", task)
    assert out.startswith("loaded 1 memory file")
    assert "### db-migrations [rule, instruction]" in out


def test_one_memory_stays_out_of_an_unrelated_task(small_repo) -> None:
    out = small_repo("load", "rename the Slack channel for deploy notifications")
    assert "db-migrations" not in out


def test_the_installed_claude_hook_injects_it(small_repo) -> None:
    small_repo("hooks", "install", "--host", "claude", "--command", PROGRAM)
    settings = json.loads((small_repo.repo / ".claude" / "settings.json").read_text())
    (entry,) = settings["hooks"]["UserPromptSubmit"]
    (handler,) = entry["hooks"]
    for n, task in enumerate((*TASKS, "rename the Slack channel for deploy notifications")):
        payload = {
            "session_id": f"first-try-{n}",
            "transcript_path": None,
            "cwd": str(small_repo.repo),
            "hook_event_name": "UserPromptSubmit",
            "prompt": task,
        }
        answer = json.loads(small_repo(stdin=json.dumps(payload), shell_command=handler["command"]))
        if n < len(TASKS):
            context = answer["hookSpecificOutput"]["additionalContext"]
            assert "### db-migrations [rule, instruction]" in context, task
        else:
            assert answer == {}, task


def test_init_with_a_folder_initialises_that_folder(tmp_path: Path) -> None:
    outer = tmp_path / "checkout"
    (outer / ".git").mkdir(parents=True)
    inner = outer / "examples" / "small"
    inner.mkdir(parents=True)
    env = dict(os.environ, ENGRAM_CACHE_DIR=str(tmp_path / "cache"))

    def engram(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "haki.engram.cli", *args],
            cwd=outer,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    engram("init", "-C", str(inner))
    assert (inner / ".agents" / "engram" / "config.yaml").is_file()
    assert not (outer / ".agents").exists()
    engram("add", "rule", "-C", str(inner), "--id", "x-rule", "--tags", "x", "--directive", "Do x.")
    assert (inner / ".agents" / "engram" / "rules" / "x-rule.md").is_file()
