"""Routing quality over a set of small repositories, pooled task by task.

Each ``CASES_DIR/<repo>.json`` is scored against ``REPOS_DIR/<repo>`` without a
global root (a new user's repository alone), and the case results of every repo
are summarised as one set, so a repo of 5 tasks weighs 5 tasks, not one fifth.

    python bench/engram_small_repos.py tests/fixtures/engram/small_repos/cases \
        tests/fixtures/engram/small_repos/repos [--no-misses]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from haki.engram import benchmark
from haki.engram.workspace import locate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases_dir", type=Path)
    parser.add_argument("repos_dir", type=Path)
    parser.add_argument("--no-misses", action="store_true")
    args = parser.parse_args(argv)
    results: list[benchmark.CaseResult] = []
    k = 5
    for path in sorted(args.cases_dir.glob("*.json")):
        k, cases = benchmark.read_cases(path)
        roots = locate(args.repos_dir / path.stem, None, False)
        repo_results = benchmark.results(cases, roots)
        report = benchmark.summarise(repo_results, k)
        print(
            f"{path.stem}: {report.cases} tasks, recall {report.recall_at_k:.2f}, "
            f"precision {report.precision_at_k:.2f}"
        )
        results += repo_results
    pooled = benchmark.summarise(results, k)
    print()
    sys.stdout.write(benchmark.format_report(pooled, show_misses=not args.no_misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
