"""Phase 2: the hybrid score of each fact candidate (pure).

total = w_semantic · (1 − cosine distance)
      + w_fulltext · ts_rank_cd(search_vector, q, 32)   (already in [0, 1))
      + w_recency  · exp(−Δt / τ),  Δt = at − coalesce(valid_from, recorded_from)

The weights live in ``RetrievalConfig.weights`` and are not public contract.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from uuid import UUID

from .config import RetrievalConfig
from .types import FactRow, Scored, ScoreParts


def semantic(distance: float | None) -> float:
    # A row without an embedding yet has no semantic evidence at all.
    return 0.0 if distance is None else 1.0 - distance


def recency(since: datetime, at: datetime, tau: timedelta) -> float:
    # A fact dated in the future (a plan) counts as fresh, not as more than fresh.
    age = max((at - since).total_seconds(), 0.0)
    return math.exp(-age / tau.total_seconds())


def fact_score(row: FactRow, cfg: RetrievalConfig, at: datetime) -> ScoreParts:
    w = cfg.weights
    sem = semantic(row.distance)
    rec = recency(row.since, at, cfg.recency_tau)
    total = w.semantic * sem + w.fulltext * row.fulltext + w.recency * rec
    return ScoreParts(semantic=sem, fulltext=row.fulltext, recency=rec, total=total)


def _rank_key(row: FactRow, parts: ScoreParts) -> tuple[float, UUID]:
    # The id makes the order total: equal scores never fall back to row order.
    # UUIDs compare as their 128-bit integers, the same order as their
    # canonical strings, without formatting one per comparison.
    return (-parts.total, row.id)


def rank(
    rows: Sequence[FactRow], cfg: RetrievalConfig, at: datetime, limit: int | None = None
) -> list[Scored]:
    """Score every fact, sort by descending total (id tie-break), keep ``limit``.

    Episodes are ranked by ``episode_ranking``, which sees their neighbours."""
    parts = [fact_score(r, cfg, at) for r in rows]
    order = sorted(zip(rows, parts, strict=True), key=lambda pair: _rank_key(*pair))
    if limit is not None:
        order = order[:limit]
    return [Scored(row=row, score=score, rank=i) for i, (row, score) in enumerate(order, start=1)]
