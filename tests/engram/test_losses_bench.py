"""bench/engram_losses.py: each missed must-load memory lands in the stage that drops it,
and a memory shown on a nothing-fits task is listed with the words that admitted it."""

from __future__ import annotations

from collections import Counter

from bench_modules import load_bench
from haki.engram.benchmark import Case

TODAY = "2026-06-01"


def test_stages_of_a_small_repository(repo) -> None:
    losses = load_bench("engram_losses.py", "engram_losses_under_test")
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"], directive="Reversible.")
    repo.add("commit-style", tags=["git"], triggers=["commit message"], directive="Imperative.")
    cases = [
        Case("write a migration for the orders table", ("db-migrations",), (), "direct"),
        Case("ship the blog to production", ("commit-style",), (), "paraphrase"),
        Case("explain the commit message style of the kernel", (), (), "nothing-fits"),
    ]
    out: list[dict[str, object]] = []
    counts = losses.analyse("tiny", cases, repo.roots(), 5, out, TODAY)
    assert counts == Counter({"miss: no overlap": 1, "nothing-fits dirty": 1})
    shown = [r for r in out if r["kind"] == "nothing-fits"]
    assert [r["id"] for r in shown] == ["commit-style"]
    assert any(str(h).startswith("commit") for h in shown[0]["hits"])  # type: ignore[attr-defined]
