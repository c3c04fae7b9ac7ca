"""Phases 1 and 2 of fact retrieval, and the rows the hard filters block.

Hard filters are SQL predicates applied before any score: status, exact
scope, business validity at ``at`` (now, or ``as_of``), and the exclusion of
facts held in an open conflict set. Phase 1 is two indexed top-K queries
(hnsw on cosine distance, GIN on the full-text query); phase 2 computes the
score inputs on their union only. Only the columns packaging needs are
selected: the embedding itself never leaves the server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from ..storage import Connection
from .config import RetrievalConfig
from .types import FactRow

# Shared by every fact query: the hard filters, on alias ``f``. With ``as_of``
# (bounded = true) a superseded fact that was still valid then is servable,
# and a fact that had not yet started is not.
ELIGIBLE = """
    f.project_id = %(project_id)s AND f.subject_id = %(subject_id)s
    AND f.status = ANY(%(statuses)s)
    AND (f.valid_to IS NULL OR f.valid_to > %(at)s)
    AND (NOT %(bounded)s OR coalesce(f.valid_from, f.recorded_from) <= %(at)s)"""

FACT_COLUMNS = """
    f.id, f.predicate, f.value, f.confidence, f.valid_from, f.recorded_from,
    f.last_reinforced_at, f.source_event_ids, f.fact_kind, f.volatility, f.search_text"""

# hnsw returns at most ef_search rows per scan; the iterative scan keeps
# scanning until a filtered top-K is complete instead of returning fewer.
TUNE_HNSW = """
SELECT set_config('hnsw.ef_search', %(ef_search)s, true),
       set_config('hnsw.iterative_scan', 'relaxed_order', true)"""

# One statement for phase 1 + 2 and the blocked rows. Facts of an open
# conflict set are kept out of both phase-1 legs, then returned flagged
# ``blocked`` so the trace can name them. The two legs are MATERIALIZED so
# each runs as its own indexed top-K; the final select computes the score
# inputs on their union only (at most 2 × top_k rows) and re-applies the hard
# filters, which is what makes a blocked row "one that would be a candidate".
# hnsw order is approximate, so its leg has no id tie-break: the total order
# is restored in Python after scoring. The full-text leg goes through
# context_fulltext_ids (migration 0031), which applies the same hard filters:
# under row-level security a plain `@@` predicate cannot use the GIN index.
# A row's full-text score is its rank from that leg; a row outside the leg's
# top-K counts 0, which understates it by at most the K-th rank.
CANDIDATES = (
    """
WITH blocked AS MATERIALIZED (
    SELECT DISTINCT unnest(c.fact_ids) AS id FROM conflict_sets c
    WHERE c.project_id = %(project_id)s AND c.subject_id = %(subject_id)s AND c.status = 'open'
), sem AS MATERIALIZED (
    SELECT f.id FROM facts f
    WHERE"""
    + ELIGIBLE
    + """ AND f.id <> ALL(ARRAY(SELECT id FROM blocked))
    ORDER BY f.embedding <=> %(vec)s
    LIMIT %(top_k)s
), lex AS MATERIALIZED (
    SELECT t.id, t.fulltext FROM context_fulltext_ids(
        %(subject_id)s, %(statuses)s, %(at)s, %(bounded)s, ARRAY(SELECT id FROM blocked),
        %(terms)s::text[], %(top_k)s, %(max_term_matches)s, %(scan_limit)s) t
), pool AS (
    SELECT id, false AS blocked FROM sem
    UNION SELECT id, false FROM lex
    UNION SELECT id, true FROM blocked
)
SELECT"""
    + FACT_COLUMNS
    + """, pool.blocked,
    CASE WHEN pool.blocked THEN NULL ELSE (f.embedding <=> %(vec)s)::float8 END AS distance,
    coalesce(lex.fulltext, 0)::float8 AS fulltext
FROM pool JOIN facts f ON f.id = pool.id
LEFT JOIN lex ON lex.id = pool.id
WHERE"""
    + ELIGIBLE
    + """
ORDER BY f.id"""
)


@dataclass(frozen=True, slots=True)
class FactQuery:
    project_id: str
    subject_id: str
    at: datetime
    bounded: bool  # True when ``at`` is a client's as_of

    def params(self) -> dict[str, Any]:
        statuses = ["active", "superseded"] if self.bounded else ["active"]
        return {
            "project_id": self.project_id,
            "subject_id": self.subject_id,
            "at": self.at,
            "bounded": self.bounded,
            "statuses": statuses,
        }


def fact_row(rec: dict[str, Any]) -> FactRow:
    return FactRow(
        id=rec["id"],
        predicate=rec["predicate"],
        value=rec["value"],
        confidence=float(rec["confidence"]),
        valid_from=rec["valid_from"],
        recorded_from=rec["recorded_from"],
        last_reinforced_at=rec["last_reinforced_at"],
        source_event_ids=tuple(rec["source_event_ids"] or ()),
        fact_kind=rec["fact_kind"],
        volatility=rec["volatility"],
        search_text=rec["search_text"],
        distance=rec["distance"],
        fulltext=float(rec["fulltext"] or 0.0),
    )


async def tune_hnsw(conn: Connection, cfg: RetrievalConfig) -> None:
    await conn.execute(TUNE_HNSW, {"ef_search": str(cfg.hnsw_ef_search)})


@dataclass(frozen=True, slots=True)
class Candidates:
    rows: list[FactRow]  # phase-1 union, with score inputs
    blocked: list[FactRow]  # would be candidates, but held by an open conflict set


def fulltext_params(cfg: RetrievalConfig) -> dict[str, Any]:
    return {"max_term_matches": cfg.fulltext_max_term_matches, "scan_limit": cfg.fulltext_scan_limit}


async def fact_candidates(
    conn: Connection, q: FactQuery, vec: np.ndarray, terms: list[str], cfg: RetrievalConfig
) -> Callable[[], Awaitable[Candidates]]:
    """Send the query now, read it later: inside a pipeline, several stages share one round trip."""
    params = q.params() | fulltext_params(cfg) | {"vec": vec, "terms": terms, "top_k": cfg.top_k}
    cur = await conn.execute(CANDIDATES, params)

    async def collect() -> Candidates:
        rows: list[FactRow] = []
        blocked: list[FactRow] = []
        for rec in await cur.fetchall():
            (blocked if rec["blocked"] else rows).append(fact_row(rec))
        return Candidates(rows, blocked)

    return collect
