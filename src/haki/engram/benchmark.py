"""``engram benchmark``: routing quality and latency on a cases file.

A case is ``{"query", "expect": [ids], "forbid": [ids], "category"}``, with
optional ``"split"`` (for example ``tune`` / ``holdout``) and ``"roles"``
(the role filter the task runs under). An empty ``expect`` means the right
answer is to load nothing. An id may carry a scope, ``workspace:<id>`` or
``global:<id>``, when a case is about which copy of a duplicated memory loads.

Per kind of task the report gives recall and precision at k over the loaded
batch, the share of tasks that showed a must-not-load memory, the number of
tasks that showed a poisoned memory (unsafe content) and, for tasks no memory
covers, the share that showed nothing at all.
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
    split: str = ""
    roles: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    returned: tuple[str, ...]  # loaded batch, as "scope:id", in batch order
    rendered: tuple[str, ...]  # everything shown (bodies and cards), as "scope:id"
    forbidden_hits: tuple[str, ...]
    poisoned: tuple[str, ...]
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
    must_not_load_rate: float = 0.0
    poisoned_shown: int = 0


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
        roles = raw.get("roles")
        cases.append(
            Case(
                raw["query"],
                tuple(raw.get("expect", [])),
                tuple(raw.get("forbid", [])),
                str(raw.get("category", "")),
                str(raw.get("split", "")),
                None if roles is None else tuple(str(r) for r in roles),
            )
        )
    return k, tuple(cases)


def run(cases: Sequence[Case], roots: Roots, k: int = 5, today: str | None = None) -> Report:
    return summarise(results(cases, roots, today), k)


def results(cases: Sequence[Case], roots: Roots, today: str | None = None) -> list[CaseResult]:
    """Each case loaded and rendered as a user sees it (``summarise`` scores them), so
    the results of several repositories can be pooled into one report."""
    if cases:
        load(LoadRequest(cases[0].query, record_usage=False), roots, today)  # warm the index
    unsafe = poisoned_ids(roots)
    done = []
    for case in cases:
        start = time.perf_counter()
        request = LoadRequest(case.query, roles=case.roles, record_usage=False)
        plan = load(request, roots, today)
        rendering = render(plan)
        elapsed = (time.perf_counter() - start) * 1000
        items = {i.id: i for i in (*plan.batch, *plan.omitted_cards)}
        shown_ids = rendering.bodies + rendering.cards
        shown = tuple(f"{items[i].scope}:{i}" for i in shown_ids if i in items)
        batch = tuple(f"{i.scope}:{i.id}" for i in plan.batch if i.id in shown_ids)
        hits = tuple(f for f in case.forbid if any(matches(f, s) for s in shown))
        poisoned = tuple(s for s in shown if s in unsafe)
        done.append(CaseResult(case, batch, shown, hits, poisoned, rendering.tokens, elapsed))
    return done


def poisoned_ids(roots: Roots) -> frozenset[str]:
    """``scope:id`` of every memory whose content the safety scan flags, read from the index
    rather than from the load plan, so the count holds even if the gate were wrong."""
    from .index import open_index

    return frozenset(
        f"{root.scope}:{doc.id}"
        for root in roots.all()
        for doc in open_index(root, roots.config.ignore).docs
        if doc.unsafe
    )


def matches(wanted: str, loaded: str) -> bool:
    """``wanted`` is ``id`` or ``scope:id``; ``loaded`` is always ``scope:id``."""
    return wanted == loaded if ":" in wanted else loaded.partition(":")[2] == wanted


def _precision(r: CaseResult, k: int) -> float:
    top = r.returned[:k]
    return (
        sum(1 for i in top if any(matches(e, i) for e in r.case.expect)) / len(top) if top else 0.0
    )


def _recall(r: CaseResult, k: int) -> float:
    top = r.returned[:k]
    return sum(1 for e in r.case.expect if any(matches(e, i) for i in top)) / len(r.case.expect)


def kind_metrics(results: Sequence[CaseResult], k: int) -> dict[str, float]:
    """The per-kind row: recall, precision, must-not-load rate, poisoned, clean rate."""
    scored = [r for r in results if r.case.expect]
    zero = [r for r in results if not r.case.expect]
    row: dict[str, float] = {"cases": len(results)}
    if scored:
        row["recall_at_k"] = _mean([_recall(r, k) for r in scored])
        row["precision_at_k"] = _mean([_precision(r, k) for r in scored])
    if results:
        row["must_not_load_rate"] = _mean([1.0 if r.forbidden_hits else 0.0 for r in results])
        row["poisoned_shown"] = sum(1 for r in results if r.poisoned)
    if zero:
        # Clean means nothing shown at all: no body and no card.
        row["zero_match_correct"] = _mean([0.0 if r.rendered else 1.0 for r in zero])
    return row


def summarise(results: Sequence[CaseResult], k: int) -> Report:
    scored = [r for r in results if r.case.expect]
    zero = [r for r in results if not r.case.expect]
    by_category = {
        cat: kind_metrics([r for r in results if r.case.category == cat], k)
        for cat in sorted({r.case.category for r in results})
    }
    misses = tuple(
        {
            "query": r.case.query,
            "category": r.case.category,
            "split": r.case.split,
            "expect": list(r.case.expect),
            "returned": list(r.returned[:k]),
            "shown": list(r.rendered),
            "forbidden_hits": list(r.forbidden_hits),
        }
        for r in results
        if r.forbidden_hits
        or (r.case.expect and _recall(r, k) < 1.0)
        or (not r.case.expect and r.rendered)
    )
    latencies = sorted(r.latency_ms for r in results)
    return Report(
        k=k,
        cases=len(results),
        precision_at_k=_mean([_precision(r, k) for r in scored]),
        recall_at_k=_mean([_recall(r, k) for r in scored]),
        forbidden_hits=sum(len(r.forbidden_hits) for r in results),
        zero_match_correct=_mean([0.0 if r.rendered else 1.0 for r in zero]) if zero else None,
        tokens_per_load=_mean([float(r.tokens) for r in results]),
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
        by_category=by_category,
        misses=misses,
        must_not_load_rate=_mean([1.0 if r.forbidden_hits else 0.0 for r in results]),
        poisoned_shown=sum(1 for r in results if r.poisoned),
    )


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    if not sorted_values:
        return 0.0
    rank = (len(sorted_values) - 1) * pct / 100
    low = int(rank)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (rank - low)


_COLUMNS = (
    ("recall_at_k", "recall", "{:.2f}"),
    ("precision_at_k", "precision", "{:.2f}"),
    ("must_not_load_rate", "must-not-load", "{:.1%}"),
    ("poisoned_shown", "poisoned", "{:.0f}"),
    ("zero_match_correct", "nothing-fits clean", "{:.0%}"),
)


def format_table(report: Report) -> list[str]:
    """A Markdown table, one row per kind of task plus the overall row."""
    overall = {
        "cases": report.cases,
        "recall_at_k": report.recall_at_k,
        "precision_at_k": report.precision_at_k,
        "must_not_load_rate": report.must_not_load_rate,
        "poisoned_shown": report.poisoned_shown,
    }
    if report.zero_match_correct is not None:
        overall["zero_match_correct"] = report.zero_match_correct
    header = ["kind", "n", *(label for _, label, _ in _COLUMNS)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    rows = [*report.by_category.items(), ("all", overall)]
    for cat, m in rows:
        cells = [cat or "-", f"{m['cases']:.0f}"]
        cells += [fmt.format(m[key]) if key in m else "" for key, _, fmt in _COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def format_report(report: Report, show_misses: bool = True) -> str:
    zero = "n/a" if report.zero_match_correct is None else f"{report.zero_match_correct:.3f}"
    lines = [
        f"cases: {report.cases}  k: {report.k}",
        f"precision@{report.k}: {report.precision_at_k:.3f}",
        f"recall@{report.k}: {report.recall_at_k:.3f}",
        f"forbidden hits: {report.forbidden_hits} "
        f"(tasks that showed a must-not-load memory: {report.must_not_load_rate:.1%})",
        f"poisoned shown: {report.poisoned_shown}",
        f"zero-match correct: {zero}",
        f"tokens per load: {report.tokens_per_load:.0f}",
        f"latency p50: {report.latency_p50_ms:.2f} ms  p95: {report.latency_p95_ms:.2f} ms (in-process)",
        "",
        *format_table(report),
    ]
    if show_misses:
        if report.misses:
            lines.append("")
        for miss in report.misses:
            lines.append(
                f"  miss [{miss['category']}]: {miss['query']!r} expect={miss['expect']} "
                f"got={miss['returned']} forbidden={miss['forbidden_hits']}"
            )
    return "\n".join(lines) + "\n"


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
