"""Context reads run on generic plans (``read_settings``, migration 0111), made once for any subject.

A generic plan sizes every scope at the table's average subject. One large
subject beside many small ones is where that goes wrong: planned for a few
dozen rows, the large subject's cosine leg would read its whole scope and
sort it on every call, and a small subject's leg could read the table.
Each statement here runs the way a pooled connection runs it after its
first calls; the tests check both subjects' plans, and that the rows are
the exact top-K of a small scope and the hnsw walk's top-K of the large one.
"""

from datetime import UTC, datetime, timedelta

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from plans import nested_plans

from haki.context.candidates import SEMANTIC, FactQuery, fulltext_params, scope_params
from haki.context.config import DEFAULT
from haki.context.episode_candidates import NEIGHBOURS, EpisodeQuery
from haki.context.episode_candidates import SEMANTIC as EPISODE_SEMANTIC
from haki.context.multihop import HOP
from seeding import copy_rows

PROJECT = "proj"
LARGE = "big"
LARGE_ROWS = 2_400  # past exact_cheap_rows and 1 % of the table: walks hnsw
SMALL_SUBJECTS, SMALL_ROWS = 150, 8  # read exactly
SMALL = "s007"
START = datetime(2026, 1, 1, tzinfo=UTC)
EVENT = "00000000-0000-0000-0000-000000000111"
TABLES = {"facts": "facts", "episodes": "episode_chunks"}
# The btree indexes that lead with (project_id, subject_id).
SCOPE_INDEXES = {
    "facts": ("facts_scope_status", "facts_identity"),
    "episode_chunks": ("episode_chunks_scope",),
}


def _actual_rows(line: str) -> float:
    """The rows a plan node returned, per loop (EXPLAIN ANALYZE's ``actual ... rows=``)."""
    return float(line.split("actual ")[1].split("rows=")[1].split()[0])


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.normal(size=(n, 384)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _place(subject: str) -> str:
    """A word of the small subject's facts alone, which the multi-hop can look up."""
    return "porto" if subject == SMALL else "lisbon"


@pytest.fixture(scope="module")
def skewed(module_db_url: str) -> np.ndarray:
    """Facts and turns of one large and 150 small subjects, analysed; a query vector."""
    rng = np.random.default_rng(11)
    small = [f"s{i:03d}" for i in range(SMALL_SUBJECTS) for _ in range(SMALL_ROWS)]
    subjects = [LARGE] * LARGE_ROWS + small
    vectors = _unit(rng, len(subjects))
    facts = [
        (PROJECT, s, "note", f'"note {i}"', "active", f"note {i} {_place(s)}", START, START, v)
        for i, (s, v) in enumerate(zip(subjects, vectors, strict=True))
    ]
    columns = (
        "project_id", "subject_id", "predicate", "value", "status", "search_text",
        "valid_from", "recorded_from", "embedding",
    )  # fmt: skip
    copy_rows(module_db_url, "facts", columns, facts)
    with psycopg.connect(module_db_url, autocommit=True) as owner:
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
            "idempotency_key) VALUES (%s, %s, %s, 'm', %s, '{}', 'h', 'k')",
            (EVENT, PROJECT, LARGE, START),
        )
    turns = [
        (EVENT, i, PROJECT, s, "m", START + timedelta(minutes=i), f"turn {i}", v)
        for i, (s, v) in enumerate(zip(subjects, vectors, strict=True))
    ]
    columns = (
        "event_id", "ordinal", "project_id", "subject_id", "kind", "occurred_at", "text",
        "embedding",
    )  # fmt: skip
    copy_rows(module_db_url, "episode_chunks", columns, turns)
    return _unit(rng, 1)[0]


def _params(kind: str, subject: str, vec: np.ndarray) -> dict:
    if kind == "facts":
        q = FactQuery(PROJECT, subject, START + timedelta(days=1), bounded=False)
        return (
            q.params()
            | fulltext_params(DEFAULT)
            | scope_params(DEFAULT)
            | {"vec": vec, "top_k": DEFAULT.top_k, "lex_ids": [], "lex_ranks": [], "blocked": []}
        )
    eq = EpisodeQuery(PROJECT, subject, START + timedelta(days=30))
    return (
        eq.params()
        | scope_params(DEFAULT)
        | {"vec": vec, "k": DEFAULT.episode_candidates, "lex_ids": []}
    )


def _top(db_url: str, table: str, subject: str, vec: np.ndarray, order: str) -> set:
    """The scope's top-K by ``order``: the exact distance, or the hnsw walk as
    served (with sorts ruled out, the walk is the only plan)."""
    with psycopg.connect(db_url) as conn, conn.transaction():
        register_vector(conn)
        conn.execute(
            "SELECT set_config('hnsw.ef_search', %s, true)", (str(DEFAULT.hnsw_ef_search),)
        )
        conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        if "<=>" in order:
            conn.execute("SET LOCAL enable_sort = off")
        rows = conn.execute(
            f"SELECT id FROM {table} WHERE project_id = %s AND subject_id = %s "
            f"AND vector_dims(embedding) = 384 ORDER BY {order} LIMIT %s",
            (PROJECT, subject, vec, DEFAULT.top_k),
        )
        return {r[0] for r in rows}


@pytest.mark.superuser
@pytest.mark.parametrize("kind", ["facts", "episodes"])
def test_the_large_subject_walks_hnsw_and_a_small_one_reads_its_scope(module_db_url, skewed, kind):
    table = TABLES[kind]
    statement = SEMANTIC if kind == "facts" else EPISODE_SEMANTIC

    plans, rows = nested_plans(module_db_url, statement, _params(kind, LARGE, skewed))
    assert "subject_id = $" in plans, plans  # generic: the subject is a parameter
    assert f"Index Scan using {table}_embedding" in plans, plans
    assert f"Bitmap Heap Scan on {table}" not in plans, plans  # the scope read whole
    assert f"Seq Scan on {table}" not in plans, plans
    assert "Hash Join" not in plans, plans
    assert f"Index Scan using {table}_pkey" in plans, plans  # each pooled id, by key
    # The expression the 384-d partial index is on (migration 0170).
    walked = _top(module_db_url, table, LARGE, skewed, "embedding::vector(384) <=> %s")
    assert {r[0] for r in rows} == walked and len(walked) == DEFAULT.top_k

    plans, rows = nested_plans(module_db_url, statement, _params(kind, SMALL, skewed))
    assert f"Seq Scan on {table}" not in plans, plans
    assert f"Index Scan using {table}_embedding" not in plans, plans
    assert "Hash Join" not in plans, plans
    # The count and the exact read go through an index on the scope, and
    # read the small scope's rows only.
    scans = [line for line in plans.splitlines() if f" on {table} " in line]
    scoped = [line for line in scans if any(f"using {i} " in line for i in SCOPE_INDEXES[table])]
    assert len(scoped) >= 2 and all(_actual_rows(line) <= SMALL_ROWS for line in scans), plans
    exact = _top(module_db_url, table, SMALL, skewed, "cosine_distance(embedding, %s), id")
    assert {r[0] for r in rows} == exact and len(exact) == SMALL_ROWS


@pytest.mark.superuser
def test_multi_hop_and_neighbours_look_rows_up_by_key(module_db_url, skewed):
    params = _params("facts", SMALL, skewed) | {
        "entities": ["Porto"],
        "exclude": [],
        "per_entity": DEFAULT.multi_hop_max_per_entity,
        "scan_limit": DEFAULT.multi_hop_scan_limit,
    }
    plans, rows = nested_plans(module_db_url, HOP, params)
    assert "Seq Scan on facts" not in plans, plans
    assert "Index Scan using facts_pkey" in plans, plans
    assert len(rows) == DEFAULT.multi_hop_max_per_entity

    with psycopg.connect(module_db_url) as conn:
        anchors = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM episode_chunks WHERE subject_id = %s ORDER BY ordinal LIMIT 3",
                (SMALL,),
            )
        ]
    params = _params("episodes", SMALL, skewed) | {
        "anchors": anchors,
        "n": DEFAULT.episode_neighbours,
        "window": timedelta(hours=6),
    }
    plans, rows = nested_plans(module_db_url, NEIGHBOURS, params)
    assert "Seq Scan on episode_chunks" not in plans, plans
    assert "using episode_chunks_scope on episode_chunks" in plans, plans
    # Two turns after each anchor; before them, none, one and two.
    assert len(rows) == 2 + 3 + 4
