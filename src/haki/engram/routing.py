"""Anchor, rank and admit: the pure routing stage of the read path.

Input is the visible pool (already merged and filtered); output is a ranked
list of admitted memories plus the reasons others were left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..text import bm25
from . import globs
from .index import FIELD_BITS, STRONG_BITS, Doc, Index
from .text import anchors as extract_anchors
from .text import mentions_workflow, query_paths, stem


@dataclass(frozen=True, slots=True)
class RoutingConfig:
    k1: float = 1.2
    b: float = 0.75
    review_due: float = 0.7
    stale: float = 0.6
    confidence: Mapping[str, float] = field(
        default_factory=lambda: {"high": 1.0, "medium": 0.9, "low": 0.8}
    )
    workspace: float = 1.1
    usage_step: float = 0.02  # per doubling of fetches
    usage_cap: float = 0.08  # the usage bonus never outweighs a lifecycle penalty
    workflow_skill: float = 1.25
    path_bonus: float = 2.0
    vector_weight: float = 0.2
    many_anchors: int = 4
    # The compact batch keeps candidates scoring at least this share of the best one.
    min_relative: float = 0.4


DEFAULT_ROUTING = RoutingConfig()
CONTENT_BIT = FIELD_BITS["content"]
OMITTED_LIFECYCLES = ("superseded", "archived")


@dataclass(frozen=True, slots=True)
class Pool:
    """Visible memories after merge and filters; position ``p`` is ``refs[p]``.

    Memories are decoded only when routing scores them.
    """

    indexes: tuple[Index, ...]
    refs: tuple[tuple[int, int], ...]  # (index number, doc number)
    positions: tuple[dict[int, int], ...]  # per index: doc number -> pool position
    by_id: dict[str, int]

    def __len__(self) -> int:
        return len(self.refs)

    def doc(self, pos: int) -> Doc:
        i, no = self.refs[pos]
        return self.indexes[i].doc(no)

    def lookup(self, mid: str) -> Doc | None:
        pos = self.by_id.get(mid)
        return None if pos is None else self.doc(pos)

    def total_length(self) -> float:
        return sum(self.indexes[i].lengths[no] for i, no in self.refs)


@dataclass(frozen=True, slots=True)
class Scored:
    doc: Doc
    score: float
    matched: tuple[str, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Omitted:
    id: str
    scope: str
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Routed:
    anchors: tuple[str, ...]
    ranked: tuple[Scored, ...]
    omitted: tuple[Omitted, ...]
    restrictions: tuple[str, ...]


def rank_key(s: Scored) -> tuple[float, str, str]:
    return (-s.score, s.doc.id, s.doc.scope)


def route(
    query: str,
    pool: Pool,
    today: str,
    usage: Mapping[str, int] | None = None,
    vector_scores: Mapping[str, float] | None = None,
    cfg: RoutingConfig = DEFAULT_ROUTING,
    paths: Sequence[str] = (),
) -> Routed:
    words = extract_anchors(query)
    stems: dict[str, str] = {}
    for w in words:
        stems.setdefault(stem(w), w)
    n = len(pool)
    avg_length = pool.total_length() / n if n else 0.0
    base: dict[int, float] = {}
    matched: dict[int, list[tuple[str, int]]] = {}
    bits: dict[int, int] = {}
    for term, word in stems.items():
        hits = [
            (positions[no], tf, fbits)
            for ix, positions in zip(pool.indexes, pool.positions, strict=False)
            for no, tf, fbits in ix.hits(term)
            if no in positions
        ]
        if not hits:
            continue
        term_idf = bm25.idf(len(hits), n)
        for pos, tf, fbits in hits:
            i, no = pool.refs[pos]
            length = pool.indexes[i].lengths[no]
            base[pos] = base.get(pos, 0.0) + bm25.term_score(
                tf, term_idf, length, avg_length, cfg.k1, cfg.b
            )
            matched.setdefault(pos, []).append((word, fbits))
            bits[pos] = bits.get(pos, 0) | fbits
    path_hits = _path_hits(query, pool, paths)
    restrictions: list[str] = []
    many = len(stems) >= cfg.many_anchors
    if many:
        restrictions.append(f"{len(stems)} anchors: needs 2 anchor matches or a strong-field match")
    workflow = mentions_workflow(query) and bool(stems)
    if workflow:
        restrictions.append("workflow: skills preferred")
    scored: list[Scored] = []
    omitted: list[Omitted] = []
    for pos in sorted(set(base) | set(path_hits)):
        doc = pool.doc(pos)
        hit_pairs = matched.get(pos, [])
        words_hit = tuple(w for w, _ in hit_pairs)
        strong = bool(bits.get(pos, 0) & STRONG_BITS) or pos in path_hits
        if many and len(words_hit) < 2 and not strong:
            omitted.append(
                Omitted(doc.id, doc.scope, "weak_match", f"1/{len(stems)} anchors, no strong field")
            )
            continue
        if len(words_hit) == 1 and bits.get(pos, 0) == CONTENT_BIT and pos not in path_hits:
            # One word somewhere in a body is how unrelated prompts leak in.
            omitted.append(Omitted(doc.id, doc.scope, "weak_match", "one anchor, body text only"))
            continue
        if doc.lifecycle in OMITTED_LIFECYCLES:
            omitted.append(Omitted(doc.id, doc.scope, "lifecycle", doc.lifecycle))
            continue
        if doc.valid_until and doc.valid_until < today:
            omitted.append(
                Omitted(doc.id, doc.scope, "lifecycle", f"valid_until {doc.valid_until} passed")
            )
            continue
        score = base.get(pos, 0.0) + (cfg.path_bonus if pos in path_hits else 0.0)
        factor, why = _multiplier(doc, cfg, usage or {}, workflow)
        if vector_scores and doc.id in vector_scores:
            # Vectors only re-rank memories already admitted on shared terms.
            factor *= 1.0 + cfg.vector_weight * max(0.0, min(1.0, vector_scores[doc.id]))
            why.append("vector")
        reasons = [f"{w}: {_field_names(b)}" for w, b in hit_pairs]
        if pos in path_hits:
            reasons.append(f"applies_to: {path_hits[pos]}")
        scored.append(Scored(doc, round(score * factor, 6), words_hit, tuple(reasons + why)))
    scored.sort(key=rank_key)
    omitted.sort(key=lambda o: (o.reason, o.id, o.scope))
    return Routed(tuple(words), tuple(scored), tuple(omitted), tuple(restrictions))


def _multiplier(
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


def _path_hits(query: str, pool: Pool, extra: Sequence[str] = ()) -> dict[int, str]:
    paths = query_paths(query) + [p.lstrip("./") if p.startswith("./") else p for p in extra]
    if not paths:
        return {}
    hits: dict[int, str] = {}
    for ix, positions in zip(pool.indexes, pool.positions, strict=False):
        for no, patterns in ix.applies_to.items():
            if no not in positions:
                continue
            for pattern in patterns:
                hit = next((p for p in paths if globs.matches(pattern, p)), None)
                if hit:
                    hits[positions[no]] = hit
                    break
    return hits


def _field_names(fbits: int) -> str:
    return ",".join(name for name, bit in FIELD_BITS.items() if fbits & bit) or "path"
