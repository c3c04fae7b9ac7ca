"""Whole-process latency of ``engram load`` and the Claude prompt hook, cold.

As a user meets it: every task gets a fresh copy of the repository's memories and an
empty index cache, so the index is built cold; then ``engram load -- TASK`` and the
Claude ``UserPromptSubmit`` hook (``engram hook --host claude``, a real event JSON on
stdin) each run as a new process (``haki.engram.timing``). A bare interpreter
start-up is timed between tasks, so a figure from a busy machine can be read
against it; CPU time (user + system of the child) is printed beside the wall clock.

    python bench/engram_load.py                      # shared corpus + the dev-set tasks
    python bench/engram_load.py --baseline ../other  # another checkout's src/, same run
    python bench/engram_load.py --workspace DIR --cases FILE [--no-global]

Every side but ``--seen`` also starts with an empty memo (the content-keyed index
entries, ``haki.engram.memo``): the first index build on a new machine. ``--seen`` adds
this checkout (and the baseline, with ``--baseline``) with a memo filled beforehand by
``engram index`` on another copy, as on a machine that indexed these memories (or started
a session on them) in another clone or worktree.

``--synthetic N`` keeps the older scale check: N generated memories, index built once,
then warm ``engram load`` runs (no copy per task).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from haki.engram.benchmark import percentile
from haki.engram.timing import Side, cold_runs, engram_command, format_timings, fresh_copy

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared" / "data" / "engram-rules" / "corpus"
DEV_CASES = REPO / "tests" / "fixtures" / "engram" / "dev_cases.json"

# The synthetic corpus (also used by bench/engram_hooks.py).
TOPICS = {
    "testing": [
        "pytest",
        "fixture",
        "mock",
        "parametrize",
        "coverage",
        "snapshot",
        "flaky",
        "integration",
    ],
    "migrations": [
        "alembic",
        "schema",
        "migration",
        "rollback",
        "backfill",
        "index",
        "column",
        "downgrade",
    ],
    "security": ["secret", "token", "xss", "csrf", "injection", "sanitize", "auth", "permission"],
    "release": [
        "semver",
        "changelog",
        "tag",
        "publish",
        "hotfix",
        "version",
        "artifact",
        "pipeline",
    ],
    "frontend": ["react", "component", "hook", "state", "accessibility", "css", "render", "router"],
    "backend": [
        "fastapi",
        "endpoint",
        "service",
        "repository",
        "async",
        "pagination",
        "retry",
        "cache",
    ],
    "ci": ["workflow", "runner", "matrix", "artifact", "lint", "pin", "cache", "approval"],
    "docs": [
        "readme",
        "docstring",
        "markdown",
        "example",
        "reference",
        "changelog",
        "tutorial",
        "style",
    ],
    "go": ["goroutine", "context", "error", "interface", "package", "testify", "gofmt", "channel"],
    "rust": ["clippy", "unwrap", "result", "borrow", "crate", "tokio", "lifetime", "trait"],
}
VERBS = ["Always", "Never", "Prefer", "Avoid", "Document", "Check", "Require", "Keep"]
TYPES = [
    ("rule", "rules", "instruction"),
    ("skill", "skills", "instruction"),
    ("knowledge", "knowledge", "reference"),
]


def generate(root: Path, count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    base = root / ".agents" / "engram"
    topics = sorted(TOPICS)
    ids: list[str] = []
    for n in range(count):
        topic = topics[n % len(topics)]
        words = rng.sample(TOPICS[topic], 4)
        mtype, folder, authority = TYPES[n % 7 % 3]
        mid = f"{topic}-{words[0]}-{words[1]}-{n:04d}"
        deps = f'depends_on: ["{ids[n - 10]}"]\n' if n >= 10 and n % 9 == 0 else ""
        lines = [
            f"- {rng.choice(VERBS)} {words[0]} {' '.join(rng.sample(TOPICS[topic], 3))} in the {topic} code path.",
            f"- When touching {words[1]}, run the {words[2]} checks and review the {words[3]} output.",
            f"- Record the {words[0]} decision in the pull request; link the {topic} owner.",
            f"- Example command: `make {words[2]}-{words[3]}` before pushing.",
        ]
        text = (
            "---\n"
            f"id: {mid}\n"
            f"type: {mtype}\n"
            f"authority: {authority}\n"
            f'tags: ["{topic}", "{words[0]}", "{words[1]}"]\n'
            f'directive: "{rng.choice(VERBS)} {words[0]} and {words[1]} the {topic} way."\n'
            f'summary: "{topic.title()} guidance on {words[0]}, {words[1]} and {words[2]}."\n'
            f'triggers: ["{words[0]}", "{words[1]} {words[2]}", "{topic}"]\n'
            f"{deps}"
            f"level: {'advanced' if deps else 'foundation'}\n"
            "confidence: high\n"
            "lifecycle: active\n"
            "---\n\n"
            f"# {topic.title()}: {words[0]} and {words[1]}\n\n## Content\n\n"
            + "\n".join(lines)
            + "\n\n"
            "## Context\n\nWhy the team adopted this convention.\n"
        )
        path = base / folder / f"{mid}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        ids.append(mid)
    return ids


def queries(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        topic = rng.choice(sorted(TOPICS))
        words = rng.sample(TOPICS[topic], 2)
        out.append(f"how should I handle {words[0]} and {words[1]} for the {topic} change")
    return out


def bare_python(n: int) -> tuple[list[float], list[float]]:
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        walls.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    return sorted(walls), sorted(cpus)


def warm_synthetic(count: int, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="engram-bench-") as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        generate(root, count)
        qs = queries(random.Random(11), runs)
        env = dict(os.environ, ENGRAM_GLOBAL_DIR=str(root / "g"), ENGRAM_CACHE_DIR=str(root / "c"))
        cmd = [*engram_command(), "load", "--"]
        subprocess.run([*cmd, "warm"], cwd=root, env=env, check=True, capture_output=True)
        times = []
        for q in qs:
            start = time.perf_counter()
            subprocess.run([*cmd, q], cwd=root, env=env, check=True, capture_output=True)
            times.append((time.perf_counter() - start) * 1000)
        print(
            f"synthetic {count} memories, warm index: engram load p50 "
            f"{statistics.median(times):.1f} ms  p95 {percentile(sorted(times), 95):.1f} ms"
        )


def fill_memo(workspace: Path, global_dir: Path | None, side: Side) -> None:
    """What ``engram index`` (or a session start) leaves on a machine: every memory's memo
    entry, vector included. A prompt's ``engram load`` no longer writes the memo."""
    with tempfile.TemporaryDirectory(prefix="engram-fill-") as tmp:
        repo = fresh_copy(workspace, Path(tmp))
        env = dict(os.environ, ENGRAM_CACHE_DIR=str(Path(tmp) / "cache"))
        env["ENGRAM_GLOBAL_DIR"] = str(global_dir or Path(tmp) / "no-global")
        if side.pythonpath:
            env["PYTHONPATH"] = side.pythonpath
        env.update(side.env)
        subprocess.run(
            [*engram_command(), "index"], cwd=repo, env=env, check=True, capture_output=True
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", type=Path, default=SHARED)
    parser.add_argument("--global-dir", type=Path, default=SHARED / "global")
    parser.add_argument("--no-global", action="store_true")
    parser.add_argument("--cases", type=Path, default=DEV_CASES)
    parser.add_argument("--runs", type=int, default=30, help="tasks timed (spread over the file)")
    parser.add_argument("--baseline", type=Path, help="another checkout, timed task by task")
    parser.add_argument("--no-hook", action="store_true", help="time engram load only")
    parser.add_argument(
        "--without-table",
        action="store_true",
        help="also time this checkout without the static table: what the semantic signal costs",
    )
    parser.add_argument(
        "--seen",
        action="store_true",
        help="also time this checkout on a machine that indexed these memories before "
        "(fresh copy and empty index per task, a shared memo: docs/engram.md)",
    )
    parser.add_argument("--synthetic", type=int, metavar="N", help="warm scale check instead")
    args = parser.parse_args()
    if args.synthetic:
        warm_synthetic(args.synthetic, args.runs)
        return 0
    cases = json.loads(args.cases.read_text(encoding="utf-8"))
    queries = [c["query"] for c in (cases["cases"] if isinstance(cases, dict) else cases)]
    queries = queries[:: max(1, len(queries) // args.runs)][: args.runs]
    sides = [Side("this checkout")]
    if args.without_table:
        missing = Path(tempfile.gettempdir()) / f"engram-no-table-{os.getpid()}"  # never made
        sides.append(Side("no table (lexical only)", env=(("ENGRAM_MODEL_DIR", str(missing)),)))
    memo = tempfile.TemporaryDirectory(prefix="engram-memo-")
    if args.seen:
        seen = Side("this checkout, seen before", env=(("ENGRAM_MEMO_DIR", memo.name),))
        global_dir = None if args.no_global else args.global_dir
        fill_memo(args.workspace, global_dir, seen)
        sides.append(seen)
    base_memo = tempfile.TemporaryDirectory(prefix="engram-memo-base-")
    if args.baseline:
        base_src = str(args.baseline.resolve() / "src")
        sides.append(Side("baseline", base_src))
        if args.seen:
            base_seen = Side(
                "baseline, seen before", base_src, env=(("ENGRAM_MEMO_DIR", base_memo.name),)
            )
            global_dir = None if args.no_global else args.global_dir
            fill_memo(args.workspace, global_dir, base_seen)
            sides.append(base_seen)
    load_before = os.getloadavg()
    results = cold_runs(
        args.workspace,
        None if args.no_global else args.global_dir,
        queries,
        sides,
        not args.no_hook,
    )
    memo.cleanup()
    base_memo.cleanup()
    walls, cpus = bare_python(len(queries))
    print(
        f"workspace: {args.workspace}  tasks: {len(queries)}  "
        f"load average before/after: {load_before[0]:.1f} / {os.getloadavg()[0]:.1f}\n"
    )
    print("\n".join(format_timings(results)))
    print(
        f"| bare python start-up | {len(walls)} | {percentile(walls, 50):.1f} | "
        f"{percentile(walls, 95):.1f} | {percentile(cpus, 50):.1f} | 0 |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
