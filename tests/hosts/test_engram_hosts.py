"""Engram's hooks and MCP server inside Claude Code, Codex and Gemini CLI themselves.

Each test runs the real host non-interactively against the scripted model
server and asserts on what the model received: the request bodies the host
sent, not the hook's stdout.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import pytest
from harness import BILLING, DEPLOY, MIGRATIONS, PAGINATION, Workspace, memory
from model_server import AGENT_ID, Step

HOSTS = ["claude", "codex", "gemini"]
by_host = pytest.mark.parametrize("workspace", HOSTS, indirect=True)


def read_migration(ws: Workspace) -> tuple[str, dict[str, object]]:
    """The host's own file tool, touching migrations/0001_init.sql."""
    if ws.host == "claude":
        return "Read", {"file_path": str(ws.repo / "migrations" / "0001_init.sql")}
    if ws.host == "gemini":
        return "read_file", {"file_path": "migrations/0001_init.sql"}
    # Codex 0.171 offers no apply_patch tool to this model: patches go through its
    # shell tool, which Codex recognises and reports to hooks as tool "Bash".
    patch = (
        "*** Begin Patch\n*** Update File: migrations/0001_init.sql\n@@\n"
        "-create table t(id int);\n+create table t(id bigint);\n*** End Patch\n"
    )
    return "exec_command", {"cmd": f"apply_patch <<'EOF'\n{patch}EOF\n", "workdir": str(ws.repo)}


@by_host
def test_session_start_prompt_and_path_trigger(workspace: Workspace) -> None:
    ws = workspace
    ws.install_hooks()
    ws.model.reset([Step("Fix the cursor pagination bug", [read_migration(ws)])])
    ws.run("Fix the cursor pagination bug")
    seen = ws.conversation("Fix the cursor pagination bug")
    assert seen.count(BILLING) == 1, "session start"
    assert seen.count(PAGINATION) == 1, "the prompt's memory"
    assert seen.count(MIGRATIONS) == 1, "the path trigger"


@by_host
def test_delta_across_prompts_and_resume(workspace: Workspace) -> None:
    ws = workspace
    ws.install_hooks()
    if ws.host == "claude":
        first = ws.run("Fix the cursor pagination bug", "Cursor pagination again, please")
        assert ws.conversation("Cursor pagination again, please").count(PAGINATION) == 1, (
            "two prompts, one process"
        )
    else:
        first = ws.run("Fix the cursor pagination bug")
    ws.run("Cursor pagination for the deploy checklist", resume=first.session)
    seen = ws.conversation("Cursor pagination for the deploy checklist")
    assert seen.count(DEPLOY) == 1, "the resumed prompt's new memory"
    if ws.host == "gemini":
        # Gemini CLI 0.61 rebuilds a resumed headless session without the earlier
        # user turns and the hook context added to them: the body must come again.
        assert "Fix the cursor pagination bug" not in seen
    else:
        assert "Fix the cursor pagination bug" in seen, "the resumed conversation"
    assert seen.count(PAGINATION) == 1, "shown once: kept on resume, or again when lost"
    assert seen.count(BILLING) <= 1


@by_host
def test_caps(workspace: Workspace) -> None:
    ws = workspace
    for n in range(8):
        filler = " ".join(f"telemetry exporter detail {n}-{k}." for k in range(90))
        memory(ws.repo, f"telemetry-{n}", "knowledge", f"Telemetry exporter note {n}.",
               ["telemetry", "exporter"], f"- BODY-TELEMETRY-{n}: {filler}")  # fmt: skip
    ws.install_hooks()
    ws.run("Wire the telemetry exporter")
    blocks = [prompt_block(s) for s in ws.injected("BODY-TELEMETRY-")]
    assert blocks, "the prompt's memories arrived"
    block = max(blocks, key=len)
    cap = 2400 * 4 if ws.host == "codex" else 9500
    assert len(block) <= cap + 200, f"{len(block)} characters over the host's ceiling"
    assert "fetch: engram load --id" in block, "what did not fit is listed as cards"


def prompt_block(text: str) -> str:
    """One prompt hook's injection, cut out of what the host joined it with."""
    start = min(
        text.find(f"[engram] {e}:") % (len(text) + 1) for e in ("UserPromptSubmit", "BeforeAgent")
    )
    end = min(
        (
            i
            for i in (text.find("[engram] ", start + 1), text.find("</hook_context>", start))
            if i > 0
        ),
        default=len(text),
    )
    return text[start:end]


@pytest.mark.parametrize("workspace", ["claude"], indirect=True)
def test_native_rules_and_hooks_never_deliver_a_body_twice(workspace: Workspace) -> None:
    ws = workspace
    out = ws.install_hooks()
    assert "path rule files" in out
    ws.model.reset([Step("Write the migration downgrade", [read_migration(ws)])])
    ws.run("Write the migration downgrade")
    seen = ws.conversation("Write the migration downgrade")
    assert "migrations-safe" in seen
    assert seen.count(MIGRATIONS) == 1


@pytest.mark.parametrize("workspace", ["claude"], indirect=True)
def test_subagent_routes_on_its_own_task_or_nothing(workspace: Workspace) -> None:
    ws = workspace
    ws.install_hooks()
    task = "Deploy the release with the checklist"
    call = ("Agent", {"description": "deploy", "prompt": task, "subagent_type": "general-purpose"})
    ws.model.reset([Step("Fix the cursor pagination bug", [call])])
    ws.run("Fix the cursor pagination bug")
    child = [
        r.text
        for r in ws.model.model_requests(task)
        if "Fix the cursor pagination bug" not in r.text
    ]
    assert child, "the subagent asked the model"
    # Claude Code's SubagentStart carries no task: the parent's prompt must not be routed.
    assert all(PAGINATION not in text for text in child)


@pytest.mark.parametrize("workspace", ["codex"], indirect=True)
def test_codex_subagent_routes_on_its_task_in_its_own_context(workspace: Workspace) -> None:
    ws = workspace
    ws.install_hooks()
    task = "Cursor pagination for the deploy checklist"
    spawn = ("multi_agent_v1__spawn_agent", {"message": task})
    # `codex exec` ends with the parent's turn: the parent waits for its subagent.
    wait = ("multi_agent_v1__wait_agent", {"targets": [AGENT_ID], "timeout_ms": 120000})
    ws.model.reset([Step("Fix the cursor pagination bug", [spawn, wait])])
    ws.run("Fix the cursor pagination bug")
    child = [
        r.text
        for r in ws.model.model_requests(task)
        if "Fix the cursor pagination bug" not in r.text
    ]
    assert child, "the subagent asked the model"
    seen = max(child, key=len)
    # Codex's SubagentStart names no task, but the subagent's first turn fires
    # UserPromptSubmit with its task (and its agent_id): Engram routes on that.
    assert seen.count(DEPLOY) == 1, "the subagent's task routed"
    # The subagent starts from its task alone: a body its parent was shown is
    # not in its context, so it must not count as already delivered.
    assert seen.count(PAGINATION) == 1, "delivered to the subagent's own context"
    parent = ws.conversation("Fix the cursor pagination bug")
    assert parent.count(PAGINATION) == 1 and DEPLOY not in parent


MCP_LOAD = {
    "claude": "mcp__engram__engram_load",
    # Codex offers an MCP server's tools as the Responses API namespace "mcp__engram".
    "codex": "mcp__engram__engram_load",
    "gemini": "mcp_engram_engram_load",
}


@by_host
def test_engram_mcp_listed_and_called(workspace: Workspace) -> None:
    ws = workspace
    ws.engram("index")
    ws.engram("mcp", "install", "--host", ws.host, "--command", ws.command)
    name = MCP_LOAD[ws.host]
    # Claude Code connects MCP servers in the background; a model that finds the
    # tool missing calls its WaitForMcpServers tool, as a real one is told to.
    call = (name, {"query": "cursor pagination"})
    ws.model.reset([Step("Which conventions apply here?", [call], wait="WaitForMcpServers")])
    extra = ("--allowedTools", name) if ws.host == "claude" else ()
    ws.run("Which conventions apply here?", extra=extra)
    requests = ws.model.model_requests("Which conventions apply here?")
    listed = [name in r.tools for r in requests]
    assert any(listed), "listed"
    if ws.host == "codex":
        # Codex waits for the server only because the install marks it required:
        # without that, its first request (in `codex exec` often its only one) goes
        # out before the Python server has answered, and offers none of its tools.
        assert listed[0], "listed from the first request"
    assert PAGINATION in ws.conversation("Which conventions apply here?"), (
        "the call's result holds the memory body"
    )


@by_host
def test_hook_cost_per_event(workspace: Workspace) -> None:
    """Whole-process time of every hook the host ran, printed (figures, not a timed assertion)."""
    ws = workspace
    times = ws.root / "hook-times.jsonl"
    ws.env["HOOK_TIMES"] = str(times)
    wrapper = Path(__file__).with_name("time_hook.py")
    ws.engram("index")
    ws.engram(
        "hooks", "install", "--host", ws.host, "--command", f"{sys.executable} {wrapper} {ws.command}"
    )  # fmt: skip
    ws.model.reset([Step("Fix the cursor pagination bug", [read_migration(ws)])])
    ws.run("Fix the cursor pagination bug")
    runs = [json.loads(line) for line in times.read_text().splitlines()]
    by_event: dict[str, list[dict[str, float]]] = {}
    for run in runs:
        by_event.setdefault(run["event"], []).append(run)
    for event, seen in sorted(by_event.items()):
        wall = statistics.median(r["seconds"] for r in seen)
        cpu = statistics.median(r["cpu"] for r in seen)
        load = statistics.median(r["load"] for r in seen)
        print(
            f"{ws.host} {event}: {len(seen)} run(s), median {wall:.2f} s wall "
            f"(max {max(r['seconds'] for r in seen):.2f}), {cpu:.2f} s CPU, load {load:.1f}"
        )
    assert "SessionStart" in by_event and by_event.keys() & {"UserPromptSubmit", "BeforeAgent"}
    # Native rule files cost no hook process at all: InstructionsLoaded is not hooked.
    assert "InstructionsLoaded" not in by_event


@pytest.mark.parametrize("workspace", ["codex"], indirect=True)
def test_status_says_when_codex_will_not_run_the_hooks(workspace: Workspace) -> None:
    ws = workspace
    out = ws.install_hooks()
    assert "trusted Engram's 5 hook handlers" in out
    assert "will not run" not in ws.engram("hooks", "status", "--host", "codex")
    config = ws.home / ".codex" / "config.toml"
    trusted = config.read_text()
    # Without the trust entries (as before this install wrote them) Codex runs no hook.
    config.write_text(trusted.split("# >>> engram hook trust")[0])
    status = ws.engram("hooks", "status", "--host", "codex")
    assert "will not run: codex has no trust recorded for session_start" in status
    ws.run("Fix the cursor pagination bug")
    assert BILLING not in ws.conversation("Fix the cursor pagination bug")
