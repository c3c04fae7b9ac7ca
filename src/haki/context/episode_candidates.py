"""Episode candidates: cosine top-K UNION full-text top-K, term statistics, neighbours.

The two phase-1 legs mirror the fact retrieval: a GIN top-K through
``context_episode_lexical`` (migrations 0058, 0059, 0100, 0105, 0110; usable under row-level
security), sent while the query is embedded, then an hnsw top-K on the
chunk embeddings. Only the columns the packet needs are selected, plus the
cosine distance computed server-side.

Every statement here has a cap on the rows it touches, whatever the query
and however the scope's text is distributed (``EpisodeWork`` reports the
counts, ``episode_caps`` the bounds; docs/context.md lists them).

Neighbours are the turns just before and after a strong candidate in the
same conversation: an answer ("yes, last Tuesday") rarely shares words or
meaning with the question, but sits next to the turn that does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import numpy as np
from psycopg.rows import tuple_row

from ..storage import Connection
from .candidates import scope_params, space_distance
from .config import RetrievalConfig
from .term_estimates import ESTIMATES, NOTHING_KNOWN, TermEstimates
from .types import EpisodeRow

# A chunk's columns, in ``EpisodeRow``'s order, the distance among them (on
# alias ``c``; the neighbours' are on ``nb``). Rows come back as tuples, read
# by position (``episode_row``), as fact rows are (``candidates.FACT_COLUMNS``).
CHUNK_COLUMNS = (
    "{c}.id, {c}.event_id, {c}.kind AS event_kind, {c}.occurred_at, {c}.text,"
    " {distance} AS distance, {c}.origin_trust, {c}.actor_type, {c}.marks,"
    " {c}.ordinal"
)
# Columns ``episode_row`` reads; a statement's own columns come after them.
CHUNK_ROW_WIDTH = 10

# The full-text leg needs no query vector: it is sent while the query is
# being embedded. Each row also carries the leg's counts (fetched, ranked) and
# the estimated GIN postings of the terms it looked up (migration 0105). The
# leg is handed the term estimates the server works out and, when it read
# the statistics, returns on one row what they come from, with their token
# (migration 0174, ``term_estimates``).
LEXICAL = """
SELECT t.id, t.fetched, t.ranked, t.postings, t.token, t.scope_words, t.scope_freqs, t.scope_rows
FROM context_episode_lexical(
    %(subject_id)s, %(at)s, %(terms)s::text[], %(lex_k)s, %(term_limit)s, %(fetch_limit)s,
    %(term_postings)s, %(postings)s, %(rank_items)s,
    %(token)s::bigint, %(known_terms)s::text[], %(known_estimates)s::integer[]) t
ORDER BY t.id"""

# Id lists are binary parameters (``%(name)b``): psycopg dumps a list of
# UUIDs one id at a time, in binary in a sixth of the time it takes as text
# (``bench/context_micro.py``), and a context call sends a few hundred.
#
# The cosine leg reads a small scope exactly and a large one through hnsw
# (``context_episode_cosine``; candidates.py explains the choice for facts).
# hnsw order is approximate, so the leg has no id tie-break; Python restores
# the total order by score. Each pooled id is looked up on its own, as in
# the fact leg, so that the generic plan reads the pool's rows only.
SEMANTIC = f"""
WITH sem AS MATERIALIZED (
    SELECT id FROM context_episode_cosine(
        %(subject_id)s, %(at)s, %(vec)s, %(k)s, %(exact_rows)s, %(cheap_rows)s, %(hnsw_share)s)
), pool AS (
    SELECT id FROM sem UNION SELECT unnest(%(lex_ids)b::uuid[])
)
SELECT {CHUNK_COLUMNS.format(c="c", distance=space_distance("c"))}
FROM pool CROSS JOIN LATERAL (
    SELECT * FROM episode_chunks c
    WHERE c.id = pool.id AND c.project_id = %(project_id)s AND c.subject_id = %(subject_id)s
    LIMIT 1) c
ORDER BY c.id"""

# Up to ``n`` turns on each side of each anchor, within ``window`` of it (a
# gap longer than that starts another conversation), in chronological order.
NEIGHBOURS = f"""
SELECT {CHUNK_COLUMNS.format(c="nb", distance=space_distance("nb"))}, a.id AS anchor_id, nb.offset_n
FROM episode_chunks a
CROSS JOIN LATERAL (
    SELECT b.*, -row_number() OVER (ORDER BY b.occurred_at DESC, b.event_id DESC, b.ordinal DESC) AS offset_n
    FROM (
        SELECT c.* FROM episode_chunks c
        WHERE c.project_id = a.project_id AND c.subject_id = a.subject_id
          AND (c.occurred_at, c.event_id, c.ordinal) < (a.occurred_at, a.event_id, a.ordinal)
          AND c.occurred_at >= a.occurred_at - %(window)s
        ORDER BY c.occurred_at DESC, c.event_id DESC, c.ordinal DESC
        LIMIT %(n)s
    ) b
    UNION ALL
    SELECT b.*, row_number() OVER (ORDER BY b.occurred_at, b.event_id, b.ordinal) AS offset_n
    FROM (
        SELECT c.* FROM episode_chunks c
        WHERE c.project_id = a.project_id AND c.subject_id = a.subject_id
          AND (c.occurred_at, c.event_id, c.ordinal) > (a.occurred_at, a.event_id, a.ordinal)
          AND c.occurred_at <= least(a.occurred_at + %(window)s, %(at)s)
        ORDER BY c.occurred_at, c.event_id, c.ordinal
        LIMIT %(n)s
    ) b
) nb
WHERE a.id = ANY(%(anchors)b) AND a.project_id = %(project_id)s AND a.subject_id = %(subject_id)s
ORDER BY a.id, nb.offset_n"""


@dataclass(frozen=True, slots=True)
class LexicalHits:
    ids: list[UUID]
    fetched: int  # matches read through the GIN index
    ranked: int  # distinct rows among them, scored by ts_rank_cd
    postings: int = 0  # estimated postings of the terms looked up (their bitmaps' size)


@dataclass(frozen=True, slots=True)
class EpisodeWork:
    """Rows each episode statement and the Python ranking handled in one call."""

    lexical_postings: int = 0  # estimated GIN postings behind the full-text lookups
    lexical_fetched: int = 0
    lexical_ranked: int = 0
    pool: int = 0  # both legs' rows, decoded with their distance
    neighbours: int = 0  # neighbour rows returned
    ranked: int = 0  # rows scored in Python

    def as_dict(self) -> dict[str, int]:
        return {
            "episode_lexical_postings": self.lexical_postings,
            "episode_lexical_fetched": self.lexical_fetched,
            "episode_lexical_ranked": self.lexical_ranked,
            "episode_pool": self.pool,
            "episode_neighbours": self.neighbours,
            "episode_ranked": self.ranked,
        }


def episode_caps(cfg: RetrievalConfig) -> EpisodeWork:
    """The most rows each stage can handle under ``cfg``, by construction:
    the SQL applies every one of these limits itself."""
    lex_k = cfg.episode_candidates if cfg.episode_fulltext else 0
    fetched = cfg.episode_lexical_rows + min(cfg.episode_term_matches, lex_k) if lex_k else 0
    pool = cfg.episode_candidates + lex_k
    neighbours = min(cfg.episode_anchors, pool) * 2 * cfg.episode_neighbours
    return EpisodeWork(
        lexical_postings=cfg.episode_lexical_postings if lex_k else 0,
        lexical_fetched=fetched,
        lexical_ranked=fetched,
        pool=pool,
        neighbours=neighbours,
        ranked=pool + neighbours,
    )


@dataclass(slots=True)
class Neighbour:
    anchor_id: UUID
    offset: int  # turns from the anchor: -2, -1, 1, 2
    row: EpisodeRow


@dataclass(frozen=True, slots=True)
class EpisodeQuery:
    project_id: str
    subject_id: str
    at: datetime

    def params(self) -> dict[str, Any]:
        return {"project_id": self.project_id, "subject_id": self.subject_id, "at": self.at}


def episode_row(rec: Sequence[Any]) -> EpisodeRow:
    """A row of ``CHUNK_COLUMNS``."""
    head = rec[:CHUNK_ROW_WIDTH]
    id_, event_id, kind, occurred_at, text, distance, origin_trust, actor_type, marks, ordinal = (
        head
    )
    return EpisodeRow(
        id_,
        event_id,
        kind,
        occurred_at,
        text,
        distance,
        origin_trust,
        actor_type,
        tuple(marks),
        ordinal,
    )


def lexical_params(
    q: EpisodeQuery,
    terms: Sequence[str],
    cfg: RetrievalConfig,
    estimates: TermEstimates | None = None,
) -> dict[str, Any]:
    """The full-text leg's parameters, with the estimates ``estimates`` can
    work out for ``terms`` (None: the leg estimates every term itself)."""
    known = (
        NOTHING_KNOWN if estimates is None else estimates.known(q.project_id, q.subject_id, terms)
    )
    return (
        known
        | q.params()
        | {
            "terms": list(terms),
            "lex_k": cfg.episode_candidates if cfg.episode_fulltext else 0,
            "term_limit": cfg.episode_term_matches,
            "fetch_limit": cfg.episode_lexical_rows,
            "term_postings": cfg.episode_term_postings,
            "postings": cfg.episode_lexical_postings,
            "rank_items": cfg.episode_rank_items,
        }
    )


async def lexical_ids(
    conn: Connection, q: EpisodeQuery, terms: Sequence[str], cfg: RetrievalConfig
) -> Callable[[], Awaitable[LexicalHits]]:
    """Send the full-text leg now, read it later (it needs no query vector),
    and keep what its term estimates came from (``term_estimates.ESTIMATES``)."""
    cur = await conn.execute(LEXICAL, lexical_params(q, terms, cfg, ESTIMATES))

    async def collect() -> LexicalHits:
        recs = await cur.fetchall()
        for rec in recs:
            if rec["token"] is not None:
                ESTIMATES.learn(
                    q.project_id,
                    q.subject_id,
                    rec["token"],
                    rec["scope_words"],
                    rec["scope_freqs"],
                    rec["scope_rows"],
                )
                break
        first = recs[0] if recs else {"fetched": 0, "ranked": 0, "postings": 0}
        return LexicalHits(
            [rec["id"] for rec in recs], first["fetched"], first["ranked"], first["postings"]
        )

    return collect


async def episode_candidates(
    conn: Connection,
    q: EpisodeQuery,
    vec: np.ndarray,
    lex_ids: Sequence[UUID],
    cfg: RetrievalConfig,
) -> list[EpisodeRow]:
    """The cosine leg, and both legs' rows with their distance to the query."""
    params = (
        q.params()
        | {
            "vec": vec,
            "k": cfg.episode_candidates,
            "lex_ids": list(lex_ids),
        }
        | scope_params(cfg)
    )
    cur = conn.cursor(row_factory=tuple_row)
    await cur.execute(SEMANTIC, params)
    return [episode_row(rec) for rec in await cur.fetchall()]


async def neighbours(
    conn: Connection,
    q: EpisodeQuery,
    vec: np.ndarray,
    anchors: Sequence[UUID],
    cfg: RetrievalConfig,
) -> list[Neighbour]:
    if not anchors or cfg.episode_neighbours < 1:
        return []
    params = q.params() | {
        "vec": vec,
        "anchors": list(anchors),
        "n": cfg.episode_neighbours,
        "window": timedelta(seconds=cfg.episode_weights.session_gap_s),
    }
    cur = conn.cursor(row_factory=tuple_row)
    await cur.execute(NEIGHBOURS, params)
    return [
        # a.id AS anchor_id, nb.offset_n
        Neighbour(rec[CHUNK_ROW_WIDTH], int(rec[CHUNK_ROW_WIDTH + 1]), episode_row(rec))
        for rec in await cur.fetchall()
    ]
