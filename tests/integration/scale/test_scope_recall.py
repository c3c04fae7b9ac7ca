"""The cosine leg finds a scope's own nearest rows whatever plan the planner would prefer.

Forty subjects share ten topics, so most of a query's neighbours in the
whole table belong to other subjects. The planner is pushed to the bad plan
(an hnsw walk over the whole table, the scope filtered afterwards, the walk
cut short by ``hnsw.max_scan_tuples``): that plan misses most of the scope's
top-K, and the shipped leg, which reads a small scope exactly, misses none.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

from haki.context.candidates import FactQuery, LexicalLeg, fact_candidates, read_settings
from haki.context.config import DEFAULT, RetrievalConfig
from haki.context.episode_candidates import EpisodeQuery, episode_candidates
from haki.storage import Database

PROJECT = "p-recall"
SUBJECTS = 40
PER_SUBJECT = 30
TOPICS = 10
K = 8
CFG = replace(DEFAULT, top_k=K, episode_candidates=K)
NOW = datetime.now(UTC)

EXACT = {
    "facts": "SELECT id FROM facts WHERE project_id = %s AND subject_id = %s "
    "ORDER BY cosine_distance(embedding, %s), id LIMIT %s",
    "episode_chunks": "SELECT id FROM episode_chunks WHERE project_id = %s AND subject_id = %s "
    "ORDER BY cosine_distance(embedding, %s), id LIMIT %s",
}

# The bad plan, as the planner would take it for a large table: no sort
# (so the hnsw order serves ORDER BY), no scope index, and a short walk.
BAD_PLAN = (
    "SET LOCAL enable_sort = off",
    "SET LOCAL enable_seqscan = off",
    "SET LOCAL enable_bitmapscan = off",
    "SET LOCAL hnsw.max_scan_tuples = 100",
)


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


@pytest.fixture(scope="module")
def scattered(module_db_url):
    """1,200 facts and 1,200 chunks: 40 subjects over 10 topics, written as the owner."""
    rng = np.random.default_rng(3)
    centroids = _unit(rng.normal(size=(TOPICS, 384)))
    n = SUBJECTS * PER_SUBJECT
    vecs = _unit(centroids[np.arange(n) % TOPICS] + rng.normal(scale=0.08, size=(n, 384)))
    subjects = [f"s{i % SUBJECTS:02d}" for i in range(n)]
    events = [uuid.uuid4() for _ in range(n)]
    with psycopg.connect(module_db_url, autocommit=True) as owner:
        register_vector(owner)
        with owner.cursor() as cur:
            with cur.copy(
                "COPY facts (project_id, subject_id, predicate, value, status, search_text, "
                "embedding) FROM STDIN"
            ) as copy:
                for s, v in zip(subjects, vecs, strict=True):
                    copy.write_row((PROJECT, s, "note", '"x"', "active", "x", v))
            with cur.copy(
                "COPY events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
                "idempotency_key) FROM STDIN"
            ) as copy:
                for s, e in zip(subjects, events, strict=True):
                    copy.write_row((e, PROJECT, s, "m", "2024-01-01", "{}", "h", str(e)))
            with cur.copy(
                "COPY episode_chunks (event_id, ordinal, project_id, subject_id, kind, "
                "occurred_at, text, embedding) FROM STDIN"
            ) as copy:
                for s, e, v in zip(subjects, events, vecs, strict=True):
                    copy.write_row((e, 0, PROJECT, s, "m", "2024-01-01", "x", v))
        owner.execute("ANALYZE facts")
        owner.execute("ANALYZE episode_chunks")
    queries = _unit(
        centroids[rng.integers(TOPICS, size=12)] + rng.normal(scale=0.05, size=(12, 384))
    )
    return module_db_url, list(zip([f"s{i * 3:02d}" for i in range(12)], queries, strict=True))


def _exact(url: str, table: str, subject: str, vec: np.ndarray) -> set[uuid.UUID]:
    with psycopg.connect(url) as conn:
        register_vector(conn)
        return {r[0] for r in conn.execute(EXACT[table], (PROJECT, subject, vec, K))}


async def _leg(
    db: Database, table: str, subject: str, vec: np.ndarray, cfg: RetrievalConfig
) -> set:
    """The ids the shipped cosine leg returns (lexical leg empty), under the bad plan."""
    async with db.transaction(project_id=PROJECT, local=read_settings(cfg)) as conn:
        for setting in BAD_PLAN:
            await conn.execute(setting)
        if table == "facts":
            q = FactQuery(PROJECT, subject, NOW, bounded=False)
            found = await fact_candidates(conn, q, vec, [], LexicalLeg([], [], []), cfg)
            return {r.id for r in found.rows}
        rows = await episode_candidates(conn, EpisodeQuery(PROJECT, subject, NOW), vec, [], cfg)
        return {r.id for r in rows}


def _recall(found: list[set], exact: list[set]) -> float:
    return sum(len(f & e) for f, e in zip(found, exact, strict=True)) / sum(map(len, exact))


@pytest.mark.parametrize("table", ["facts", "episode_chunks"])
async def test_cosine_leg_reads_a_small_scope_exactly_under_the_bad_plan(scattered, table):
    url, cases = scattered
    exact = [_exact(url, table, s, v) for s, v in cases]
    assert all(len(e) == K for e in exact)

    db = Database(url, min_size=1, max_size=1)
    await db.open()
    try:
        shipped = [await _leg(db, table, s, v, CFG) for s, v in cases]
        # The same leg made to treat every scope as large goes through hnsw:
        # under the bad plan it loses most of the scope's top-K. This is the
        # plan the exact read avoids, and shows the settings force it.
        large = replace(CFG, exact_scope_rows=0)
        walked = [await _leg(db, table, s, v, large) for s, v in cases]
    finally:
        await db.close()
    assert shipped == exact
    assert _recall(walked, exact) < 0.5


# Scopes of 30 rows above a cheap-read limit of 10: the share of the table
# decides. The table holds 1,200 rows per kind, so a scope is 2.5% of it.
SHARE_CFG = replace(CFG, exact_cheap_rows=10, hnsw_scope_share=0.01)


def _set_reltuples(url: str, table: str, reltuples: float | None) -> None:
    """Make the planner statistics say the table holds ``reltuples`` rows (None: analyse it)."""
    with psycopg.connect(url, autocommit=True) as owner:
        if reltuples is None:
            owner.execute(f"ANALYZE {table}")
        elif reltuples < 0:
            owner.execute("SELECT pg_clear_relation_stats('public', %s)", (table,))
        else:
            owner.execute(
                "SELECT pg_restore_relation_stats('schemaname', 'public', 'relname', %s::text, "
                "'reltuples', %s::real)",
                (table, reltuples),
            )


@pytest.mark.parametrize("table", ["facts", "episode_chunks"])
@pytest.mark.parametrize(
    ("reltuples", "exact_read"),
    [
        (None, False),  # 30 rows are 2.5% of 1,200: hnsw keeps its recall there
        (1_000_000, True),  # 30 of a million: the walk would miss them, read exactly
        (-1, True),  # never analysed: the table's size is unknown, read exactly
    ],
)
async def test_the_share_of_the_table_picks_the_read(scattered, table, reltuples, exact_read):
    url, cases = scattered
    exact = [_exact(url, table, s, v) for s, v in cases]
    _set_reltuples(url, table, reltuples)
    db = Database(url, min_size=1, max_size=1)
    await db.open()
    try:
        found = [await _leg(db, table, s, v, SHARE_CFG) for s, v in cases]
    finally:
        await db.close()
        _set_reltuples(url, table, None)
    # Under the bad plan the hnsw walk loses most of the scope's top-K: which
    # read ran shows in what it found.
    if exact_read:
        assert found == exact
    else:
        assert _recall(found, exact) < 0.5
