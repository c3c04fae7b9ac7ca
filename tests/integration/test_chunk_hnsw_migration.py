"""Migration 0172: the episode chunks' hnsw indexes are built with m 12 and
ef_construction 32, on a fresh database and on one that already holds chunks."""

import uuid

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from haki.providers.embedders import INDEXED_DIMENSIONS
from haki.storage.migrate import available, upgrade

HNSW_INDEXES = """
SELECT c.relname, coalesce(c.reloptions, '{}') AS options, pg_get_indexdef(c.oid) AS def
FROM pg_class c JOIN pg_am am ON am.oid = c.relam JOIN pg_index x ON x.indexrelid = c.oid
WHERE am.amname = 'hnsw' AND x.indrelid = %s::regclass
ORDER BY c.relname"""

EVENT = """
INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key)
VALUES (%s, 'p', 's', 'conversation.message', now(), '{}', %s, %s)"""
CHUNK = """
INSERT INTO episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text, embedding)
VALUES (%s, 0, 'p', 's', 'conversation.message', now(), %s, %s)"""


def _indexes(conn: psycopg.Connection, table: str) -> dict[str, tuple[list[str], str]]:
    return {r[0]: (sorted(r[1]), r[2]) for r in conn.execute(HNSW_INDEXES, (table,))}


def _name(table: str, size: int) -> str:
    return f"{table}_embedding" + ("" if size == 384 else f"_{size}")


def test_fresh_database_builds_chunk_indexes_light_and_facts_default(db_url):
    with psycopg.connect(db_url) as conn:
        chunks = _indexes(conn, "episode_chunks")
        facts = _indexes(conn, "facts")
    assert set(chunks) == {_name("episode_chunks", s) for s in INDEXED_DIMENSIONS}
    for name, (options, definition) in chunks.items():
        assert options == ["ef_construction=32", "m=12"], name
        size = name.rsplit("_", 1)[1] if name[-1].isdigit() else "384"
        assert f"vector({size})" in definition and f"= {size})" in definition
    assert set(facts) == {_name("facts", s) for s in INDEXED_DIMENSIONS}
    assert all(options == [] for options, _ in facts.values())


def test_populated_database_keeps_its_chunks_findable_through_the_rebuilt_index(db_url):
    version = next(m.version for m in available() if m.name == "episode_chunks_hnsw_lighter")
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((300, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1)[:, None]
    wide = rng.standard_normal((20, 768)).astype(np.float32)
    with psycopg.connect(db_url, autocommit=True) as conn:
        register_vector(conn)
        # Back to the indexes as 0170 built them, the migration unapplied.
        for size in INDEXED_DIMENSIONS:
            name = _name("episode_chunks", size)
            conn.execute(f"DROP INDEX {name}")
            conn.execute(
                f"CREATE INDEX {name} ON episode_chunks USING hnsw "
                f"((embedding::vector({size})) vector_cosine_ops) "
                f"WHERE vector_dims(embedding) = {size}"
            )
        conn.execute("DELETE FROM schema_migrations WHERE version = %s", (version,))
        assert all(o == [] for o, _ in _indexes(conn, "episode_chunks").values())
        ids = [uuid.uuid4() for _ in range(len(vectors) + len(wide))]
        conn.cursor().executemany(EVENT, [(i, f"sha256:{i.hex}", i.hex) for i in ids])
        # The stamp trigger checks a vector's size against its space's:
        # the 768-d rows are written with the check off, as rows of another
        # space would be, since only the index's handling of them matters.
        conn.execute("ALTER TABLE episode_chunks DISABLE TRIGGER episode_chunks_embedding_space")
        conn.cursor().executemany(
            CHUNK,
            [
                (i, f"turn {k}", v)
                for k, (i, v) in enumerate(zip(ids, [*vectors, *wide], strict=True))
            ],
        )
        conn.execute("ALTER TABLE episode_chunks ENABLE TRIGGER episode_chunks_embedding_space")

        applied = upgrade(db_url)

        assert [m.version for m in applied] == [version]
        chunks = _indexes(conn, "episode_chunks")
        assert len(chunks) == len(INDEXED_DIMENSIONS)
        assert all(o == ["ef_construction=32", "m=12"] for o, _ in chunks.values())
        assert conn.execute("SELECT count(*) FROM episode_chunks").fetchone()[0] == 320
        # Each size's rows are reached through its rebuilt index: a row asked
        # for by its own vector comes first.
        conn.execute("SET enable_seqscan = off")
        for size, probe, event_id in ((384, vectors[42], ids[42]), (768, wide[3], ids[303])):
            sql = (
                f"SELECT event_id FROM episode_chunks WHERE vector_dims(embedding) = {size} "
                f"ORDER BY embedding::vector({size}) <=> %s::vector({size}) LIMIT 1"
            )
            plan = "\n".join(r[0] for r in conn.execute(f"EXPLAIN {sql}", (probe,)))
            assert _name("episode_chunks", size) in plan
            assert conn.execute(sql, (probe,)).fetchone()[0] == event_id
