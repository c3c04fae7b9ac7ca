"""How much a memory matches a task: BM25 per anchor, each anchor's share of the
task, phrase and path evidence, and the lifecycle and usage multipliers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..text import bm25
from . import globs
from .index import FIELD_BITS, Doc
from .pool import CURATED_BITS, SUMMARY_BIT, Pool, RoutingConfig, pool_hits
from .text import query_paths
from .vocabulary import Anchor, query_terms


def anchor_hits(
    anchor: Anchor, pool: Pool, avg_length: float, cfg: RoutingConfig
) -> dict[int, tuple[float, int]]:
    """Best BM25 score and field bits per pool position, over the anchor and its alternates."""
    n = len(pool)
    per_pos: dict[int, tuple[float, int]] = {}
    candidates = [(anchor.term, 1.0)] + [(t, cfg.synonym_weight) for t in anchor.alternates]
    for term, weight in candidates:
        hits = pool_hits(pool, term)
        if not hits:
            continue
        term_idf = bm25.idf(len(hits), n)
        for pos, tf, fbits in hits:
            i, no = pool.refs[pos]
            score = weight * bm25.term_score(
                tf, term_idf, pool.indexes[i].lengths[no], avg_length, cfg.k1, cfg.b
            )
            prev_score, prev_bits = per_pos.get(pos, (0.0, 0))
            per_pos[pos] = (max(score, prev_score), prev_bits | fbits)
    return per_pos


def anchor_weight(anchor: Anchor, pool: Pool, cfg: RoutingConfig) -> float:
    """How much of the task an anchor is: its idf, less for generic and unknown words."""
    n = len(pool)
    df = document_frequency(pool, anchor.term)
    if df == 0:
        known = [d for t in anchor.alternates if (d := document_frequency(pool, t))]
        df = max(known, default=0)
    weight = bm25.idf(df, max(n, cfg.idf_pool)) * (cfg.unknown_weight if df == 0 else 1.0)
    return weight * (cfg.generic_weight if anchor.generic else 1.0)


def document_frequency(pool: Pool, term: str) -> int:
    return len(pool_hits(pool, term))


def field_factor(fbits: int, cfg: RoutingConfig) -> float:
    if fbits & CURATED_BITS:
        return 1.0
    if fbits & SUMMARY_BIT:
        return cfg.summary_factor
    return cfg.content_factor


def phrase_evidence(
    query: str,
    pool: Pool,
    evidence: dict[int, float],
    anchor_weight: Mapping[str, float],
    cfg: RoutingConfig,
) -> None:
    """A whole multi-word trigger or tag in the task counts its anchors' weight again."""
    if not evidence:
        return
    text = " " + " ".join(query_terms(query)) + " "
    for pos in list(evidence):
        i, no = pool.refs[pos]
        for phrase in pool.indexes[i].phrases.get(str(no), ()):
            if f" {phrase} " in text:
                evidence[pos] += cfg.phrase_weight * sum(
                    anchor_weight.get(t, 0.0) for t in phrase.split(" ")
                )


def multiplier(
    doc: Doc, cfg: RoutingConfig, usage: Mapping[str, int], workflow: bool
) -> tuple[float, list[str]]:
    factor = 1.0
    why: list[str] = []
    if doc.lifecycle == "review_due":
        factor *= cfg.review_due
        why.append(f"review_due x{cfg.review_due}")
    if doc.stale:
        factor *= cfg.stale
        why.append(f"stale x{cfg.stale}")
    conf = cfg.confidence.get(doc.confidence, 1.0)
    if conf != 1.0:
        factor *= conf
        why.append(f"confidence {doc.confidence} x{conf}")
    if doc.scope == "workspace":
        factor *= cfg.workspace
    if workflow and doc.type == "skill":
        factor *= cfg.workflow_skill
        why.append("workflow -> skill")
    fetched = usage.get(doc.id, 0)
    if fetched > 0:
        bonus = min(cfg.usage_cap, cfg.usage_step * fetched.bit_length())
        factor *= 1.0 + bonus
        why.append(f"fetched {fetched}x +{bonus:.2f}")
    return factor, why


def task_paths(query: str, extra: Sequence[str]) -> list[str]:
    """Paths written in the task plus the files the caller says are being worked on."""
    return query_paths(query) + [p[2:] if p.startswith("./") else p for p in extra]


def path_hits(paths: list[str], pool: Pool) -> dict[int, tuple[str, str]]:
    """Pool position -> (the most specific matching glob, the task's path it matched)."""
    if not paths:
        return {}
    hits: dict[int, tuple[str, str]] = {}
    for ix, positions in zip(pool.indexes, pool.positions, strict=False):
        for no, patterns in ix.applies_to.items():
            if no not in positions:
                continue
            for pattern in sorted(patterns, key=globs.specificity, reverse=True):
                hit = next((p for p in paths if globs.matches(pattern, p)), None)
                if hit:
                    hits[positions[no]] = (pattern, hit)
                    break
    return hits


def field_names(fbits: int) -> str:
    return ",".join(name for name, bit in FIELD_BITS.items() if fbits & bit) or "path"
