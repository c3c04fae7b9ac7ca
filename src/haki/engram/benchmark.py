"""``engram benchmark``: routing quality and latency on a cases file.

A case is ``{"query", "expect": [ids], "forbid": [ids], "category"}``; an empty
``expect`` means the right answer is to load nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .disclosure import render
from .errors import ConfigError
from .loader import load
from .plan import LoadRequest
from .workspace import Roots


@dataclass(frozen=True, slots=True)
class Case:
    query: str
    expect: tuple[str, ...]
    forbid: tuple[str, ...]
    category: str


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    returned: tuple[str, ...]
    rendered: tuple[str, ...]
    forbidden_hits: tuple[str, ...]
    tokens: int
    latency_ms: float


@dataclass(frozen=True, slots=True)
class Report:
    k: int
    cases: int
    precision_at_k: float
    recall_at_k: float
    forbidden_hits: int
    zero_match_correct: float | None
    tokens_per_load: float
    latency_p50_ms: float
    latency_p95_ms: float
    by_category: dict[str, dict[str, float]]
    misses: tuple[dict[str, Any], ...]


def read_cases(path: Path) -> tuple[int, tuple[Case, ...]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read cases: {exc}") from None
    k = 5
    if isinstance(data, dict):
        k = int(data.get("k", 5))
        data = data.get("cases", [])
    if not isinstance(data, list):
        raise ConfigError(f"{path}: expected a list of cases or {{'k': .., 'cases': [..]}}")
    cases = []
    for n, raw in enumerate(data):
        if not isinstance(raw, dict) or not isinstance(raw.get("query"), str):
            raise ConfigError(f"{path}: case {n} needs a 'query' string")
        cases.append(
            Case(
                raw["query"],
                tuple(raw.get("expect", [])),
                tuple(raw.get("forbid", [])),
                str(raw.get("category", "")),
            )
        )
    return k, tuple(cases)


def run(cases: Sequence[Case], roots: Roots, k: int = 5, today: str | None = None) -> Report:
    if cases:
        load(LoadRequest(cases[0].query, record_usage=False), roots, today)  # warm the index
    results = []
    for case in cases:
        start = time.perf_counter()
        plan = load(LoadRequest(case.query, record_usage=False), roots, today)
        rendering = render(plan)
        elapsed = (time.perf_counter() - start) * 1000
        shown = rendering.bodies + rendering.cards
        batch = tuple(i.id for i in plan.batch if i.id in shown)
        hits = tuple(f for f in case.forbid if f in shown or f"### {f} [" in rendering.text)
        results.append(CaseResult(case, batch, shown, hits, rendering.tokens, elapsed))
    return summarise(results, k)


def summarise(results: Sequence[CaseResult], k: int) -> Report:
    scored = [r for r in results if r.case.expect]
    zero = [r for r in results if not r.case.expect]

    def precision(r: CaseResult) -> float:
        top = r.returned[:k]
        return sum(1 for i in top if i in r.case.expect) / len(top) if top else 0.0

    def recall(r: CaseResult) -> float:
        return sum(1 for i in r.case.expect if i in r.returned[:k]) / len(r.case.expect)

    by_category: dict[str, dict[str, float]] = {}
    for cat in sorted({r.case.category for r in results}):
        rs = [r for r in scored if r.case.category == cat]
        zs = [r for r in zero if r.case.category == cat]
        by_category[cat] = {"cases": len(rs) + len(zs)}
        if rs:
            by_category[cat]["recall_at_k"] = _mean([recall(r) for r in rs])
            by_category[cat]["precision_at_k"] = _mean([precision(r) for r in rs])
        if zs:
            by_category[cat]["zero_match_correct"] = _mean([0.0 if r.returned else 1.0 for r in zs])
    misses = tuple(
        {
            "query": r.case.query,
            "expect": list(r.case.expect),
            "returned": list(r.returned[:k]),
            "forbidden_hits": list(r.forbidden_hits),
        }
        for r in results
        if r.forbidden_hits
        or (r.case.expect and recall(r) < 1.0)
        or (not r.case.expect and r.returned)
    )
    latencies = sorted(r.latency_ms for r in results)
    return Report(
        k=k,
        cases=len(results),
        precision_at_k=_mean([precision(r) for r in scored]),
        recall_at_k=_mean([recall(r) for r in scored]),
        forbidden_hits=sum(len(r.forbidden_hits) for r in results),
        zero_match_correct=_mean([0.0 if r.returned else 1.0 for r in zero]) if zero else None,
        tokens_per_load=_mean([float(r.tokens) for r in results]),
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
        by_category=by_category,
        misses=misses,
    )


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    if not sorted_values:
        return 0.0
    rank = (len(sorted_values) - 1) * pct / 100
    low = int(rank)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (rank - low)


def format_report(report: Report) -> str:
    zero = "n/a" if report.zero_match_correct is None else f"{report.zero_match_correct:.3f}"
    lines = [
        f"cases: {report.cases}  k: {report.k}",
        f"precision@{report.k}: {report.precision_at_k:.3f}",
        f"recall@{report.k}: {report.recall_at_k:.3f}",
        f"forbidden hits: {report.forbidden_hits}",
        f"zero-match correct: {zero}",
        f"tokens per load: {report.tokens_per_load:.0f}",
        f"latency p50: {report.latency_p50_ms:.2f} ms  p95: {report.latency_p95_ms:.2f} ms (in-process)",
    ]
    labels = (
        ("recall_at_k", "recall"),
        ("precision_at_k", "precision"),
        ("zero_match_correct", "zero-ok"),
    )
    for cat, m in report.by_category.items():
        parts = [f"{label}={m[key]:.2f}" for key, label in labels if key in m]
        lines.append(f"  {cat or '-'}: n={m['cases']:.0f} " + " ".join(parts))
    for miss in report.misses:
        lines.append(
            f"  miss: {miss['query']!r} expect={miss['expect']} got={miss['returned']} forbidden={miss['forbidden_hits']}"
        )
    return "\n".join(lines) + "\n"


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
