"""Routing quality on every non-blind set at once, optionally beside another checkout.

The guard a routing change is checked against: the development set (tune and
holdout halves), the shared-corpus cases, train3, train4 and train5 (their held-out
thirds apart), the fixture corpus cases and the two small-repository sets, each with a
fresh index cache. Blind sets are never read.

    python bench/engram_dev_sets.py                       # this checkout
    python bench/engram_dev_sets.py --baseline ../other   # other's src/, same run
    python bench/engram_dev_sets.py --table /tmp/e5-table --baseline-table ~/.cache/engram/models
        # this checkout with two static tables (ENGRAM_MODEL_DIR), same run
    python bench/engram_dev_sets.py --routing weak_meaning=0.6 --routing far_meaning=0.5
        # RoutingConfig fields set for the run (this checkout's side)

Two pooled rows close the table: the sets routing was tuned on, and the three held-out
thirds (dev holdout, train4 holdout, train5 holdout).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from haki.engram.benchmark import Report

HERE = Path(__file__).resolve().parents[1]
F = HERE / "tests" / "fixtures" / "engram"
SHARED = HERE.parent / "shared" / "data" / "engram-rules" / "corpus"

# (name, cases file, split or "", workspace, global dir)
SETS = [
    ("dev tune", "dev_cases.json", "tune", SHARED, SHARED / "global"),
    ("dev holdout", "dev_cases.json", "holdout", SHARED, SHARED / "global"),
    ("shared corpus", "shared_corpus_cases.json", "", SHARED, SHARED / "global"),
    ("train3", "train3_cases.json", "", SHARED, SHARED / "global"),
    ("train4", "train4_cases.json", "train4", SHARED, SHARED / "global"),
    ("train4 holdout", "train4_cases.json", "train4-holdout", SHARED, SHARED / "global"),
    ("train5", "train5_cases.json", "train5", SHARED, SHARED / "global"),
    ("train5 holdout", "train5_cases.json", "train5-holdout", SHARED, SHARED / "global"),
    ("fixture cases", "cases.json", "", F / "corpus" / "workspace", F / "corpus" / "global"),
]
SMALL = [("small repos", "cases"), ("small repos t3", "cases_train3")]
HELD_OUT = ("dev holdout", "train4 holdout", "train5 holdout")


def measure(routing: list[str] | None = None) -> dict[str, dict[str, float]]:
    """Every set's pooled figures with the ``haki.engram`` on ``sys.path``; ``routing``
    holds ``field=value`` settings of the default ``RoutingConfig``."""
    from haki.engram import benchmark
    from haki.engram.routing import DEFAULT_ROUTING
    from haki.engram.workspace import locate

    for setting in routing or []:
        field, _, value = setting.partition("=")
        kind = type(getattr(DEFAULT_ROUTING, field))
        # Set in place: ``route`` and the loader hold this very object as their default.
        object.__setattr__(DEFAULT_ROUTING, field, kind(float(value)))
    out: dict[str, dict[str, float]] = {}
    pooled: dict[str, list[benchmark.CaseResult]] = {"tuned (pooled)": [], "held out (pooled)": []}
    for name, file, split, workspace, global_dir in SETS:
        k, cases = benchmark.read_cases(F / file)
        chosen = [c for c in cases if not split or c.split == split]
        found = benchmark.results(chosen, locate(workspace, global_dir))
        out[name] = _row(benchmark.summarise(found, k))
        pooled["held out (pooled)" if name in HELD_OUT else "tuned (pooled)"] += found
    for name, folder in SMALL:
        results: list[benchmark.CaseResult] = []
        for path in sorted((F / "small_repos" / folder).glob("*.json")):
            k, cases = benchmark.read_cases(path)
            roots = locate(F / "small_repos" / "repos" / path.stem, None, False)
            results += benchmark.results(cases, roots)
        out[name] = _row(benchmark.summarise(results, 5))
    for name, results in pooled.items():
        out[name] = _row(benchmark.summarise(results, 5))
    return out


def _row(report: Report) -> dict[str, float]:
    nf = report.zero_match_correct
    return {
        "n": report.cases,
        "recall": report.recall_at_k,
        "precision": report.precision_at_k,
        "must_not_load": report.must_not_load_rate,
        "poisoned": report.poisoned_shown,
        "clean": -1.0 if nf is None else nf,
        "paraphrase": report.by_category.get("paraphrase", {}).get("recall_at_k", -1.0),
    }


def _run(
    src: Path, table: Path | None = None, routing: list[str] | None = None
) -> dict[str, dict[str, float]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    if table is not None:
        env["ENGRAM_MODEL_DIR"] = str(table.expanduser().resolve())
    settings = [a for setting in routing or [] for a in ("--routing", setting)]
    with tempfile.TemporaryDirectory() as cache:
        env["ENGRAM_CACHE_DIR"] = cache
        done = subprocess.run(
            [sys.executable, __file__, "--json", *settings],
            env=env,
            capture_output=True,
            text=True,
        )
    if done.returncode:
        raise SystemExit(done.stderr)
    data: dict[str, dict[str, float]] = json.loads(done.stdout)
    return data


def _cell(before: dict[str, float] | None, after: dict[str, float], key: str) -> str:
    fmt = "{:.1%}" if key in ("must_not_load", "clean") else "{:.3f}"
    if key == "poisoned":
        fmt = "{:.0f}"

    def show(row: dict[str, float]) -> str:
        return "" if row[key] < 0 else fmt.format(row[key])

    return show(after) if before is None else f"{show(before)} -> {show(after)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout (its src/ is used)")
    parser.add_argument("--json", action="store_true", help="this checkout's figures as JSON")
    parser.add_argument("--table", type=Path, help="static table folder for this checkout")
    parser.add_argument("--baseline-table", type=Path, help="static table folder, baseline side")
    parser.add_argument(
        "--routing", action="append", default=[], help="field=value (this checkout's side)"
    )
    args = parser.parse_args(argv)
    if args.json:
        json.dump(measure(args.routing), sys.stdout)
        return 0
    after = _run(HERE / "src", args.table, args.routing)
    baseline = args.baseline or (HERE if args.baseline_table else None)
    before = _run(baseline.resolve() / "src", args.baseline_table) if baseline is not None else None
    keys = ("recall", "paraphrase", "precision", "must_not_load", "poisoned", "clean")
    print(
        "| set | n | recall@5 | paraphrase | precision@5 | must-not-load | poisoned"
        " | nothing-fits clean |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, row in after.items():
        old = None if before is None else before.get(name)
        cells = " | ".join(_cell(old, row, key) for key in keys)
        print(f"| {name} | {row['n']:.0f} | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
