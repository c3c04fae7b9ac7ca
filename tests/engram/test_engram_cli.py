"""The ``engram`` command end to end in a temporary repository (subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def engram(tmp_path: Path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    env = dict(
        os.environ,
        ENGRAM_GLOBAL_DIR=str(tmp_path / "global"),
        ENGRAM_CACHE_DIR=str(tmp_path / "cache"),
    )

    def run(*args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "haki.engram.cli", *args],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == code, (done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    run.repo = repo  # type: ignore[attr-defined]
    return run


def test_end_to_end(engram) -> None:
    assert "created" in engram("init").stdout
    engram(
        "add",
        "knowledge",
        "--id",
        "release-basics",
        "--directive",
        "Tag main as vX.Y.Z after each release.",
        "--tags",
        "release,semver",
    )
    engram(
        "add",
        "skill",
        "--id",
        "hotfix-flow",
        "--directive",
        "Branch hotfix/vX.Y.Z from the last tag.",
        "--tags",
        "release,hotfix",
        "--depends-on",
        "release-basics",
        "--level",
        "advanced",
    )
    engram(
        "add",
        "rule",
        "--id",
        "pytest-fixtures",
        "--directive",
        "Share setup through pytest fixtures.",
        "--tags",
        "pytest,testing",
        "--applies-to",
        "tests/**/*.py",
    )

    out = engram("load", "ship", "a", "hotfix").stdout
    assert out.startswith("loaded 2 memory files / 2 total related memories\n")
    assert out.index("### release-basics [knowledge, reference]") < out.index(
        "### hotfix-flow [skill, instruction]"
    )
    assert "requires: release-basics" in out
    assert "## Context" not in out and "id: " not in out

    dry = engram("load", "--dry-run", "hotfix").stdout
    assert "anchors: hotfix" in dry and "prerequisite of hotfix-flow" in dry

    plan = json.loads(engram("load", "--json", "edit tests/unit/test_api.py").stdout)
    assert [i["id"] for i in plan["batch"]] == ["pytest-fixtures"]
    assert plan["rendered"]["bodies"] == ["pytest-fixtures"]

    fetched = engram("load", "--id", "hotfix-flow").stdout
    assert "### hotfix-flow" in fetched

    assert "0 errors" in engram("lint").stdout
    graph = engram("graph", "--rebuild").stdout
    assert "layer 0: pytest-fixtures, release-basics" in graph and "layer 1: hotfix-flow" in graph
    assert "ok:" in engram("verify").stdout

    path = engram.repo / ".agents/engram/rules/pytest-fixtures.md"
    path.write_text(path.read_text() + "\nedited\n")
    assert "edited_outside" in engram("verify", code=1).stdout
    assert "skipped: pytest-fixtures (hash_mismatch" in engram("load", "pytest fixtures").stdout
    engram("rehash")
    assert "### pytest-fixtures" in engram("load", "pytest fixtures").stdout
    assert "rebuilt" in engram("index", "--rebuild").stdout


def test_errors_are_one_line_with_exit_codes(engram) -> None:
    engram("init")
    bad = engram.repo / ".agents/engram/rules/bad.md"
    bad.write_text("---\nid: bad\ntype: rule\ntype: skill\n---\n")
    lint = engram("lint", code=1)
    assert "rules/bad.md:4: invalid YAML: duplicate key 'type'" in lint.stdout
    missing = engram("load", "--id", "nope", code=1)
    assert missing.stderr.strip() == "engram: error: no visible memory with id nope"
    dup = engram("add", "rule", "--id", "bad", "--directive", "x", code=2)
    assert dup.stderr.startswith("engram: error:") and len(dup.stderr.strip().splitlines()) == 1
    (engram.repo / ".agents/engram/config.yaml").write_text("load:\n  disclosure: sometimes\n")
    conf = engram("load", "anything", code=2)
    assert "load.disclosure must be 'auto' or 'full'" in conf.stderr
    bad.unlink()
    (engram.repo / ".agents/engram/config.yaml").write_text("")
    cyc_a = engram.repo / ".agents/engram/rules/a.md"
    cyc_a.write_text(
        "---\nid: a\ntype: rule\ndirective: A.\ndepends_on: [b]\n---\n## Content\n\nx\n"
    )
    (engram.repo / ".agents/engram/rules/b.md").write_text(
        "---\nid: b\ntype: rule\ndirective: B.\ndepends_on: [a]\n---\n## Content\n\ny\n"
    )
    assert "depends_on cycle: a -> b -> a" in engram("graph", code=2).stderr


@pytest.mark.parametrize(
    "command", ["load", "index", "verify", "rehash", "init", "add", "lint", "graph", "benchmark"]
)
def test_every_command_has_help(engram, command: str) -> None:
    out = engram(command, "--help").stdout
    assert out.startswith("usage: ") and len(out.splitlines()) > 3


def test_warm_load_imports_nothing_heavy(engram) -> None:
    engram("init")
    engram("add", "rule", "--id", "lean-rule", "--directive", "Keep hooks fast.", "--tags", "hooks")
    engram("load", "hooks")  # warm the index
    code = (
        "import sys, io, contextlib\n"
        "from haki.engram.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['load', 'hooks'])\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    env = dict(
        os.environ,
        ENGRAM_GLOBAL_DIR=str(engram.repo.parent / "global"),
        ENGRAM_CACHE_DIR=str(engram.repo.parent / "cache"),
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=engram.repo, env=env, capture_output=True, text=True
    )
    modules = set(done.stdout.split())
    heavy = {
        "yaml",
        "pathspec",
        "numpy",
        "rich",
        "click",
        "fastapi",
        "psycopg",
        "onnxruntime",
        "haki.engram.safety",
    }
    assert "haki.engram.loader" in modules
    assert modules.isdisjoint(heavy), modules & heavy
