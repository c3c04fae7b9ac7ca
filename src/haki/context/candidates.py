"""Phases 1 and 2 of fact retrieval, and the rows the hard filters block.

Hard filters are SQL predicates applied before any score: status, exact
scope, business validity at ``at`` (now, or ``as_of``), and the exclusion of
facts held in an open conflict set. Phase 1 is two indexed top-K queries
(hnsw on cosine distance, GIN on the full-text query); phase 2 computes the
score inputs on their union only. Only the columns packaging needs are
selected: the embedding itself never leaves the server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import numpy as np
from psycopg.rows import tuple_row

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

# A fact's columns, in ``FactRow``'s order; each statement follows them with
# the distance and the full-text score, then its own columns. Rows come back
# as tuples (``fact_row`` reads them by position): a dict per row, built and
# then read by key, cost more than the rest of the row's decoding.
FACT_COLUMNS = """
    f.id, f.predicate, f.value::text AS value_json, f.confidence, f.valid_from, f.recorded_from,
    f.last_reinforced_at, f.source_event_ids, f.fact_kind, f.volatility, f.search_text"""
# After the distance and the full-text score: the trust, then the grain of
# ``valid_from`` (``types.VALID_FROM_GRAIN``).
FACT_TRUST = "f.origin_trust, f.qualifiers ->> 'valid_from_grain' AS grain"
# Columns ``fact_row`` reads; a statement's own columns come after them.
FACT_ROW_WIDTH = 15


def read_settings(cfg: RetrievalConfig) -> dict[str, str]:
    """Server settings of a context read transaction (``Database.transaction(local=...)``).

    hnsw returns at most ef_search rows per scan; the iterative scan keeps
    scanning until a filtered top-K is complete instead of returning fewer.
    No parallel workers: a context call's statements each touch a few hundred
    rows, and a Gather starts its workers even under a branch whose one-time
    filter is false (the exact cosine branch of a large scope, when it was a
    CTE of phase 2), which cost 17 ms of a 20 ms statement on a 100,000-row
    scope.

    Generic plans: the statements of a context read have one plan whatever
    the call (the cosine branch is chosen at run time inside its function;
    phase 2 and the multi-hop look rows up by primary key, the neighbours
    walk the scope index), so the plan cache plans each once per connection
    instead of on every call (0.5-0.6 ms of PostgreSQL time for each cosine
    leg, when it was one statement). A generic plan cannot know how large
    the subject is, so no sequential scans: a table is reached through an
    index on its scope, its ids or its terms, the plan for a small subject
    beside a large one. The full-text functions keep the plan cache's own
    choice for their bodies (migration 0111).
    """
    return {
        "hnsw.ef_search": str(cfg.hnsw_ef_search),
        "hnsw.iterative_scan": "relaxed_order",
        "max_parallel_workers_per_gather": "0",
        "plan_cache_mode": "force_generic_plan",
        "enable_seqscan": "off",
    }


# Phase 1 runs as two statements so that the half that needs no query vector
# overlaps the embedding of the query:
#
# LEXICAL (sent while the query is being embedded): the ids held by open
# conflict sets, and the full-text top-K through context_fact_lexical
# (migrations 0031, 0101, 0106), which applies the hard filters itself and keeps
# blocked facts out (under row-level security a plain `@@` predicate cannot
# use the GIN index), and says how many matches it scored and the estimated
# matches of the terms it kept.
LEXICAL = """
WITH blocked AS MATERIALIZED (
    SELECT DISTINCT unnest(c.fact_ids) AS id FROM conflict_sets c
    WHERE c.project_id = %(project_id)s AND c.subject_id = %(subject_id)s AND c.status = 'open'
)
SELECT t.id, t.fulltext, false AS blocked, t.ranked, t.postings FROM context_fact_lexical(
    %(subject_id)s, %(statuses)s, %(at)s, %(bounded)s, ARRAY(SELECT id FROM blocked),
    %(terms)s::text[], %(top_k)s, %(max_term_matches)s, %(scan_limit)s, %(max_postings)s,
    %(rank_items)s) t
UNION ALL
SELECT id, NULL, true, NULL, NULL FROM blocked
ORDER BY 3, 1"""

# The cosine top-K of one scope, chosen by the scope's size, not by the
# planner (``context_fact_cosine`` and ``context_episode_cosine``, migration
# 0111). The hnsw index covers the whole table and the scope filter applies
# to what it returns: with many subjects most of a query's neighbours belong
# to someone else, and a scan that gives up after ``hnsw.max_scan_tuples``
# misses the scope's own nearest rows (recall 0.35 at 100,000 facts over
# 1,000 subjects, docs/scaling.md). Through hnsw a scope keeps its recall
# while the walk meets top-K of its rows within ``hnsw.max_scan_tuples``
# (20,000): a scope of >= 0.3% of the table. So a scope is read exactly
# (``cosine_distance()`` is the same distance as ``<=>``, but no index can
# serve it as an order, so this branch always reads the scope's rows and
# sorts them) when it has at most ``exact_rows`` rows and either at most
# ``cheap_rows`` rows or less than ``hnsw_share`` of the table
# (``pg_class.reltuples``; unknown before the first analyze: exact). That
# is: at most ``cap`` = min(exact_rows, max(cheap_rows, ceil(hnsw_share x
# reltuples) - 1)) rows, so the count stops at cap + 1: in a table of under
# 100,000 rows it reads at most 1,001 of the scope's, not 10,001 (3.4 ms of
# a 5.5 ms statement on a 7,000-turn scope). Any other scope walks hnsw with
# its iterative scan (read_settings), whatever the planner estimates: when
# the leg was one statement, its generic plan, made for the table's average
# subject, read a large subject among many whole and sorted it on every
# call (119 ms at 50,000 facts). Each function counts once and runs one
# branch, each branch with a single plan, so the functions and the
# statements calling them run on generic plans.


def space_distance(alias: str) -> str:
    """The cosine distance of a row to the query, NULL when the row's vector
    is of another embedding space than the query's (migration 0120): two
    models' vectors are never compared."""
    return (
        f"CASE WHEN coalesce({alias}.embedding_space, 1::smallint) = context_embedding_space()"
        f" THEN ({alias}.embedding <=> %(vec)s)::float8 END"
    )


def scope_params(cfg: RetrievalConfig) -> dict[str, Any]:
    """The parameters the cosine functions read to choose their branch."""
    return {
        "exact_rows": cfg.exact_scope_rows,
        "cheap_rows": cfg.exact_cheap_rows,
        "hnsw_share": cfg.hnsw_scope_share,
    }


# SEMANTIC (once the vector is known): the cosine top-K (blocked facts kept
# out), then phase 2 computes the score inputs on the union of both legs and
# the blocked ids (at most 2 x top_k rows plus the blocked) and re-applies
# the hard filters, which is what makes a blocked row "one that would be a
# candidate". Through hnsw the cosine order is approximate, so it has no id
# tie-break: the total order is restored in Python after scoring. A row's
# full-text score is its rank from the lexical leg; a row outside that
# top-K counts 0, which understates it by at most the K-th rank. Each
# pooled id is looked up on its own (a lateral lookup by primary key): the
# generic plan (read_settings) cannot size the pool, and joined it took the
# pool for a tenth of the table and hashed a scan of it. Id lists are binary
# parameters (``%(name)b``, as in episode_candidates).
SEMANTIC = (
    """
WITH sem AS MATERIALIZED (
    SELECT id FROM context_fact_cosine(
        %(subject_id)s, %(statuses)s, %(at)s, %(bounded)s, %(blocked)b::uuid[], %(vec)s,
        %(top_k)s, %(exact_rows)s, %(cheap_rows)s, %(hnsw_share)s)
), lex AS (
    SELECT * FROM unnest(%(lex_ids)b::uuid[], %(lex_ranks)s::float8[]) AS l(id, fulltext)
), pool AS (
    SELECT id, false AS blocked FROM sem
    UNION SELECT id, false FROM lex
    UNION SELECT unnest(%(blocked)b::uuid[]), true
)
SELECT"""
    + FACT_COLUMNS
    + """,
    CASE WHEN pool.blocked THEN NULL ELSE """
    + space_distance("f")
    + """ END AS distance,
    coalesce(lex.fulltext, 0)::float8 AS fulltext, """
    + FACT_TRUST
    + """, pool.blocked
FROM pool CROSS JOIN LATERAL (
    SELECT * FROM facts f WHERE f.id = pool.id AND"""
    + ELIGIBLE
    + """
    LIMIT 1) f
LEFT JOIN lex ON lex.id = pool.id
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


def fact_row(rec: Sequence[Any]) -> FactRow:
    """A row of ``FACT_COLUMNS``, the distance, the full-text score and ``FACT_TRUST``."""
    (
        id_,
        predicate,
        value_json,
        confidence,
        valid_from,
        recorded_from,
        last_reinforced_at,
        source_event_ids,
        fact_kind,
        volatility,
        search_text,
        distance,
        fulltext,
        origin_trust,
        grain,
    ) = rec[:FACT_ROW_WIDTH]
    return FactRow(
        id_,
        predicate,
        value_json,
        float(confidence),
        valid_from,
        recorded_from,
        last_reinforced_at,
        tuple(source_event_ids or ()),
        fact_kind,
        volatility,
        search_text,
        distance,
        float(fulltext or 0.0),
        origin_trust,
        grain,
    )


@dataclass(frozen=True, slots=True)
class Candidates:
    rows: list[FactRow]  # phase-1 union, with score inputs
    blocked: list[FactRow]  # would be candidates, but held by an open conflict set


@dataclass(frozen=True, slots=True)
class FactWork:
    """Rows each fact statement handled in one call (``fact_caps``: their bounds)."""

    lexical_postings: int = 0  # estimated GIN matches of the terms the full-text leg kept
    lexical_ranked: int = 0  # full-text matches scored by ts_rank_cd
    pool: int = 0  # phase 2: both legs' rows, decoded with their score inputs
    hop_entities: int = 0  # entities the multi-hop looked up
    hop_ranked: int = 0  # full-text matches the multi-hop scored, over its entities
    hop_rows: int = 0  # facts the multi-hop brought back

    def as_dict(self) -> dict[str, int]:
        return {
            "fact_lexical_postings": self.lexical_postings,
            "fact_lexical_ranked": self.lexical_ranked,
            "fact_pool": self.pool,
            "hop_entities": self.hop_entities,
            "hop_ranked": self.hop_ranked,
            "hop_rows": self.hop_rows,
        }


def fact_caps(cfg: RetrievalConfig) -> FactWork:
    """The most rows each fact step can handle under ``cfg``, by construction
    (the SQL and ``multihop`` apply every one of these limits themselves).
    Not counted here: the facts held by open conflict sets, which phase 2
    decodes besides the pool for the trace (the packet's ``blocked``); a
    conflict set is resolved, not truncated."""
    entities = cfg.multi_hop_max_entities
    return FactWork(
        lexical_postings=cfg.fulltext_max_postings,
        lexical_ranked=cfg.fulltext_scan_limit,
        pool=2 * cfg.top_k,
        hop_entities=entities,
        hop_ranked=entities * cfg.multi_hop_scan_limit,
        hop_rows=entities * cfg.multi_hop_max_per_entity,
    )


def fulltext_params(cfg: RetrievalConfig) -> dict[str, Any]:
    return {
        "max_term_matches": cfg.fulltext_max_term_matches,
        "scan_limit": cfg.fulltext_scan_limit,
        "max_postings": cfg.fulltext_max_postings,
        "rank_items": cfg.fulltext_rank_items,
    }


@dataclass(frozen=True, slots=True)
class LexicalLeg:
    """What the lexical statement found: full-text ids with their rank, and blocked ids."""

    ids: list[UUID]
    ranks: list[float]
    blocked: list[UUID]
    ranked: int = 0  # full-text matches scored
    postings: int = 0  # estimated matches of the terms kept

    @classmethod
    def of(cls, records: Iterable[dict[str, Any]]) -> LexicalLeg:
        """From the lexical statement's rows (``id``, ``fulltext``, ``blocked``,
        ``ranked``, ``postings``)."""
        ids: list[UUID] = []
        ranks: list[float] = []
        blocked: list[UUID] = []
        ranked = postings = 0
        for rec in records:
            if rec["blocked"]:
                blocked.append(rec["id"])
            else:
                ids.append(rec["id"])
                ranks.append(float(rec["fulltext"]))
                ranked, postings = rec["ranked"], rec["postings"]
        return cls(ids, ranks, blocked, ranked, postings)

    def params(self) -> dict[str, Any]:
        return {"lex_ids": self.ids, "lex_ranks": self.ranks, "blocked": self.blocked}


def _params(q: FactQuery, terms: list[str], cfg: RetrievalConfig) -> dict[str, Any]:
    return (
        q.params() | fulltext_params(cfg) | scope_params(cfg) | {"terms": terms, "top_k": cfg.top_k}
    )


async def lexical_leg(
    conn: Connection, q: FactQuery, terms: list[str], cfg: RetrievalConfig
) -> Callable[[], Awaitable[LexicalLeg]]:
    """Send the lexical statement now, read it later (it needs no query vector)."""
    cur = await conn.execute(LEXICAL, _params(q, terms, cfg))

    async def collect() -> LexicalLeg:
        return LexicalLeg.of(await cur.fetchall())

    return collect


async def fact_candidates(
    conn: Connection,
    q: FactQuery,
    vec: np.ndarray,
    terms: list[str],
    lexical: LexicalLeg,
    cfg: RetrievalConfig,
) -> Candidates:
    """Phase 1's hnsw leg and phase 2 on the union with the lexical leg."""
    cur = conn.cursor(row_factory=tuple_row)
    await cur.execute(SEMANTIC, _params(q, terms, cfg) | lexical.params() | {"vec": vec})
    rows: list[FactRow] = []
    blocked: list[FactRow] = []
    for rec in await cur.fetchall():
        (blocked if rec[FACT_ROW_WIDTH] else rows).append(fact_row(rec))  # pool.blocked
    return Candidates(rows, blocked)
