"""Routing quality on every non-blind set at once, optionally beside another checkout.

The guard a routing change is checked against: the development set (tune and
holdout halves), the shared-corpus cases, train3, train4 and train5 (their held-out
thirds apart), the fixture corpus cases and the two small-repository sets, each with a
fresh index cache. Blind sets are never read.

    python bench/engram_dev_sets.py                       # this checkout
    python bench/engram_dev_sets.py --baseline ../other   # other's src/, same run
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


def measure() -> dict[str, dict[str, float]]:
    """Every set's pooled figures with the ``haki.engram`` on ``sys.path``."""
    from haki.engram import benchmark
    from haki.engram.workspace import locate

    out: dict[str, dict[str, float]] = {}
    for name, file, split, workspace, global_dir in SETS:
        k, cases = benchmark.read_cases(F / file)
        chosen = [c for c in cases if not split or c.split == split]
        report = benchmark.summarise(benchmark.results(chosen, locate(workspace, global_dir)), k)
        out[name] = _row(report)
    for name, folder in SMALL:
        results: list[benchmark.CaseResult] = []
        for path in sorted((F / "small_repos" / folder).glob("*.json")):
            k, cases = benchmark.read_cases(path)
            roots = locate(F / "small_repos" / "repos" / path.stem, None, False)
            results += benchmark.results(cases, roots)
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


def _run(src: Path) -> dict[str, dict[str, float]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    with tempfile.TemporaryDirectory() as cache:
        env["ENGRAM_CACHE_DIR"] = cache
        done = subprocess.run(
            [sys.executable, __file__, "--json"], env=env, capture_output=True, text=True
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
    args = parser.parse_args(argv)
    if args.json:
        json.dump(measure(), sys.stdout)
        return 0
    after = _run(HERE / "src")
    before = _run(args.baseline.resolve() / "src") if args.baseline else None
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
