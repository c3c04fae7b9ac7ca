"""Episode ranking (pure): hybrid relevance, then conversational context.

base  = w_semantic · dense + w_lexical · lexical
        dense   = cosine similarity, min-max normalised over the rows at hand
        lexical = BM25 over stemmed terms, / max; idf and length statistics come
                  from the rows being ranked, which measured as well as the
                  subject-wide statistics on LoCoMo and needs no extra query
total = base
      + Σ w_neighbour[d] · base(turn d steps away)     neighbouring turns
      + w_neighbour_max · max base(turn ≤ len(w_neighbour) steps away)
      + w_session · mean(top-k base of its session)    the conversation it sits in

Why the two context terms: evidence in a dialogue is often a turn that
answers the one matching the question ("yes, last Tuesday"), and a
conversation about the topic holds more of it than isolated hits elsewhere.
Both only re-rank rows that relevance already surfaced (candidates and the
neighbours of the strongest ones). Weights are not public contract.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from uuid import UUID

from ..text.bm25 import idf
from ..text.lexicon import terms as lexical_terms
from .config import EpisodeWeights
from .episode_candidates import Neighbour
from .types import EpisodeRow, Scored, ScoreParts


@dataclass(slots=True)
class Relevance:
    semantic: float  # 1 - cosine distance
    dense: float  # semantic, normalised over the rows
    lexical: float  # BM25, normalised over the rows
    base: float


@lru_cache(maxsize=32768)
def text_terms(text: str) -> Counter[str]:
    """A text's stemmed term counts. Cached: a scope's turns come back query
    after query, and tokenising them was the largest share of ranking time;
    both ranking passes of a call read the same entries. Keyed by the text,
    whose hash is computed in C, not by the row's id: ``UUID.__hash__`` and
    ``__eq__`` are Python methods, and keying by id cost a thousand of each
    per call. The Counter is shared between callers, so it is only ever read."""
    return Counter(lexical_terms(text))


@lru_cache(maxsize=32768)
def text_length(text: str) -> int:
    """A text's stemmed term count (BM25's document length), cached beside ``text_terms``."""
    return sum(text_terms(text).values())


def bm25_scores(
    docs: Sequence[Counter[str]],
    query_terms: Sequence[str],
    k1: float,
    b: float,
    lengths: Sequence[int] | None = None,
) -> list[float]:
    """Each doc's BM25 score; ``lengths``: the docs' term counts, if known
    (``text_length``). ``text.bm25.term_score``'s arithmetic, inlined with
    its per-doc part computed once and only the doc's own query terms
    visited: the same floats, in about two thirds of the time
    (``bench/context_micro.py``); on LoCoMo scopes this is the largest
    step of ranking."""
    if lengths is None:
        lengths = [sum(d.values()) for d in docs]
    avg = (sum(lengths) / len(lengths)) if lengths else 1.0
    wanted = set(query_terms)
    # Each doc's query terms, found once for df and scoring; a doc holding
    # none scores 0 without a pass over the weights.
    present = [d.keys() & wanted for d in docs]
    df = Counter(t for found in present for t in found)
    weights = {t: idf(df[t], len(docs)) for t in wanted if df[t]}
    k1_plus = k1 + 1.0
    out = []
    for doc, length, found in zip(docs, lengths, present, strict=True):
        if not found:
            out.append(0.0)
            continue
        k_norm = k1 * (1.0 - b + b * (length / avg if avg > 0 else 1.0))
        # fsum: exact, so the order of the terms (a set's) does not matter.
        out.append(math.fsum([weights[t] * doc[t] * k1_plus / (doc[t] + k_norm) for t in found]))
    return out


def relevance(
    rows: Sequence[EpisodeRow],
    lexical: Sequence[float],
    w: EpisodeWeights,
    named: Sequence[bool] | None = None,
) -> list[Relevance]:
    """``named``: whether the query names each row's speaker (adds ``w.speaker``)."""
    sims = [0.0 if r.distance is None else 1.0 - r.distance for r in rows]
    lo, hi = (min(sims), max(sims)) if sims else (0.0, 0.0)
    top_lex = max(lexical, default=0.0)
    named = named or [False] * len(rows)
    out = []
    for sim, lex, own in zip(sims, lexical, named, strict=True):
        dense = (sim - lo) / (hi - lo) if hi > lo else 1.0
        lexn = lex / top_lex if top_lex > 0 else 0.0
        base = w.semantic * dense + w.lexical * lexn + (w.speaker if own else 0.0)
        out.append(Relevance(sim, dense, lexn, base))
    return out


_SPEAKER = re.compile(r"([^:\n]{1,60}): ")


@lru_cache(maxsize=32768)
def speaker_terms(text: str) -> frozenset[str]:
    """The stemmed terms of a turn's speaker: the chunker writes a speaker's
    turn as ``Name: text`` (a message as ``role: text``); empty otherwise."""
    m = _SPEAKER.match(text)
    return frozenset(lexical_terms(m.group(1))) if m else frozenset()


def speaker_named(rows: Sequence[EpisodeRow], query_terms: Sequence[str]) -> list[bool]:
    wanted = set(query_terms)
    return [bool(speaker_terms(r.text) & wanted) for r in rows]


def sessions(rows: Sequence[EpisodeRow], gap_s: float) -> list[int]:
    """A session number per row: rows closer in time than ``gap_s`` share one."""
    order = sorted(range(len(rows)), key=lambda i: (rows[i].occurred_at, rows[i].id))
    out = [0] * len(rows)
    current, last = 0, None
    for i in order:
        at = rows[i].occurred_at
        if last is not None and (at - last).total_seconds() > gap_s:
            current += 1
        out[i] = current
        last = at
    return out


def context_bonus(
    rows: Sequence[EpisodeRow],
    rel: Sequence[Relevance],
    pairs: Sequence[tuple[int, int, int]],
    w: EpisodeWeights,
) -> list[float]:
    """Neighbour and session terms; ``pairs`` are (row, row, turns apart), each once."""
    bonus = [0.0] * len(rows)
    best = [0.0] * len(rows)  # strongest base within reach
    for i, j, steps in pairs:
        if 1 <= steps <= len(w.neighbour):
            bonus[i] += w.neighbour[steps - 1] * rel[j].base
            bonus[j] += w.neighbour[steps - 1] * rel[i].base
            best[i] = max(best[i], rel[j].base)
            best[j] = max(best[j], rel[i].base)
    if w.neighbour_max:
        bonus = [b + w.neighbour_max * m for b, m in zip(bonus, best, strict=True)]
    if w.session:
        members: dict[int, list[float]] = defaultdict(list)
        sess = sessions(rows, w.session_gap_s)
        for s, r in zip(sess, rel, strict=True):
            members[s].append(r.base)
        strength = {
            s: math.fsum(sorted(v, reverse=True)[: w.session_top]) / min(len(v), w.session_top)
            for s, v in members.items()
        }
        bonus = [b + w.session * strength[s] for b, s in zip(bonus, sess, strict=True)]
    return bonus


def merge_neighbours(
    candidates: Sequence[EpisodeRow], found: Sequence[Neighbour]
) -> tuple[list[EpisodeRow], list[tuple[int, int, int]]]:
    """All rows (candidates first, then new neighbours by id) and the adjacency pairs."""
    rows = list(candidates)
    # Keyed and sorted by the ids' integers: the same identity and order as
    # the UUIDs', hashed and compared in C.
    index: dict[int, int] = {r.id.int: i for i, r in enumerate(rows)}
    for nb in sorted(found, key=lambda n: (n.row.id.int, n.anchor_id.int)):
        if nb.row.id.int not in index:
            index[nb.row.id.int] = len(rows)
            rows.append(nb.row)
    pairs: set[tuple[int, int, int]] = set()
    for nb in found:
        a, b = index[nb.anchor_id.int], index[nb.row.id.int]
        pairs.add((min(a, b), max(a, b), abs(nb.offset)))
    return rows, sorted(pairs)


def anchors(rows: Sequence[EpisodeRow], rel: Sequence[Relevance], k: int) -> list[UUID]:
    order = sorted(range(len(rows)), key=lambda i: (-rel[i].base, rows[i].id.int))
    return [rows[i].id for i in order[:k]]


def rank_episodes(
    rows: Sequence[EpisodeRow],
    query_terms: Sequence[str],
    pairs: Sequence[tuple[int, int, int]],
    w: EpisodeWeights,
    limit: int,
) -> list[Scored]:
    """Score every row, keep the best ``limit`` (score, then id, for a total order)."""
    rel = base_relevance(rows, query_terms, w)
    bonus = context_bonus(rows, rel, pairs, w)
    totals = [r.base + extra for r, extra in zip(rel, bonus, strict=True)]
    order = sorted(range(len(rows)), key=lambda i: (-totals[i], rows[i].id.int))[:limit]
    out = []
    for n, i in enumerate(order, start=1):
        r = rel[i]
        parts = ScoreParts(
            semantic=r.semantic, fulltext=r.lexical, recency=0.0, total=totals[i], context=bonus[i]
        )
        out.append(Scored(row=rows[i], score=parts, rank=n))
    return out


def base_relevance(
    rows: Sequence[EpisodeRow], query_terms: Sequence[str], w: EpisodeWeights
) -> list[Relevance]:
    docs = [text_terms(r.text) for r in rows]
    lengths = [text_length(r.text) for r in rows]
    named = speaker_named(rows, query_terms) if w.speaker else None
    return relevance(rows, bm25_scores(docs, query_terms, w.bm25_k1, w.bm25_b, lengths), w, named)
