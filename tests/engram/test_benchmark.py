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


def test_percentile_interpolates() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([], 95) == 0.0
