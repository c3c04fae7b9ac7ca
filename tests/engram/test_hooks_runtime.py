"""``engram hook``: from each host's documented stdin JSON to our exact stdout JSON.

Event payloads follow the hosts' documentation (Claude Code hooks reference,
Codex hook schemas in openai/codex, Gemini CLI hooks reference, Cursor hooks);
Codex answers are validated against the published output schemas.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from engram_repo import Repo

from haki.engram.hooks.inject import signature
from haki.engram.hooks.runtime import run

CODEX_SCHEMAS = Path(__file__).resolve().parents[1] / "fixtures" / "engram" / "hosts" / "codex"


def codex_schema(name: str) -> dict[str, Any]:
    return json.loads((CODEX_SCHEMAS / f"{name}.schema.json").read_text())


CODEX_OUTPUT = {
    "SessionStart": "session-start.command.output",
    "UserPromptSubmit": "user-prompt-submit.command.output",
    "PreToolUse": "pre-tool-use.command.output",
    "PreCompact": "pre-compact.command.output",
    "SubagentStart": "subagent-start.command.output",
}


@pytest.fixture
def ws(repo: Repo) -> Repo:
    repo.add(
        "api-layer",
        directive="Keep HTTP handlers thin; put logic in services.",
        tags=["api"],
        applies_to=["src/api/**"],
        content="- Handlers parse input and call one service.",
    )
    repo.add(
        "pytest-style",
        directive="Use pytest fixtures, never unittest classes.",
        tags=["pytest", "testing"],
        content="- Fixtures live in conftest.py.",
    )
    repo.add(
        "migrations-safe",
        directive="Every migration ships with a downgrade.",
        tags=["migrations"],
        applies_to=["migrations/**"],
        content="- Test the downgrade locally.",
    )
    repo.add(
        "db-session",
        directive="Open one database session per request.",
        tags=["database", "api"],
        content="- Close it in a finally block.",
    )
    (repo.root / "src" / "api").mkdir(parents=True)
    return repo


class Host:
    """Sends events the way one host does, for one session."""

    def __init__(self, name: str, repo: Repo, session: str = "sess-1") -> None:
        self.name, self.repo, self.session = name, repo, session

    def base(self, event: str) -> dict[str, Any]:
        cwd = str(self.repo.root)
        if self.name == "cursor":
            return {
                "conversation_id": self.session,
                "generation_id": "gen-1",
                "hook_event_name": event,
                "workspace_roots": [cwd],
            }
        data: dict[str, Any] = {
            "session_id": self.session,
            "transcript_path": "/home/u/.t/transcript.jsonl",
            "cwd": cwd,
            "hook_event_name": event,
        }
        if self.name == "claude" or (self.name == "codex" and event != "PreCompact"):
            data["permission_mode"] = "default"
        if self.name == "codex":
            data |= {"model": "gpt-5-codex", "turn_id": "turn-1"}
        if self.name == "gemini":
            data["timestamp"] = "2026-12-01T05:00:00Z"
        return data

    def send(self, event: str, schema: bool = True, **fields: Any) -> str:
        payload = self.base(event) | fields
        if self.name == "codex" and schema:
            _validate_codex_input(event, payload)
        out = run(self.name, json.dumps(payload), self.repo.global_dir)
        if self.name == "codex":
            jsonschema.validate(json.loads(out), codex_schema(CODEX_OUTPUT[event]))
        return out


def _validate_codex_input(event: str, payload: dict[str, Any]) -> None:
    names = {
        "UserPromptSubmit": "user-prompt-submit.command.input",
        "PreCompact": "pre-compact.command.input",
        "SubagentStart": "subagent-start.command.input",
    }
    if event in names:
        jsonschema.validate(payload, codex_schema(names[event]))


def context(out: str) -> str:
    data = json.loads(out)
    if "additional_context" in data:
        return str(data["additional_context"])
    return str(data["hookSpecificOutput"]["additionalContext"])


def answer(event: str, text: str) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})


# ---------------------------------------------------------------- Claude Code


def test_claude_prompt_delta_across_three_prompts(ws: Repo) -> None:
    claude = Host("claude", ws)
    first = claude.send("UserPromptSubmit", prompt="add a pytest fixture for the api handlers")
    assert first == (
        answer(
            "UserPromptSubmit",
            "[engram] UserPromptSubmit: 2 new bodies, 0 cards, 0 already loaded; "
            "anchors: pytest, fixture, api, handlers; read=auto; "
            f"set {signature(['pytest-style', 'api-layer'])}\n\n"
            "### pytest-style [rule, instruction]\n- Fixtures live in conftest.py.\n\n"
            "### api-layer [rule, instruction]\n- Handlers parse input and call one service.",
        )
        + "\n"
    )
    # The same routed set again: read=auto stays silent.
    assert claude.send("UserPromptSubmit", prompt="add a pytest fixture for the api handlers") == (
        "{}\n"
    )
    third = claude.send(
        "UserPromptSubmit", prompt="a pytest fixture for the api handlers with one database session"
    )
    assert context(third) == (
        "[engram] UserPromptSubmit: 1 new body, 0 cards, 2 already loaded; "
        "anchors: pytest, fixture, api, handlers, database, session; read=auto; "
        f"set {signature(['pytest-style', 'api-layer', 'db-session'])}\n\n"
        "### db-session [rule, instruction]\n- Close it in a finally block.\n\n"
        "already loaded: pytest-style, api-layer"
    )


def test_claude_precompact_resets_the_delivered_set(ws: Repo) -> None:
    claude = Host("claude", ws)
    prompt = "add a pytest fixture"
    assert "### pytest-style" in context(claude.send("UserPromptSubmit", prompt=prompt))
    assert claude.send("PreCompact", trigger="manual", custom_instructions="") == "{}\n"
    again = context(claude.send("UserPromptSubmit", prompt=prompt + " please"))
    assert "### pytest-style" in again and "\nalready loaded:" not in again


def test_claude_session_start_resets_and_routes_on_the_working_folder(ws: Repo) -> None:
    claude = Host("claude", ws)
    claude.send("UserPromptSubmit", prompt="add a pytest fixture")
    ws.root.joinpath("migrations").mkdir()
    out = claude.send(
        "SessionStart", source="startup", model="claude-sonnet-4-6", cwd=str(ws.root / "migrations")
    )
    assert context(out) == (
        "[engram] SessionStart: 1 new body, 0 cards, 0 already loaded; "
        "session startup, routed on 'repo migrations'; read=auto; "
        f"set {signature(['migrations-safe'])}\n\n"
        "### migrations-safe [rule, instruction]\n- Test the downgrade locally."
    )
    # The earlier delivery was forgotten: the pytest body comes back whole.
    assert "### pytest-style" in context(claude.send("UserPromptSubmit", prompt="pytest fixture"))


def test_claude_instructions_loaded_marks_native_rules_delivered(ws: Repo) -> None:
    claude = Host("claude", ws)
    rule = ws.root / ".claude" / "rules" / "engram" / "api-layer.md"
    out = claude.send(
        "InstructionsLoaded",
        file_path=str(rule),
        memory_type="Project",
        load_reason="path_glob_match",
        globs=["src/api/**"],
        trigger_file_path=str(ws.root / "src/api/users.py"),
    )
    assert out == "{}\n"
    text = context(claude.send("UserPromptSubmit", prompt="api handlers"))
    assert "### api-layer" not in text
    assert "already loaded: api-layer" in text


def test_claude_file_events_inject_at_most_three_bodies(ws: Repo) -> None:
    ws.engram.joinpath("config.yaml").write_text("hooks:\n  path_rules: hooks\n")
    for n in range(5):
        ws.add(f"api-extra-{n}", directive=f"API rule number {n}.", applies_to=["src/api/*.py"])
    claude = Host("claude", ws)
    out = claude.send(
        "PreToolUse",
        tool_name="Edit",
        tool_input={"file_path": str(ws.root / "src/api/users.py"), "old_string": "a"},
        tool_use_id="toolu_1",
    )
    text = context(out)
    assert text.startswith("[engram] PreToolUse: 3 new bodies, 3 cards")
    assert text.count("\n### ") == 3
    # The same file again: nothing new to say.
    again = claude.send(
        "PreToolUse",
        tool_name="Read",
        tool_input={"file_path": str(ws.root / "src/api/users.py")},
        tool_use_id="toolu_2",
    )
    assert context(again).startswith("[engram] PreToolUse: 3 new bodies, 0 cards, 0 already")
    assert (
        claude.send(
            "PreToolUse",
            tool_name="Read",
            tool_input={"file_path": str(ws.root / "src/api/users.py")},
            tool_use_id="toolu_3",
        )
        == "{}\n"
    )


def test_claude_native_path_rules_skip_file_events(ws: Repo) -> None:
    out = Host("claude", ws).send(
        "PreToolUse",
        tool_name="Edit",
        tool_input={"file_path": str(ws.root / "src/api/users.py")},
        tool_use_id="toolu_1",
    )
    assert out == "{}\n"


def test_claude_subagent_routes_on_its_own_task_never_the_parents(ws: Repo) -> None:
    claude = Host("claude", ws)
    claude.send("UserPromptSubmit", prompt="review the migrations downgrade")
    # Claude Code's SubagentStart names the agent type only: nothing to route on.
    assert claude.send("SubagentStart", agent_id="agent-abc123", agent_type="Explore") == "{}\n"
    # A host that sends the subagent's task gets it routed, in a fresh context.
    out = claude.send(
        "SubagentStart", agent_id="agent-2", agent_type="Explore", prompt="migrations downgrade"
    )
    text = context(out)
    assert json.loads(out)["hookSpecificOutput"]["hookEventName"] == "SubagentStart"
    assert text.startswith("[engram] SubagentStart: 1 new body")
    assert "### migrations-safe" in text  # fresh context: even if the parent has it


def test_resume_keeps_the_delivered_set_and_strips_injected_text(ws: Repo) -> None:
    claude = Host("claude", ws)
    claude.send("UserPromptSubmit", prompt="review the migrations downgrade")
    resumed = claude.send("SessionStart", source="resume")
    again = claude.send("UserPromptSubmit", prompt="migrations downgrade and pytest fixtures")
    assert "### migrations-safe" not in context(again) and "already loaded: migrations-safe" in (
        context(resumed) + context(again)
    )
    gemini = Host("gemini", ws, "g1")
    start = context(gemini.send("SessionStart", source="startup"))
    echoed = f"<hook_context>{start}</hook_context>\n\nadd a pytest fixture"
    text = context(gemini.send("BeforeAgent", prompt=echoed))
    assert "anchors: pytest, fixture;" in text


def test_claude_cap_demotes_bodies_to_cards_never_cuts(ws: Repo) -> None:
    for n in range(3):
        ws.add(
            f"big-{n}",
            directive=f"Large guidance {n} for the parser.",
            tags=["parser"],
            content="\n".join(f"- parser line {n}.{i} " + "x" * 80 for i in range(40)),
        )
    out = context(Host("claude", ws).send("UserPromptSubmit", prompt="parser guidance"))
    assert len(out) <= 9500
    assert out.startswith("[engram] UserPromptSubmit: 2 new bodies, 1 card")
    for n in range(2):  # the two bodies shown are whole, down to their last line
        assert f"### big-{n} [rule, instruction]" in out
        assert f"- parser line {n}.39 " in out
    assert "- parser line 2." not in out
    assert "- big-2 [rule] Large guidance 2 for the parser." in out
    assert "fetch: engram load --id big-2" in out


def test_claude_reports_skipped_memories_with_what_to_run(ws: Repo) -> None:
    from haki.engram.integrity import rehash

    rehash(ws.roots().all())
    path = ws.engram / "rules" / "pytest-style.md"
    path.write_text(path.read_text().replace("conftest.py", "conftest files"))
    text = context(Host("claude", ws).send("UserPromptSubmit", prompt="pytest fixtures"))
    assert (
        "skipped: pytest-style (hash_mismatch: edited outside engram; review it, then run " in text
    )
    assert "engram rehash" in text


# ---------------------------------------------------------------------- Codex


def test_codex_events_match_the_published_schemas(ws: Repo) -> None:
    codex = Host("codex", ws)
    start = codex.send("SessionStart", source="startup", model="gpt-5-codex")
    assert context(start).startswith("[engram] SessionStart: ")
    first = codex.send("UserPromptSubmit", prompt="add a pytest fixture")
    assert "### pytest-style" in context(first)
    patch = (
        "*** Begin Patch\n*** Update File: src/api/users.py\n@@\n-a\n+b\n"
        "*** Add File: migrations/0002_add.py\n+x\n*** End Patch\n"
    )
    edit = codex.send(
        "PreToolUse", tool_name="apply_patch", tool_input={"command": patch}, tool_use_id="c1"
    )
    text = context(edit)
    assert text.startswith("[engram] PreToolUse: 2 new bodies, 0 cards, 0 already loaded; ")
    assert "applies_to: src/api/users.py, migrations/0002_add.py" in text
    bash = codex.send(
        "PreToolUse", tool_name="Bash", tool_input={"command": "ls src/api"}, tool_use_id="c2"
    )
    assert bash == "{}\n"
    # Codex's SubagentStart carries no task: nothing is routed on the parent's prompt.
    sub = codex.send("SubagentStart", agent_id="a1", agent_type="worker", permission_mode="default")
    assert sub == "{}\n"
    bash_patch = codex.send(
        "PreToolUse",
        tool_name="Bash",
        tool_input={"command": f"apply_patch <<'EOF'\n{patch}EOF\n"},
        tool_use_id="c3",
    )
    assert bash_patch == "{}\n"  # both bodies were delivered by the apply_patch event
    assert codex.send("PreCompact", trigger="auto") == "{}\n"


def test_codex_subagent_prompt_is_delivered_in_its_own_context(ws: Repo) -> None:
    codex = Host("codex", ws)
    assert "### pytest-style" in context(
        codex.send("UserPromptSubmit", prompt="add a pytest fixture")
    )
    # Codex 0.171 runs a subagent's first turn with UserPromptSubmit: the parent's
    # session id, the subagent's agent_id and its task (fields the stored input
    # schema predates). Its context holds none of the parent's.
    child = {"agent_id": "a1", "agent_type": "default", "schema": False}
    first = context(codex.send("UserPromptSubmit", prompt="add a pytest fixture", **child))
    assert first.startswith("[engram] UserPromptSubmit: 1 new body, 0 cards, 0 already loaded")
    assert "### pytest-style" in first
    again = codex.send("UserPromptSubmit", prompt="another pytest fixture", **child)
    assert "### pytest-style" not in again  # the subagent's own delta holds
    parent = codex.send("UserPromptSubmit", prompt="a third pytest fixture")
    assert "### pytest-style" not in parent


def test_codex_cap_is_2400_tokens(ws: Repo) -> None:
    for n in range(4):
        ws.add(
            f"huge-{n}",
            directive=f"Huge lexer guidance {n}.",
            tags=["lexer"],
            content="\n".join(f"- lexer line {n}.{i} " + "y" * 90 for i in range(45)),
        )
    out = Host("codex", ws).send("UserPromptSubmit", prompt="lexer guidance")
    text = context(out)
    assert (len(text) + 3) // 4 <= 2400
    assert "new bodies" in text.splitlines()[0] or "new body" in text.splitlines()[0]
    assert "huge-" in text.split("fetch: engram load --id ")[1]


# --------------------------------------------------------------------- Gemini


def test_gemini_before_agent_and_after_tool(ws: Repo) -> None:
    gemini = Host("gemini", ws)
    out = gemini.send("BeforeAgent", prompt="add a pytest fixture")
    assert json.loads(out)["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    assert "### pytest-style" in context(out)
    tool = gemini.send(
        "AfterTool",
        tool_name="read_file",
        tool_input={"file_path": str(ws.root / "src/api/users.py")},
        tool_response={"llmContent": "..."},
    )
    assert context(tool) == (
        "[engram] AfterTool: 1 new body, 0 cards, 0 already loaded; "
        "applies_to: src/api/users.py; read=auto; "
        f"set {signature(['pytest-style', 'api-layer'])}\n\n"
        "### api-layer [rule, instruction]\n- Handlers parse input and call one service."
    )
    shell = gemini.send("AfterTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    assert shell == "{}\n"
    assert gemini.send("PreCompress", trigger="auto") == "{}\n"
    assert "### pytest-style" in context(gemini.send("BeforeAgent", prompt="pytest fixture"))


# --------------------------------------------------------------------- Cursor


def test_cursor_session_start_answers_additional_context(ws: Repo) -> None:
    ws.root.joinpath("migrations").mkdir()
    cursor = Host("cursor", ws)
    out = cursor.send("sessionStart", session_id="c-1", is_background_agent=False)
    data = json.loads(out)
    assert list(data) == ["additional_context"]
    assert data["additional_context"].startswith("[engram] sessionStart: ")


# ---------------------------------------------------------- errors and modes


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "cursor"])
def test_errors_answer_the_hosts_no_op(host: str, ws: Repo, tmp_path: Path) -> None:
    assert run(host, "not json") == "{}\n"
    assert run(host, json.dumps({"no": "event"})) == "{}\n"
    elsewhere = tmp_path / "plain"
    elsewhere.mkdir()
    payload = {"session_id": "x", "hook_event_name": "UserPromptSubmit", "cwd": str(elsewhere)}
    assert run(host, json.dumps(payload | {"prompt": "pytest"})) == "{}\n"


def test_broken_config_answers_no_op(ws: Repo) -> None:
    ws.engram.joinpath("config.yaml").write_text("hooks: [not, a, mapping]\n")
    assert Host("claude", ws).send("UserPromptSubmit", prompt="pytest fixture") == "{}\n"


def test_read_modes(ws: Repo) -> None:
    config = ws.engram / "config.yaml"
    config.write_text("hooks:\n  read: off\n")
    assert Host("claude", ws, "m1").send("SessionStart", source="startup") == "{}\n"
    config.write_text("hooks:\n  read: startup\n")
    assert Host("claude", ws, "m2").send("UserPromptSubmit", prompt="pytest fixture") == "{}\n"
    assert Host("claude", ws, "m2").send("SessionStart", source="startup") != "{}\n"
    config.write_text("hooks:\n  read: always\n")
    always = Host("claude", ws, "m3")
    always.send("UserPromptSubmit", prompt="pytest fixture")
    repeat = context(always.send("UserPromptSubmit", prompt="pytest fixture"))
    assert repeat.endswith("already loaded: pytest-style")


def test_concurrent_prompts_deliver_each_body_once(ws: Repo) -> None:
    outs: list[str] = []

    def prompt(text: str) -> None:
        outs.append(Host("claude", ws, "race").send("UserPromptSubmit", prompt=text))

    threads = [
        threading.Thread(target=prompt, args=(f"pytest fixture variant {n}",)) for n in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bodies = sum(context(o).count("### pytest-style") for o in outs if o != "{}\n")
    assert bodies == 1


def test_old_sessions_are_pruned(ws: Repo) -> None:
    import os

    from haki.engram.hooks.state import prune

    claude = Host("claude", ws, "old")
    claude.send("UserPromptSubmit", prompt="pytest fixture")
    sessions = next(Path(os.environ["ENGRAM_CACHE_DIR"]).glob("*/sessions"))
    files = list(sessions.iterdir())
    assert files
    for f in files:
        os.utime(f, (1, 1))
    assert prune(sessions) == len(files)
