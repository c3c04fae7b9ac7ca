"""Anchor, rank and admit: the pure routing stage of the read path.

Input is the visible pool (already merged and filtered); output is a ranked
list of admitted memories plus the reasons others were left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from . import globs, record, scoring
from .admission import (
    FUNCTION_WORDS,
    admits,
    extra_rejection,
    lone_far_word,
    other_language,
    quoted_words,
    refusal,
    two_anchor_match,
    weak_meaning,
)
from .index import FIELD_BITS, STRONG_BITS, Doc
from .pool import (
    DEFAULT_ROUTING,
    OMITTED_LIFECYCLES,
    Omitted,
    Pool,
    Routed,
    RoutingConfig,
    Scored,
    pool_hits,
    rank_key,
)
from .semantic import cosine
from .text import ENGRAM_STOP_WORDS, mentions_workflow
from .vocabulary import index_terms, task_anchors, task_clauses, task_languages

__all__ = [
    "DEFAULT_ROUTING",
    "OMITTED_LIFECYCLES",
    "Omitted",
    "Pool",
    "Routed",
    "RoutingConfig",
    "Scored",
    "route",
]


def route(
    query: str,
    pool: Pool,
    today: str,
    usage: Mapping[str, int] | None = None,
    vector_scores: Mapping[str, float] | None = None,
    cfg: RoutingConfig = DEFAULT_ROUTING,
    paths: Sequence[str] = (),
    query_vector: Sequence[float] | Callable[[], Sequence[float] | None] | None = None,
) -> Routed:
    """``query_vector`` may be a function: it runs once, when the first candidate needs its
    meaning, so a task no memory matches never opens the static table."""
    groups = task_anchors(query)
    if cfg.function_words_generic:
        # A function word ranks as a generic one: at a third of its weight, and never an
        # anchor for admission.
        groups = [
            record.replace(a, generic=True) if a.word in FUNCTION_WORDS else a for a in groups
        ]
    quoted = quoted_words(query)
    n = len(pool)
    avg_length = pool.total_length() / n if n else 0.0
    floor = cfg.weak_coverage * min(1.0, n / cfg.idf_pool) if cfg.idf_pool else cfg.weak_coverage
    base: dict[int, float] = {}
    matched: dict[int, list[tuple[str, int]]] = {}
    bits: dict[int, int] = {}
    evidence: dict[int, float] = {}
    explains: dict[int, dict[str, float]] = {}
    anchor_weight: dict[str, float] = {}
    task_weight = 0.0
    for anchor in groups:
        per_pos = scoring.anchor_hits(anchor, pool, avg_length, cfg)
        weight = scoring.anchor_weight(anchor, pool, cfg)
        anchor_weight[anchor.term] = weight
        task_weight += weight
        scale = cfg.generic_weight if anchor.generic else 1.0
        for pos, (score, fbits) in per_pos.items():
            base[pos] = base.get(pos, 0.0) + score * scale
            matched.setdefault(pos, []).append((anchor.word, fbits))
            bits[pos] = bits.get(pos, 0) | fbits
            share = weight * scoring.field_factor(fbits, cfg)
            evidence[pos] = evidence.get(pos, 0.0) + share
            explains.setdefault(pos, {})[anchor.term] = share
    scoring.phrase_evidence(query, pool, evidence, anchor_weight, cfg)
    clauses = [
        (terms, total)
        for terms in task_clauses(query)
        if (total := sum(anchor_weight.get(t, 0.0) for t in terms)) > 0
    ]
    task_paths = scoring.task_paths(query, paths)
    path_hits = scoring.path_hits(task_paths, pool)
    restrictions: list[str] = []
    generic_words = {a.word for a in groups if a.generic}
    specific = len(groups) - len(generic_words)
    if specific >= cfg.many_anchors:
        restrictions.append(f"{specific} anchors: needs 2 anchor matches or a strong-field match")
    workflow = mentions_workflow(query) and bool(groups)
    if workflow:
        restrictions.append("workflow: skills preferred")
    languages = task_languages(query, task_paths)
    scored: list[Scored] = []
    omitted: list[Omitted] = []
    retired: list[tuple[int, float, float]] = []  # superseded/archived matches: pos, score, cover
    for pos in sorted(set(base) | set(path_hits)):
        doc = pool.doc(pos)
        hit_pairs = matched.get(pos, [])
        words_hit = tuple(w for w, _ in hit_pairs)
        strong = bool(bits.get(pos, 0) & STRONG_BITS) or pos in path_hits
        coverage = evidence.get(pos, 0.0) / task_weight if task_weight else 0.0
        reason = None
        # Generic words are not anchors: they neither make a task long nor count as a match.
        specific_hit = sum(1 for w in words_hit if w not in generic_words)
        if not admits(specific, specific_hit, strong, cfg.many_anchors):
            reason = refusal(specific, specific_hit, cfg.many_anchors)
        elif pos not in path_hits:
            reason = extra_rejection(words_hit, generic_words, cfg, quoted)
        meaning = None
        # Only a candidate the words have not refused reads its vector (derived on demand).
        if reason is None:
            if callable(query_vector):
                query_vector = query_vector()
            if query_vector is not None and (memory_vector := pool.vector(pos)) is not None:
                meaning = cosine(query_vector, memory_vector)
        # In a task of several asks a memory answers one of them: it is judged on the
        # share of its own clause it explains, not of the whole task.
        local = max(
            [coverage]
            + [
                sum(explains.get(pos, {}).get(t, 0.0) for t in terms) / total
                for terms, total in clauses
            ]
        )
        exempt = cfg.two_anchor_exempt and two_anchor_match(hit_pairs, generic_words)
        if reason is None and pos not in path_hits and not exempt:
            reason = weak_meaning(local, meaning, floor, cfg)
        if reason is None and pos not in path_hits:
            reason = lone_far_word(hit_pairs, len(groups), n, meaning, cfg)
        if reason is not None:
            omitted.append(Omitted(doc.id, doc.scope, "weak_match", reason))
            continue
        other = other_language(doc, languages)
        if other:
            omitted.append(Omitted(doc.id, doc.scope, "other_stack", other))
            continue
        if doc.lifecycle in OMITTED_LIFECYCLES:
            omitted.append(Omitted(doc.id, doc.scope, "lifecycle", doc.lifecycle))
            if pos not in path_hits:
                retired.append((pos, base.get(pos, 0.0) * min(1.0, coverage), coverage))
            continue
        if doc.valid_until and doc.valid_until < today:
            omitted.append(
                Omitted(doc.id, doc.scope, "lifecycle", f"valid_until {doc.valid_until} passed")
            )
            continue
        path_bonus = 0.0
        if pos in path_hits:
            # The task names a file this memory applies to: evidence of its own,
            # stronger for a narrow glob than for ``**/*.md``.
            specificity = globs.specificity(path_hits[pos][0])
            path_bonus = cfg.path_bonus * (1.0 + specificity)
            coverage += cfg.path_cover * (1.0 + specificity)
        fit = min(1.0, max(coverage, local, 0.05)) ** cfg.coverage_power
        score = (base.get(pos, 0.0) + path_bonus) * fit
        factor, why = scoring.multiplier(doc, cfg, usage or {}, workflow)
        if vector_scores and doc.id in vector_scores:
            # Vectors only re-rank memories already admitted on shared terms.
            factor *= 1.0 + cfg.vector_weight * max(0.0, min(1.0, vector_scores[doc.id]))
            why.append("vector")
        reasons = [f"{w}: {scoring.field_names(b)}" for w, b in hit_pairs]
        if pos in path_hits:
            reasons.append(f"applies_to: {path_hits[pos][1]}")
        reasons.append(f"coverage {min(coverage, 1.0):.2f}")
        covers = tuple(
            (t, share / task_weight) for t, share in sorted(explains.get(pos, {}).items())
        )
        if pos in path_hits:
            covers += (("applies_to", cfg.path_cover),)
        if meaning is not None:
            # Meaning ranks among what the words admitted: x1 at the usual cosine of a
            # related pair, more above it, less below.
            factor *= math.exp(cfg.meaning_weight * (meaning - cfg.meaning_pivot))
            reasons.append(f"meaning {meaning:.2f}")
        scored.append(
            Scored(
                doc,
                round(score * factor, 6),
                words_hit,
                tuple(reasons + why),
                covers,
                min(coverage, 1.0),
                meaning,
            )
        )
    scored += _current_variants(retired, scored, pool, today, languages, cfg)
    scored.sort(key=rank_key)
    omitted.sort(key=lambda o: (o.reason, o.id, o.scope))
    return Routed(tuple(a.word for a in groups), tuple(scored), tuple(omitted), tuple(restrictions))


def _current_variants(
    retired: list[tuple[int, float, float]],
    scored: list[Scored],
    pool: Pool,
    today: str,
    languages: frozenset[str],
    cfg: RoutingConfig,
) -> list[Scored]:
    """A superseded or archived memory that matches the task hands its match to its
    current variant: the active memory of the same type sharing the most tags with it.

    The task still shares meaningful terms with the pair; only the retired copy is
    left out, so "format with black" reaches the formatter rule that replaced Black.
    """
    have = {s.doc.id for s in scored}
    added: list[Scored] = []
    for pos, score, coverage in retired:
        if score <= 0:
            continue
        old = pool.doc(pos)
        variant = _variant_of(old, pool, today, languages)
        if variant is None or variant.id in have:
            continue
        have.add(variant.id)
        reasons = (f"current variant of {old.id} ({old.lifecycle})",)
        added.append(
            Scored(
                variant, round(score * cfg.variant_factor, 6), (), reasons, (("variant", coverage),)
            )
        )
    return added


def _variant_of(old: Doc, pool: Pool, today: str, languages: frozenset[str]) -> Doc | None:
    tag_bit = FIELD_BITS["tags"]
    candidates: set[int] = set()
    for tag in old.tags:
        for t in index_terms(tag, ENGRAM_STOP_WORDS):
            candidates.update(pos for pos, _, fbits in pool_hits(pool, t) if fbits & tag_bit)
    best: tuple[int, str] | None = None
    found: Doc | None = None
    for pos in candidates:
        doc = pool.doc(pos)
        if doc.id == old.id or doc.type != old.type or doc.lifecycle in OMITTED_LIFECYCLES:
            continue
        if (doc.valid_until and doc.valid_until < today) or other_language(doc, languages):
            continue
        shared = len(set(doc.tags) & set(old.tags))
        if shared < 2:
            continue
        key = (-shared, doc.id)
        if best is None or key < best:
            best, found = key, doc
    return found
