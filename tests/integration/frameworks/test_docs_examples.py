"""Every ``run:`` block of docs/integrations.md, executed as a user would run it.

Python blocks run in a subprocess of the project's interpreter, the
JavaScript one with node (``haki-memory`` resolved to sdk/typescript), all
against the live server; the OpenAI Agents example talks to the scripted
loopback model through the standard ``OPENAI_BASE_URL``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from faces_helpers import Upstream

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "integrations.md"
BLOCK = re.compile(r"```(python|js)\n(?:#|//) run: ([\w-]+)\n(.*?)```", re.DOTALL)


def examples() -> dict[str, tuple[str, str]]:
    return {name: (lang, code) for lang, name, code in BLOCK.findall(DOC.read_text())}


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        cmd, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_doc_has_one_example_per_framework() -> None:
    assert sorted(examples()) == ["langgraph", "openai-agents", "typescript"]


def test_typescript_example(haki_url: str, tmp_path: Path) -> None:
    _, code = examples()["typescript"]
    npm = shutil.which("npm")
    assert npm, "npm is not on PATH"
    subprocess.run([npm, "run", "build", "--silent"], cwd=ROOT / "sdk/typescript", check=True)
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "haki-memory").symlink_to(ROOT / "sdk" / "typescript")
    (tmp_path / "example.mjs").write_text(code)
    out = run(["node", "example.mjs"], tmp_path, {"HAKI_URL": haki_url})
    assert out.startswith("<haki_memory>\nMemory about subject alice.")
    assert "Lyon" in out
    assert out.rstrip().endswith("404 not_found true")


def test_langgraph_example(haki_url: str, tmp_path: Path) -> None:
    _, code = examples()["langgraph"]
    (tmp_path / "example.py").write_text(code)
    out = run([sys.executable, "example.py"], tmp_path, {"HAKI_URL": haki_url}).splitlines()
    assert out[0] == "{'text': 'Bob drinks green tea.'}"
    assert "drink" in out[1]  # the store's own item, found by a context call
    assert out[-1] == "Green tea, then."


def test_openai_agents_example(haki_url: str, upstream: Upstream, tmp_path: Path) -> None:
    _, code = examples()["openai-agents"]
    (tmp_path / "example.py").write_text(code)
    upstream.requests.clear()
    call = {"name": "recall_memory", "arguments": json.dumps({"query": "diet"})}
    upstream.script = [
        {"tool_calls": [{"id": "call_doc", "type": "function", "function": call}]},
        {"content": "A chickpea curry."},
    ]
    env = {
        "HAKI_URL": haki_url,
        "OPENAI_BASE_URL": upstream.url,
        "OPENAI_API_KEY": "sk-local",
        "OPENAI_AGENTS_DISABLE_TRACING": "1",
    }
    out = run([sys.executable, "example.py"], tmp_path, env).splitlines()
    assert out == ["A chickpea curry.", "4 items in the session"]
    assert len(upstream.requests) == 2
    assert any(m["role"] == "tool" for m in upstream.requests[1]["messages"])
