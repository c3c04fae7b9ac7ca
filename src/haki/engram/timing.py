"""Whole-process latency as a user meets it: a fresh copy of the repository per task.

Every task gets its own copy of ``.agents/engram`` and an empty index cache, so the
index is built cold, then ``engram load`` (and, when asked, the Claude
``UserPromptSubmit`` hook with a real JSON payload) runs as a new process. The
machine-wide static table stays where it is, as the installed model does.
``bench/engram_load.py`` and ``engram benchmark`` both report these figures.

Every side runs from a private copy of its ``src`` with the bytecode compiled, as an
installed package runs: pip compiles at install, and an editable checkout writes
``__pycache__`` on its first run. A shell with ``PYTHONDONTWRITEBYTECODE=1`` (as on the
shared machine) and a checkout without ``__pycache__`` would otherwise compile every
Engram module in every timed process, about 35 ms of CPU a user never pays.
"""

from __future__ import annotations

import compileall
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .benchmark import percentile


@dataclass(frozen=True, slots=True)
class Side:
    """One program under test: this checkout, or a baseline checkout's ``src``."""

    name: str
    pythonpath: str | None = None
    env: tuple[tuple[str, str], ...] = ()


@dataclass
class Timings:
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    failures: int = 0


def engram_command() -> list[str]:
    """The console script next to this interpreter, as hosts run it; else ``-m``."""
    script = Path(sys.executable).parent / "engram"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "haki.engram.cli"]


def compiled_src(src: Path, into: Path) -> Path:
    """``src``'s ``haki`` package copied under ``into`` with every module compiled: the
    checkout itself is left as it is (another session's tree is never written to)."""
    out = into / "src"
    shutil.copytree(
        src / "haki", out / "haki", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    if not compileall.compile_dir(out, quiet=1):
        raise RuntimeError(f"{src}: a module does not compile")
    return out


def own_src() -> Path:
    """The ``src`` folder this process imports ``haki`` from."""
    import haki

    return Path(haki.__file__).resolve().parents[1]


def fresh_copy(workspace: Path, into: Path) -> Path:
    """``workspace``'s memories in a new repository under ``into``, without any cache."""
    repo = into / "repo"
    (repo / ".git").mkdir(parents=True)
    source = workspace / ".agents" / "engram"
    if source.is_dir():
        shutil.copytree(
            source, repo / ".agents" / "engram", ignore=shutil.ignore_patterns(".cache")
        )
    return repo


def _run(
    cmd: list[str], repo: Path, env: dict[str, str], stdin: str | None
) -> tuple[float, float, bool]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=repo, env=env, input=stdin, capture_output=True, text=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu, done.returncode == 0


def cold_runs(
    workspace: Path,
    global_dir: Path | None,
    queries: Sequence[str],
    sides: Sequence[Side] = (Side("this checkout"),),
    hook: bool = True,
) -> dict[str, Timings]:
    """Per side, ``load`` (and ``hook``) timings; sides interleave task by task so a busy
    machine weighs on each the same."""
    results: dict[str, Timings] = {}
    command = engram_command()
    with tempfile.TemporaryDirectory(prefix="engram-src-") as src_tmp:
        paths = {
            side.name: str(
                compiled_src(
                    Path(side.pythonpath) if side.pythonpath else own_src(),
                    Path(src_tmp) / str(n),
                )
            )
            for n, side in enumerate(sides)
        }
        for query in queries:
            _time_query(workspace, global_dir, query, sides, paths, hook, command, results)
    return results


def _time_query(
    workspace: Path,
    global_dir: Path | None,
    query: str,
    sides: Sequence[Side],
    paths: dict[str, str],
    hook: bool,
    command: list[str],
    results: dict[str, Timings],
) -> None:
    """One task on every side, ``load`` and then the hook, each on a fresh copy."""
    for side in sides:
        for kind in ("load", "hook") if hook else ("load",):
            with tempfile.TemporaryDirectory(prefix="engram-cold-") as tmp:
                repo = fresh_copy(workspace, Path(tmp))
                env = dict(os.environ, ENGRAM_CACHE_DIR=str(Path(tmp) / "cache"))
                env["ENGRAM_GLOBAL_DIR"] = str(global_dir or Path(tmp) / "no-global")
                env["PYTHONPATH"] = paths[side.name]
                env.update(side.env)
                if kind == "load":
                    cmd, stdin = [*command, "load", "--", query], None
                else:
                    cmd = [*command, "hook", "--host", "claude"]
                    stdin = json.dumps(
                        {
                            "session_id": "bench",
                            "transcript_path": None,
                            "cwd": str(repo),
                            "hook_event_name": "UserPromptSubmit",
                            "prompt": query,
                        }
                    )
                wall, cpu, ok = _run(cmd, repo, env, stdin)
            timings = results.setdefault(f"{side.name}: {kind}", Timings())
            timings.wall_ms.append(wall)
            timings.cpu_ms.append(cpu)
            timings.failures += 0 if ok else 1


def format_timings(results: dict[str, Timings]) -> list[str]:
    lines = [
        "| whole process, cold (fresh copy per task) | runs | p50 ms | p95 ms | CPU p50 ms | failed |",
        "|---|---|---|---|---|---|",
    ]
    for name, t in results.items():
        lines.append(
            f"| {name} | {len(t.wall_ms)} | {percentile(sorted(t.wall_ms), 50):.1f} | "
            f"{percentile(sorted(t.wall_ms), 95):.1f} | {percentile(sorted(t.cpu_ms), 50):.1f} | {t.failures} |"
        )
    return lines
