"""Whole-process latency of ``engram hook`` per host event on 1,000 memories.

Builds the ``bench/engram_load.py`` corpus (plus 100 memories with
``applies_to`` globs so file events have work to do), warms the index once,
then runs every event as a host would: a fresh ``engram hook --host H``
process, event JSON on stdin. Each run is followed by a bare interpreter
start-up, so machine load can be told apart from Engram's own cost.

    python bench/engram_hooks.py [--memories 1000] [--runs 30] [--baseline CHECKOUT]

Each event reports wall time and the hook process's CPU time (user + system),
which a loaded machine inflates far less. ``--baseline`` runs every event a
second time, interleaved, with another checkout's ``src/`` first on
``PYTHONPATH``: same-run pairs for a before/after.

Hostile workloads ride along: a prompt made only of words every memory
shares, and a 10 KB pasted log as a prompt.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engram_load import TOPICS, generate, queries

PATH_MEMORIES = 100


def add_path_memories(root: Path, count: int) -> None:
    base = root / ".agents" / "engram" / "rules"
    topics = sorted(TOPICS)
    for n in range(count):
        topic = topics[n % len(topics)]
        text = (
            "---\n"
            f"id: path-{topic}-{n:03d}\n"
            "type: rule\n"
            f'tags: ["{topic}"]\n'
            f'directive: "Follow the {topic} layout rule {n}."\n'
            f'applies_to: ["src/{topic}/**/*.py", "src/{topic}/*.py"]\n'
            "---\n\n"
            f"# Path rule {n}\n\n## Content\n\n- Files under src/{topic}/ follow rule {n}.\n"
        )
        (base / f"path-{topic}-{n:03d}.md").write_text(text, encoding="utf-8")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT", help="a checkout to compare")
    args = parser.parse_args()
    engram = shutil.which("engram", path=str(Path(sys.executable).parent)) or shutil.which("engram")
    if engram is None:
        print("engram console script not found; install haki first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="engram-hooks-bench-") as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        generate(root, args.memories - PATH_MEMORIES)
        add_path_memories(root, PATH_MEMORIES)
        # File events inject from hooks (not native rule files) so they do real work.
        (root / ".agents" / "engram" / "config.yaml").write_text("hooks:\n  path_rules: hooks\n")
        env = dict(
            os.environ,
            ENGRAM_GLOBAL_DIR=str(root / "no-global"),
            ENGRAM_CACHE_DIR=str(root / "cache"),
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        variants = [("", env)]
        if args.baseline is not None:
            src = str(args.baseline.resolve() / "src")
            # Its own index cache: two index formats in one cache would rebuild at every
            # alternation, and each side would be timed cold.
            variants.append(
                (
                    " [baseline]",
                    dict(env, PYTHONPATH=src, ENGRAM_CACHE_DIR=str(root / "cache-baseline")),
                )
            )
        cold = 0.0
        for suffix, variant_env in variants:
            start = time.perf_counter()
            subprocess.run(
                [engram, "load", "--", "warm the index"],
                cwd=root,
                env=variant_env,
                check=True,
                capture_output=True,
            )
            if not suffix:
                cold = (time.perf_counter() - start) * 1000
        rng = random.Random(5)
        prompts = queries(rng, args.runs)
        topics = sorted(TOPICS)
        cwd = str(root)

        def base(event: str, session: str) -> dict[str, Any]:
            return {"session_id": session, "cwd": cwd, "hook_event_name": event}

        frequent = "the code path checks review output pull request owner make before pushing"
        pasted = "\n".join(
            f"2026-12-01T04:{i % 60:02d}:00Z ERROR worker {i}: retry cache pipeline failed"
            for i in range(160)
        )
        events: list[tuple[str, str, Callable[[int], dict[str, Any]]]] = [
            (
                "claude",
                "SessionStart",
                lambda n: base("SessionStart", f"s{n}") | {"source": "startup"},
            ),
            (
                "claude",
                "UserPromptSubmit",
                lambda n: base("UserPromptSubmit", "prompts") | {"prompt": prompts[n]},
            ),
            (
                "claude",
                "UserPromptSubmit (frequent words)",
                lambda n: base("UserPromptSubmit", f"f{n}") | {"prompt": frequent},
            ),
            (
                "claude",
                "UserPromptSubmit (10 KB log)",
                lambda n: base("UserPromptSubmit", f"l{n}") | {"prompt": pasted},
            ),
            (
                "claude",
                "PreToolUse Edit",
                lambda n: (
                    base("PreToolUse", f"e{n}")
                    | {
                        "tool_name": "Edit",
                        "tool_input": {"file_path": f"{cwd}/src/{topics[n % 10]}/mod{n}.py"},
                    }
                ),
            ),
            (
                "claude",
                "SubagentStart",
                lambda n: (
                    base("SubagentStart", "prompts")
                    | {"agent_id": f"a{n}", "agent_type": "Explore"}
                ),
            ),
            (
                "claude",
                "InstructionsLoaded",
                lambda n: (
                    base("InstructionsLoaded", "prompts")
                    | {"file_path": f"{cwd}/.claude/rules/engram/path-x-{n}.md"}
                ),
            ),
            ("claude", "PreCompact", lambda n: base("PreCompact", f"c{n}") | {"trigger": "auto"}),
            (
                "codex",
                "PreToolUse apply_patch",
                lambda n: (
                    base("PreToolUse", f"x{n}")
                    | {
                        "tool_name": "apply_patch",
                        "tool_input": {
                            "command": f"*** Begin Patch\n*** Update File: src/{topics[n % 10]}/a.py\n"
                            "@@\n-a\n+b\n*** End Patch\n"
                        },
                    }
                ),
            ),
            (
                "gemini",
                "BeforeAgent",
                lambda n: base("BeforeAgent", f"g{n}") | {"prompt": prompts[n]},
            ),
            (
                "gemini",
                "AfterTool read_file",
                lambda n: (
                    base("AfterTool", f"r{n}")
                    | {
                        "tool_name": "read_file",
                        "tool_input": {"file_path": f"{cwd}/src/{topics[n % 10]}/x.py"},
                    }
                ),
            ),
            (
                "cursor",
                "sessionStart",
                lambda n: {
                    "conversation_id": f"k{n}",
                    "hook_event_name": "sessionStart",
                    "workspace_roots": [cwd],
                },
            ),
        ]
        results: list[tuple[str, str, list[float], list[float], int, int]] = []
        baseline: list[float] = []
        reference: list[float] = []
        for host, label, payload in events:
            times: dict[str, list[float]] = {suffix: [] for suffix, _ in variants}
            cpus: dict[str, list[float]] = {suffix: [] for suffix, _ in variants}
            injected = dict.fromkeys(times, 0)
            size = dict.fromkeys(times, 0)
            for n in range(args.runs):
                for suffix, variant_env in variants:
                    # Each variant keeps its own sessions: a shared one would answer
                    # "already loaded" to whichever runs second.
                    event = payload(n)
                    for key in ("session_id", "conversation_id"):
                        if key in event:
                            event[key] += suffix
                    data = json.dumps(event)
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.perf_counter()
                    done = subprocess.run(
                        [engram, "hook", "--host", host],
                        input=data,
                        cwd=root,
                        env=variant_env,
                        capture_output=True,
                        text=True,
                    )
                    times[suffix].append((time.perf_counter() - start) * 1000)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                    cpus[suffix].append(cpu * 1000)
                    if done.returncode != 0 or not done.stdout.strip().startswith("{"):
                        print(done.stdout, done.stderr, file=sys.stderr)
                        return 1
                    if done.stdout.strip() != "{}":
                        injected[suffix] += 1
                        size[suffix] = max(size[suffix], len(done.stdout))
                start = time.perf_counter()
                subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
                baseline.append((time.perf_counter() - start) * 1000)
                if label == "UserPromptSubmit":
                    # The same routing from the plain CLI, interleaved: the hook's own overhead.
                    start = time.perf_counter()
                    subprocess.run(
                        [engram, "load", "--", prompts[n]], cwd=root, env=env, capture_output=True
                    )
                    reference.append((time.perf_counter() - start) * 1000)
            for suffix, _ in variants:
                results.append(
                    (
                        host,
                        label + suffix,
                        times[suffix],
                        cpus[suffix],
                        injected[suffix],
                        size[suffix],
                    )
                )
        load = os.getloadavg()
        print(
            f"memories: {args.memories} ({PATH_MEMORIES} with applies_to)  runs per event: "
            f"{args.runs}  cold index build: {cold:.0f} ms  load average: "
            f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
        )
        print(
            f"{'host':<7} {'event':<45} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} "
            f"{'CPU p50':>7} {'answered':>9} {'max bytes':>9}"
        )
        for host, label, times, cpu_ms, injected, size in results:
            print(
                f"{host:<7} {label:<45} {statistics.median(times):7.1f} {_p95(times):7.1f} "
                f"{max(times):7.1f} {statistics.median(cpu_ms):7.1f} "
                f"{injected:>5}/{len(times):<3} {size:>9}"
            )
        for label, values in (
            ("engram load (same prompts)", reference),
            ("bare python start-up", baseline),
        ):
            print(
                f"{'':<7} {label:<45} {statistics.median(values):7.1f} "
                f"{_p95(values):7.1f} {max(values):7.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
