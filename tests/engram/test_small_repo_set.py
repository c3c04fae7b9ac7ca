"""The development small-repo set: every case names memories its repo has, and the
pooled report scores every task of every repo once."""

from __future__ import annotations

import json
from pathlib import Path

from haki.engram import benchmark
from haki.engram.workspace import locate

SET = Path(__file__).resolve().parents[1] / "fixtures" / "engram" / "small_repos"


def test_every_case_names_memories_of_its_repo() -> None:
    files = sorted((SET / "cases").glob("*.json"))
    assert len(files) >= 3
    for path in files:
        repo = SET / "repos" / path.stem / ".agents" / "engram"
        ids = {p.stem for p in repo.rglob("*.md")}
        assert 1 <= len(ids) <= 10, path.stem
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            assert set(case["expect"]) | set(case["forbid"]) <= ids, case["query"]


def test_the_pooled_report_counts_every_task_once(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("ENGRAM_CACHE_DIR", str(tmp_path / "cache"))
    pooled: list[benchmark.CaseResult] = []
    total = 0
    for path in sorted((SET / "cases").glob("*.json")):
        k, cases = benchmark.read_cases(path)
        pooled += benchmark.results(cases, locate(SET / "repos" / path.stem, None, False))
        total += len(cases)
    report = benchmark.summarise(pooled, k)
    assert report.cases == total
    orders = [r for r in pooled if "orders table" in r.case.query or "users table" in r.case.query]
    # The two tasks, on the repository shape.
    assert [r.returned[:1] for r in orders] == [("workspace:db-migrations",)] * 2
