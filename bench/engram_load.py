"""Whole-process latency of ``engram load`` on 1,000 synthetic memories.

Generates a workspace in a temp dir, warms the index once, then times N
``engram load`` subprocess runs with varied queries and prints p50/p95.

    python bench/engram_load.py [--memories 1000] [--runs 40]

The last line is the CPU time of one ``load`` call in-process, the part of the
figure Engram's own code decides.

Bytecode caching is left on for the child processes (the interpreter default):
``PYTHONDONTWRITEBYTECODE`` would make every run recompile Engram, which no
installed hook does. Pass ``--no-bytecode`` to measure that case too.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument(
        "--no-bytecode", action="store_true", help="set PYTHONDONTWRITEBYTECODE for the runs"
    )
    args = parser.parse_args()
    engram = shutil.which("engram", path=str(Path(sys.executable).parent)) or shutil.which("engram")
    if engram is None:
        print("engram console script not found; install haki first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="engram-bench-") as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        generate(root, args.memories)
        env = dict(
            os.environ,
            ENGRAM_GLOBAL_DIR=str(root / "no-global"),
            ENGRAM_CACHE_DIR=str(root / "cache"),
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if args.no_bytecode:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        cmd = [engram, "load"]
        start = time.perf_counter()
        subprocess.run(
            [*cmd, "--", "warm the index"], cwd=root, env=env, check=True, capture_output=True
        )
        cold = (time.perf_counter() - start) * 1000
        times, baseline = [], []
        for q in queries(random.Random(11), args.runs):
            start = time.perf_counter()
            done = subprocess.run(
                [*cmd, "--", q], cwd=root, env=env, capture_output=True, text=True
            )
            times.append((time.perf_counter() - start) * 1000)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return 1
            # Interleaved bare interpreter start-up: separates machine load from Engram's cost.
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
            baseline.append((time.perf_counter() - start) * 1000)
        print(f"memories: {args.memories}  runs: {args.runs}  cold index build: {cold:.0f} ms")
        print(
            f"engram load whole-process p50: {statistics.median(times):.1f} ms  p95: {_p95(times):.1f} ms"
        )
        print(
            f"bare python start-up       p50: {statistics.median(baseline):.1f} ms  p95: {_p95(baseline):.1f} ms"
        )
        os.environ.update(ENGRAM_GLOBAL_DIR=env["ENGRAM_GLOBAL_DIR"])
        os.environ.update(ENGRAM_CACHE_DIR=env["ENGRAM_CACHE_DIR"])
        print(f"in-process load, CPU per call: {in_process_ms(root, args.runs * 5):.2f} ms")
    return 0


def in_process_ms(root: Path, n: int) -> float:
    """CPU time of ``load`` in this process (warm index): Engram's own cost, which a busy
    machine inflates far less than the wall clock of a whole process."""
    from haki.engram.loader import load
    from haki.engram.plan import LoadRequest
    from haki.engram.workspace import locate

    roots = locate(root)
    qs = queries(random.Random(13), n)
    load(LoadRequest(qs[0], record_usage=False), roots)
    start = time.process_time()
    for q in qs:
        load(LoadRequest(q, record_usage=False), roots)
    return (time.process_time() - start) * 1000 / len(qs)


if __name__ == "__main__":
    raise SystemExit(main())
