"""Multi-hop expansion: facts sharing a named entity with the facts already packed.

Entities come from a rule, not a model: capitalised words
(``[A-ZÀ-Ý][a-zà-ÿ]{2,}``) in the packed facts' texts, ranked by frequency,
minus stop words (capitalised only because they open a sentence) and
words of the query, both as ``text.lexicon`` cuts them. One full-text hop,
never recursive, with no new embedding call (the distance reuses the query
vector already computed, for the trace only).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from uuid import UUID

import numpy as np
from psycopg.rows import tuple_row

from ..storage import Connection
from ..text.lexicon import STOP_WORDS, normalise, query_words
from .candidates import (
    FACT_COLUMNS,
    FACT_ROW_WIDTH,
    FACT_TRUST,
    FactQuery,
    fact_row,
    fulltext_params,
    space_distance,
)
from .config import RetrievalConfig
from .types import FactRow

_ENTITY = re.compile(r"[A-ZÀ-Ý][a-zà-ÿ]{2,}")
# One lateral full-text lookup per entity, through the same GIN-backed
# function as phase 1 (migrations 0031, 0101, 0106, 0109), then the packaging columns;
# each row carries the matches its entity's lookup scored.
HOP = (
    """
SELECT"""
    + FACT_COLUMNS
    + """,
    """
    + space_distance("f")
    + """ AS distance, t.fulltext, """
    + FACT_TRUST
    + """, e.ord, t.ranked
FROM unnest(%(entities)s::text[]) WITH ORDINALITY AS e(entity, ord)
CROSS JOIN LATERAL context_fact_lexical(
    %(subject_id)s, %(statuses)s, %(at)s, %(bounded)s, %(exclude)b::uuid[],
    ARRAY[lower(e.entity)], %(per_entity)s, %(max_term_matches)s, %(scan_limit)s,
    %(max_postings)s, %(rank_items)s) t
JOIN facts f ON f.id = t.id
ORDER BY e.ord, t.fulltext DESC, f.id"""
)


def entities(texts: Iterable[str], query: str, max_entities: int) -> list[str]:
    """The most frequent capitalised words of ``texts`` not already in the query."""
    in_query = set(query_words(query, len(query)))
    counts = Counter(
        word
        for text in texts
        for word in _ENTITY.findall(text)
        if normalise(word) not in STOP_WORDS and word.lower() not in in_query
    )
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [word for word, _ in ranked[:max_entities]]


@dataclass(frozen=True, slots=True)
class Hop:
    rows: list[FactRow]
    ranked: int  # full-text matches scored, over every entity's lookup


async def hop(
    conn: Connection,
    q: FactQuery,
    vec: np.ndarray,
    names: list[str],
    exclude: Iterable[UUID],
    cfg: RetrievalConfig,
) -> Hop:
    """Up to ``multi_hop_max_per_entity`` facts per entity, each fact once."""
    if not names:
        return Hop([], 0)
    params = (
        q.params()
        | fulltext_params(cfg)
        | {
            "vec": vec,
            "entities": names,
            "exclude": list(exclude),
            "per_entity": cfg.multi_hop_max_per_entity,
            # One entity's lookup ranks fewer matches than the question's.
            "scan_limit": cfg.multi_hop_scan_limit,
        }
    )
    cur = conn.cursor(row_factory=tuple_row)
    await cur.execute(HOP, params)
    seen: set[UUID] = set()
    rows: list[FactRow] = []
    scored: dict[int, int] = {}  # per entity
    for rec in await cur.fetchall():
        entity, ranked = rec[FACT_ROW_WIDTH], rec[FACT_ROW_WIDTH + 1]  # e.ord, t.ranked
        scored[entity] = ranked
        if rec[0] not in seen:
            seen.add(rec[0])
            rows.append(fact_row(rec))
    return Hop(rows, sum(scored.values()))
