"""Routing quality on the development corpus (tests/fixtures/engram)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from haki.engram.benchmark import percentile, read_cases, run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "engram"


def test_development_cases_meet_the_bar(fixture_roots) -> None:
    k, cases = read_cases(FIXTURES / "cases.json")
    report = run(cases, fixture_roots(), k, today="2026-06-01")
    assert report.recall_at_k >= 0.9, report.misses
    assert report.forbidden_hits == 0, report.misses
    assert report.zero_match_correct == 1.0, report.misses
    assert report.cases == len(cases) >= 30


def test_poisoned_fixtures_never_render(fixture_roots) -> None:
    from haki.engram import LoadRequest, load
    from haki.engram.disclosure import render

    for query in ("staging database psql bastion", "urgent release fast track", "release"):
        text = render(load(LoadRequest(query, all=True, record_usage=False), fixture_roots())).text
        assert "Sup3rS3cret" not in text and "Ignore all previous" not in text


def test_benchmark_command_prints_metrics(tmp_path) -> None:
    corpus = FIXTURES / "corpus"
    env = dict(os.environ, ENGRAM_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "haki.engram.cli",
            "benchmark",
            str(FIXTURES / "cases.json"),
            "--json",
            "--process",
            "2",
            "-C",
            str(corpus / "workspace"),
            "--global-dir",
            str(corpus / "global"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for key in (
        "precision_at_k",
        "recall_at_k",
        "forbidden_hits",
        "zero_match_correct",
        "tokens_per_load",
        "latency_p50_ms",
        "latency_p95_ms",
    ):
        assert key in report
    # Whole-process timings on a fresh copy of the repository: load and the Claude hook.
    for kind in ("load", "hook"):
        timings = report["process"][f"this checkout: {kind}"]
        assert len(timings["wall_ms"]) == 2 and timings["failures"] == 0


def test_percentile_interpolates() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([], 95) == 0.0


KINDS = {
    "exact",
    "paraphrase",
    "multi-intent",
    "dependency",
    "nothing-fits",
    "generic-words",
    "lifecycle",
    "workspace-vs-global",
    "security",
    "path",
}


def test_dev_set_covers_every_kind_with_a_held_out_third() -> None:
    _, cases = read_cases(FIXTURES / "dev_cases.json")
    assert len(cases) >= 150
    assert {c.category for c in cases} == KINDS
    for kind in KINDS:
        of_kind = [c for c in cases if c.category == kind]
        held = [c for c in of_kind if c.split == "holdout"]
        assert len(of_kind) >= 15, kind
        assert len(of_kind) // 4 <= len(held) <= len(of_kind) // 2, kind
    assert {c.split for c in cases} == {"tune", "holdout"}


def test_scoped_ids_match_only_their_copy() -> None:
    from haki.engram.benchmark import matches

    assert matches("conventional-commits", "global:conventional-commits")
    assert matches("workspace:conventional-commits", "workspace:conventional-commits")
    assert not matches("global:conventional-commits", "workspace:conventional-commits")
    assert not matches("commits", "workspace:conventional-commits")


def test_kind_metrics_count_forbidden_poisoned_and_clean_tasks() -> None:
    from haki.engram.benchmark import Case, CaseResult, kind_metrics

    def result(expect, forbid, returned, shown=None, poisoned=()) -> CaseResult:
        case = Case("q", tuple(expect), tuple(forbid), "k")
        shown = tuple(returned) if shown is None else tuple(shown)
        hits = tuple(f for f in forbid if any(s.endswith(":" + f) for s in shown))
        return CaseResult(case, tuple(returned), shown, hits, tuple(poisoned), 0, 0.0)

    row = kind_metrics(
        [
            result(["a"], ["b"], ["workspace:a", "workspace:b"]),
            result(["a", "c"], [], ["workspace:a"]),
            result([], [], [], shown=["workspace:x"]),
            result([], [], []),
            result([], [], ["workspace:p"], poisoned=["workspace:p"]),
        ],
        k=5,
    )
    assert row["recall_at_k"] == 0.75
    assert row["precision_at_k"] == 0.75
    assert row["must_not_load_rate"] == 0.2
    assert row["poisoned_shown"] == 1
    assert abs(row["zero_match_correct"] - 1 / 3) < 1e-9


SHARED_CORPUS = FIXTURES.parents[3] / "shared" / "data" / "engram-rules" / "corpus"


def _shared_report(name: str):
    from haki.engram.workspace import locate

    if not SHARED_CORPUS.is_dir():
        import pytest

        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}")
    k, cases = read_cases(FIXTURES / name)
    return run(cases, locate(SHARED_CORPUS, SHARED_CORPUS / "global", True), k)


def test_routing_on_the_shared_corpus_holds_its_figures() -> None:
    """Floors just under the figures the README reports, so a regression fails here."""
    dev = _shared_report("dev_cases.json")
    assert dev.poisoned_shown == 0
    assert dev.must_not_load_rate <= 0.05, dev.misses
    assert dev.recall_at_k >= 0.89, dev.misses
    assert dev.precision_at_k >= 0.83, dev.misses
    assert (dev.zero_match_correct or 0.0) >= 0.73, dev.misses
    paraphrase = dev.by_category["paraphrase"]
    assert paraphrase["recall_at_k"] >= 0.75, dev.misses
    shared = _shared_report("shared_corpus_cases.json")
    assert shared.forbidden_hits == 0 and shared.poisoned_shown == 0, shared.misses
    assert shared.recall_at_k >= 0.95 and shared.precision_at_k >= 0.77, shared.misses
    assert shared.zero_match_correct == 1.0, shared.misses


def test_the_train3_set_holds_its_figures() -> None:
    """Multi-intent, security and paraphrase tasks typed as developers type them."""
    train = _shared_report("train3_cases.json")
    assert train.poisoned_shown == 0
    assert train.must_not_load_rate <= 0.05, train.misses
    assert train.recall_at_k >= 0.77, train.misses
    assert train.by_category["multi-intent"]["recall_at_k"] >= 0.84, train.misses


def test_a_term_the_first_memory_only_mentions_is_still_news_for_the_second() -> None:
    """structured-logging mentions async db calls in its body; async-io names them in its
    tags and directive, so it still explains a part of the task the first does not."""
    from haki.engram import LoadRequest, load
    from haki.engram.workspace import locate

    if not SHARED_CORPUS.is_dir():
        import pytest

        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}")
    roots = locate(SHARED_CORPUS, SHARED_CORPUS / "global", True)
    query = "move the db calls to async and log the request id with structured fields"
    plan = load(LoadRequest(query, record_usage=False), roots)
    assert {"python-structured-logging", "fastapi-async-io"} <= {i.id for i in plan.batch}


def test_timed_sides_run_from_compiled_copies(tmp_path) -> None:
    # A timed process must not compile Engram's modules (an installed package never
    # does); the checkout itself stays untouched.
    from haki.engram.timing import compiled_src, own_src

    src = own_src()
    out = compiled_src(src, tmp_path)
    modules = sorted(p.relative_to(out) for p in (out / "haki").rglob("*.py"))
    assert modules == sorted(p.relative_to(src) for p in (src / "haki").rglob("*.py"))
    for module in (out / "haki" / "engram").glob("*.py"):
        assert list((module.parent / "__pycache__").glob(f"{module.stem}.*.pyc")), module
    done = subprocess.run(
        [sys.executable, "-c", "import haki.engram.cli as c; print(c.__file__)"],
        env={**os.environ, "PYTHONPATH": str(out), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip().startswith(str(out))
