"""Phase 1 is two indexed queries: EXPLAIN shows the hnsw and the GIN index at work."""

from dataclasses import replace
from datetime import UTC, datetime

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from plans import nested_plans

from haki.context.candidates import (
    LEXICAL,
    SEMANTIC,
    FactQuery,
    fulltext_params,
    scope_params,
)
from haki.context.config import DEFAULT
from haki.context.episode_candidates import LEXICAL as EPISODE_LEXICAL
from haki.context.episode_candidates import SEMANTIC as EPISODE_SEMANTIC
from haki.context.episode_candidates import EpisodeQuery, lexical_params
from haki.text.lexicon import query_terms, query_words

WORDS = [f"w{i:04d}" for i in range(2_000)]


def _unit(rng, dims=384):
    v = rng.normal(size=dims).astype(np.float32)
    return v / np.linalg.norm(v)


@pytest.fixture
def bulk(db_url):
    return _load(db_url)[0]


def _load(db_url, dims=384):
    """1,000 facts and chunks over two subjects, with a varied vocabulary, analysed;
    vectors of ``dims`` dimensions, in a space of that size when not 384.

    Written as the table owner: COPY is refused under row-level security.
    """
    rng = np.random.default_rng(7)
    space = None
    with psycopg.connect(db_url, autocommit=True) as owner:
        register_vector(owner)
        if dims != 384:
            space = owner.execute(
                "INSERT INTO embedding_spaces (provider, model, dimensions) "
                "VALUES ('openai', 'm', %s) RETURNING id",
                (dims,),
            ).fetchone()[0]
            owner.execute("SELECT set_config('haki.embedding_space', %s, false)", (str(space),))
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key) "
            "VALUES ('00000000-0000-0000-0000-000000000001', 'proj', 'alice', 'm', now(), '{}', 'h', 'k')"
        )
        with owner.cursor() as cur:
            with cur.copy(
                "COPY facts (project_id, subject_id, predicate, value, status, search_text, "
                "embedding) FROM STDIN"
            ) as copy:
                for i in range(1_000):
                    text = " ".join(rng.choice(WORDS, 6))
                    copy.write_row(
                        (
                            "proj",
                            "alice" if i % 3 else "bob",
                            "note",
                            f'"{text}"',
                            "active",
                            text,
                            _unit(rng, dims),
                        )
                    )
            with cur.copy(
                "COPY episode_chunks (event_id, ordinal, project_id, subject_id, kind, "
                "occurred_at, text, embedding) FROM STDIN"
            ) as copy:
                for i in range(1_000):
                    copy.write_row(
                        (
                            "00000000-0000-0000-0000-000000000001",
                            i,
                            "proj",
                            "alice",
                            "m",
                            "2024-01-01",
                            " ".join(rng.choice(WORDS, 6)),
                            _unit(rng, dims),
                        )
                    )
        owner.execute("ANALYZE facts")
        owner.execute("ANALYZE episode_chunks")
    return _unit(rng, dims), space


# At this size a scope's top-N sort is cheaper than an index scan and the
# planner rightly takes it; these settings assert the query shape can use
# the indexes (operators, casts, row-level security), and the benchmark
# shows the plan at 10,000 rows.
INDEXED = ("enable_seqscan = off", "enable_sort = off")


def _plans(db_url, sql, params, settings=INDEXED):
    return nested_plans(db_url, sql, params, settings)[0]


@pytest.mark.superuser
def test_phase_one_and_episodes_use_their_indexes(db_url, bulk):
    q = FactQuery("proj", "alice", datetime.now(UTC), bounded=False)
    params = (
        q.params()
        | fulltext_params(DEFAULT)
        | {
            "vec": bulk,
            "terms": query_words("what about w0007 and w1234?", 64),
            "top_k": DEFAULT.top_k,
            "lex_ids": [],
            "lex_ranks": [],
            "blocked": [],
        }
        | scope_params(DEFAULT)
    )
    plans = _plans(db_url, LEXICAL, params)
    assert "Bitmap Index Scan on facts_search_vector" in plans, plans
    assert "Seq Scan on facts" not in plans, plans
    # A scope past the exact read's cap (none here) walks hnsw.
    walked = params | scope_params(replace(DEFAULT, exact_scope_rows=0))
    plans = _plans(db_url, SEMANTIC, walked)
    assert "Index Scan using facts_embedding" in plans, plans
    assert "Seq Scan on facts" not in plans, plans

    eq = EpisodeQuery("proj", "alice", datetime.now(UTC))
    terms = query_terms("what about w0007 and w1234?", 64)
    params = (
        lexical_params(eq, terms, DEFAULT)
        | {
            "vec": bulk,
            "k": DEFAULT.episode_candidates,
            "lex_ids": [],
        }
        | scope_params(DEFAULT)
    )
    plans = _plans(db_url, EPISODE_LEXICAL, params)
    assert "Bitmap Index Scan on episode_chunks_scope_lexemes" in plans, plans
    walked = params | scope_params(replace(DEFAULT, exact_scope_rows=0))
    plans = _plans(db_url, EPISODE_SEMANTIC, walked)
    assert "Index Scan using episode_chunks_embedding" in plans, plans


@pytest.mark.superuser
@pytest.mark.parametrize("dims", [768, 1536])
def test_other_sizes_walk_their_own_hnsw_index(db_url, dims):
    """A space of another size than 384 walks the partial hnsw index of its
    size (migration 0170): the statement built for the size names the cast
    and the predicate the index was made with."""
    vec, space = _load(db_url, dims)
    walk = scope_params(replace(DEFAULT, exact_scope_rows=0))
    in_space = (*INDEXED, f"haki.embedding_space = {space}")
    q = FactQuery("proj", "alice", datetime.now(UTC), bounded=False)
    params = (
        q.params()
        | fulltext_params(DEFAULT)
        | {"vec": vec, "terms": [], "top_k": 8, "lex_ids": [], "lex_ranks": [], "blocked": []}
        | walk
    )
    plans, rows = nested_plans(db_url, SEMANTIC, params, in_space)
    assert f"Index Scan using facts_embedding_{dims}" in plans, plans
    assert "Seq Scan on facts" not in plans, plans
    assert rows
    eq = EpisodeQuery("proj", "alice", datetime.now(UTC))
    params = lexical_params(eq, [], DEFAULT) | {"vec": vec, "k": 8, "lex_ids": []} | walk
    plans, rows = nested_plans(db_url, EPISODE_SEMANTIC, params, in_space)
    assert f"Index Scan using episode_chunks_embedding_{dims}" in plans, plans
    assert rows
    # Out of its space the same vector meets no row (and is compared with none).
    _, rows = nested_plans(
        db_url, EPISODE_SEMANTIC, params, (*INDEXED, "haki.embedding_space = 999")
    )
    assert rows == []


@pytest.mark.superuser
def test_episode_lexical_parses_each_term_once_whatever_the_plan(db_url, bulk):
    """Read without the GIN index (a sequential scan, if bitmap scans are
    disabled or the index is missing), the per-term lookup tests `@@` as a
    filter on every row it reads: the term's tsquery must be a value built
    once per call, not a function call evaluated per row (migration 0100)."""
    eq = EpisodeQuery("proj", "alice", datetime.now(UTC))
    terms = query_terms("what about w0007 and w1234 or w0042?", 64)
    # GIN serves only bitmap scans: without them `@@` can only be a filter.
    plans = _plans(
        db_url, EPISODE_LEXICAL, lexical_params(eq, terms, DEFAULT), ("enable_bitmapscan = off",)
    )
    filters = [line for line in plans.splitlines() if "Filter:" in line and "@@" in line]
    assert filters, plans
    assert not [line for line in filters if "context_prefix_query" in line], plans
