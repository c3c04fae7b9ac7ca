"""Read the tables a context call touches into ``shared_buffers`` before measuring.

A server that has been answering for a while holds its working set in
memory; one just started reads every page from the operating system on
first touch, and twenty warm-up queries leave most of a 100,000-row
scope's hnsw graph cold. ``pg_prewarm`` loads the context tables' indexes
first (every call walks them), then their heaps, each whole, as far as
nine tenths of ``shared_buffers`` hold them.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

CONTEXT_TABLES = ("facts", "episode_chunks", "conflict_sets")

# Indexes before heaps, small before large, then by name: what fits first is
# what the most calls read.
RELATIONS = """
SELECT r.oid::regclass::text AS name,
       pg_relation_size(r.oid) / current_setting('block_size')::bigint AS blocks,
       pg_relation_size(r.oid) AS bytes
FROM pg_class r
LEFT JOIN pg_index i ON i.indexrelid = r.oid
WHERE coalesce(i.indrelid, r.oid) = ANY(%s::regclass[])
ORDER BY r.relkind <> 'i', 2, 1"""


@dataclass(frozen=True)
class Prewarmed:
    loaded: list[str]  # relations read into shared_buffers, in order
    skipped: list[str]  # relations the budget left out
    blocks: int  # blocks loaded
    bytes: int  # their size


def prewarm(url: str, budget_blocks: int | None = None) -> Prewarmed:
    """Load the context tables and their indexes (superuser: the extension is
    created if missing); ``budget_blocks`` defaults to 90 % of shared_buffers."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        if budget_blocks is None:
            row = conn.execute(
                "SELECT setting::bigint * 9 / 10 FROM pg_settings WHERE name = 'shared_buffers'"
            ).fetchone()
            budget_blocks = int(row[0]) if row else 0
        loaded: list[str] = []
        skipped: list[str] = []
        used = size = 0
        for name, blocks, nbytes in conn.execute(RELATIONS, (list(CONTEXT_TABLES),)).fetchall():
            if used + blocks > budget_blocks:
                skipped.append(name)
                continue
            conn.execute("SELECT pg_prewarm(%s::regclass)", (name,))
            loaded.append(name)
            used += blocks
            size += nbytes
    return Prewarmed(loaded, skipped, used, size)
