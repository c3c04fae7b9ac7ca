"""The docs check: the README stays short, and every command it shows runs.

The quickstart block is run as written by tests/install/test_fresh_venv.py
(a fresh virtualenv, ``pip install ".[server]"`` alone). Every other command
is checked here: a ``make`` target exists; an extra exists; a ``haki`` or
``engram`` command and a benchmark script answer ``--help`` and know every
option the README gives them; a benchmark's data and script exist.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
BIN = Path(sys.executable).parent
PREFIXES = ("make ", "haki ", "engram ", "pip ", "export ", ".venv/bin/", "HAKI_")


def readme() -> str:
    return README.read_text(encoding="utf-8")


def commands() -> list[str]:
    """Each command line the README shows, outside the quickstart block."""
    text = readme()
    quick = text.index("## Quickstart")
    found: list[str] = []
    for block in re.finditer(r"```sh\n(.*?)```", text, re.S):
        if quick < block.start() < text.index("\n## ", quick + 1):
            continue  # run whole by tests/install
        for line in block.group(1).splitlines():
            line = line.split("  #")[0].strip()
            found.extend(part.strip() for part in line.split("&&") if part.strip())
    for cell in re.findall(r"`([^`\n]+)`", text):
        if cell.startswith(PREFIXES) and " " in cell:
            found.append(re.sub(r"\[([^\]]*)\]", r"\1", cell).strip())
    return sorted(set(found))


def _help(argv: list[str]) -> str:
    done = subprocess.run([*argv, "--help"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (argv, done.stderr)
    return done.stdout


def _options_known(words: list[str], help_text: str) -> None:
    for word in words:
        if word.startswith("--"):
            assert word.split("=")[0] in help_text, (word, help_text[:400])


def check(command: str) -> None:
    words = shlex.split(command)
    while words and re.fullmatch(r"HAKI_[A-Z_]+=\S*", words[0]):
        words = words[1:]  # a setting for this one run
    program, args = words[0], words[1:]
    if program == "make":
        makefile = (REPO / "Makefile").read_text()
        assert re.search(rf"^{re.escape(args[0])}:", makefile, re.M), command
    elif program == "pip":
        extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
            "optional-dependencies"
        ]
        extra = re.fullmatch(r"\.\[(\w+)\]", args[-1])
        assert args[0] == "install", command
        assert args[-1] == "." or (extra and extra.group(1) in extras), command
    elif program == "export":
        known = _help([str(BIN / "haki"), "mcp"])
        for assignment in args:
            assert assignment.split("=")[0] in known, assignment
    elif program in ("haki", "engram", ".venv/bin/engram", ".venv/bin/haki"):
        name = program.rsplit("/", 1)[-1]
        subs = [w for w in args[:2] if not w.startswith("-") and "/" not in w and '"' not in w]
        subs = subs[:2] if name == "haki" else subs[:1]
        if name == "engram" and len(subs) == 1 and subs[0] == "hooks":
            subs = args[:2]
        _options_known(args, _help([str(BIN / name), *subs]))
        for path in (w for w in args if "/" in w and not w.startswith(("-", "hk_"))):
            assert (REPO / path).exists(), path
    elif program == ".venv/bin/python":
        script = REPO / args[0]
        assert script.is_file(), command
        _options_known(args[1:], _help([sys.executable, str(script)]))
        for path in (w for w in args[1:] if w.endswith(".json")):
            assert (REPO / path).is_file(), path
    else:
        pytest.fail(f"the README shows a command no check knows: {command}")


def test_the_readme_is_short() -> None:
    assert len(readme().splitlines()) <= 150


def test_the_quickstart_is_run_by_a_test() -> None:
    runner = (REPO / "tests" / "install" / "test_fresh_venv.py").read_text()
    assert "quickstart_block()" in runner and "## Quickstart" in runner


@pytest.mark.parametrize("command", commands())
def test_every_readme_command_runs(command: str) -> None:
    check(command)


def test_docs_open_with_a_summary() -> None:
    # The two long documents open with a one-screen summary before the detail.
    for name in ("context.md", "benchmarks.md"):
        lines = (REPO / "docs" / name).read_text(encoding="utf-8").splitlines()
        assert lines[2].startswith("**In one screen"), name
        summary = lines[: next(i for i, line in enumerate(lines[3:], 3) if line.startswith("## "))]
        assert len(summary) <= 45, name
