"""What PostgreSQL spends to insert episode chunks, index by index.

    .venv/bin/python bench/chunk_insert_cost.py [--rows 1000]
    .venv/bin/python bench/chunk_insert_cost.py --index 16:64 --index 16:32 \
        [--vectors local|random] [--warm 3000] [--rows 1000] [--queries 300]

In a throwaway embedded database at the current schema: inserts ``--rows``
chunks (short synthetic turns, random unit vectors) with every index, then
again without the HNSW index on ``embedding``, then without the per-scope
GIN index as well; prints the CPU the PostgreSQL processes used for each
(``_cpu.py``, from ``/proc``), which other load on the machine changes far
less than wall time. The first pass warms the table up and is printed too.

With ``--index M:EF`` (repeatable) it compares hnsw builds instead: for each,
the chunks are emptied, the 384-d index is recreated ``WITH (m = M,
ef_construction = EF)``, ``--warm`` chunks are inserted untimed, a
checkpoint is taken (so every build pays the same full-page writes), and
``--rows`` more are timed in one transaction. Then ``--queries`` other turns
ask the index for their 10 nearest chunks (``hnsw.ef_search`` 100, the
context's setting) and the answer is compared with the exact top 10: the
recall of the walk the context's cosine leg takes on a large scope, and the
time to rebuild the index over the table (what a migration pays).
``--vectors local`` (the default there) embeds the short turns with the
shipped embedder: real vectors cluster, random ones do not, and the graph's
cost follows its neighbourhoods.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parent))
import short_turns
from _cpu import postmaster_pid, tree_cpu_ms
from haki.storage.embedded import start_embedded
from haki.storage.migrate import upgrade

EVENT = """
INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key)
VALUES (%s, 'p', 's', 'conversation.message', now(), '{}', %s, %s)"""
CHUNK = """
INSERT INTO episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text, embedding)
VALUES (%s, 0, 'p', 's', 'conversation.message', now(), %s, %s)"""


INDEX = """
CREATE INDEX episode_chunks_embedding ON episode_chunks
USING hnsw ((embedding::vector(384)) vector_cosine_ops) WITH (m = {m}, ef_construction = {ef})
WHERE vector_dims(embedding) = 384"""
NEAREST = """
SELECT id FROM episode_chunks WHERE vector_dims(embedding) = 384
ORDER BY embedding::vector(384) <=> %s::vector(384) LIMIT 10"""
EXACT = """
SELECT id FROM episode_chunks ORDER BY cosine_distance(embedding, %s), id LIMIT 10"""


def _vectors(texts: list[str], kind: str, seed: int) -> np.ndarray:
    if kind == "local":
        from haki.providers.embed import LocalEmbedder

        return np.asarray(LocalEmbedder().embed_documents(texts), dtype=np.float32)
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((len(texts), 384)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1)[:, None]


def compare_builds(args: argparse.Namespace) -> None:
    """Each ``--index M:EF`` build: insert CPU per ``--rows`` chunks after
    ``--warm`` ones, and the top-10 recall of its walk against the exact order."""
    # "none": no hnsw index at all, the floor the builds are measured against.
    builds = [
        (0, 0) if spec == "none" else tuple(int(x) for x in spec.split(":")) for spec in args.index
    ]
    warm, n, q = args.warm, args.rows, args.queries
    rows = short_turns.turns(warm + n + q)
    texts = [t for _, t, _ in rows]
    t0 = time.process_time()
    vectors = _vectors(texts, args.vectors, 0)
    print(f"{args.vectors} vectors for {len(texts)} turns: {time.process_time() - t0:.1f} s CPU")
    queries = vectors[warm + n :]
    with tempfile.TemporaryDirectory(prefix="haki-bench-") as tmp:
        server = start_embedded(Path(tmp))
        try:
            upgrade(server.admin_url)
            postmaster = postmaster_pid(server.pgdata)
            with psycopg.connect(server.admin_url, autocommit=True) as conn:
                register_vector(conn)
                ids = [uuid.uuid4() for _ in range(warm + n)]
                with conn.transaction():
                    conn.cursor().executemany(EVENT, [(i, f"sha256:{i.hex}", i.hex) for i in ids])
                chunk_rows = [(i, texts[k], vectors[k]) for k, i in enumerate(ids)]
                for m, ef in builds:
                    conn.execute("TRUNCATE episode_chunks")
                    conn.execute("DROP INDEX IF EXISTS episode_chunks_embedding")
                    if m:
                        conn.execute(INDEX.format(m=m, ef=ef))
                    with conn.transaction():
                        conn.cursor().executemany(CHUNK, chunk_rows[:warm])
                    conn.execute("CHECKPOINT")
                    cpu, wall = tree_cpu_ms(postmaster), time.perf_counter()
                    with conn.transaction():
                        conn.cursor().executemany(CHUNK, chunk_rows[warm:])
                    spent = tree_cpu_ms(postmaster) - cpu
                    elapsed = 1000 * (time.perf_counter() - wall)
                    if not m:
                        print(
                            f"no hnsw index: PostgreSQL CPU {spent:,.0f} ms, wall "
                            f"{elapsed:,.0f} ms for {n} chunks after {warm}",
                            flush=True,
                        )
                        continue
                    conn.execute("ANALYZE episode_chunks")
                    conn.execute("SET hnsw.ef_search = 100")
                    found = 0
                    for vec in queries:
                        walk = {r[0] for r in conn.execute(NEAREST, (vec,))}
                        exact = {r[0] for r in conn.execute(EXACT, (vec,))}
                        found += len(walk & exact)
                    # What a migration that rebuilds this index pays per
                    # chunk: pgvector's bulk build over the table as it stands.
                    cpu, wall = tree_cpu_ms(postmaster), time.perf_counter()
                    conn.execute("REINDEX INDEX episode_chunks_embedding")
                    build = tree_cpu_ms(postmaster) - cpu
                    build_wall = 1000 * (time.perf_counter() - wall)
                    size = conn.execute(
                        "SELECT pg_relation_size('episode_chunks_embedding')"
                    ).fetchone()[0]
                    print(
                        f"m {m:>2} ef_construction {ef:>3}: PostgreSQL CPU {spent:,.0f} ms, "
                        f"wall {elapsed:,.0f} ms for {n} chunks after {warm}; "
                        f"top-10 recall {found / (10 * len(queries)):.4f} "
                        f"({len(queries)} queries, ef_search 100); index {size / 2**20:.1f} MiB, "
                        f"rebuilt from {warm + n} chunks in {build:,.0f} ms CPU "
                        f"({build_wall:,.0f} ms wall)",
                        flush=True,
                    )
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument(
        "--index",
        action="append",
        default=[],
        metavar="M:EF",
        help="compare hnsw builds (m:ef_construction, or none), repeatable",
    )
    parser.add_argument("--vectors", choices=["local", "random"], default="local")
    parser.add_argument("--warm", type=int, default=3000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    if args.index:
        compare_builds(args)
        return
    n = args.rows
    rng = np.random.default_rng(0)
    texts = [t for _, t, _ in short_turns.turns(4 * n)]
    with tempfile.TemporaryDirectory(prefix="haki-bench-") as tmp:
        server = start_embedded(Path(tmp))
        try:
            upgrade(server.admin_url)
            postmaster = postmaster_pid(server.pgdata)
            with psycopg.connect(server.admin_url, autocommit=True) as conn:
                register_vector(conn)

                def insert(label: str, offset: int) -> None:
                    ids = [uuid.uuid4() for _ in range(n)]
                    with conn.transaction():
                        conn.cursor().executemany(
                            EVENT, [(i, f"sha256:{i.hex}", i.hex) for i in ids]
                        )
                    vectors = rng.standard_normal((n, 384)).astype(np.float32)
                    vectors /= np.linalg.norm(vectors, axis=1)[:, None]
                    cpu, wall = tree_cpu_ms(postmaster), time.perf_counter()
                    with conn.transaction():
                        conn.cursor().executemany(
                            CHUNK,
                            [(i, texts[offset + k], vectors[k]) for k, i in enumerate(ids)],
                        )
                    print(
                        f"{label}: PostgreSQL CPU {tree_cpu_ms(postmaster) - cpu:,.0f} ms, "
                        f"wall {1000 * (time.perf_counter() - wall):,.0f} ms for {n} chunks"
                    )

                insert("every index (first pass)", 0)
                insert("every index", n)
                conn.execute("DROP INDEX episode_chunks_embedding")
                insert("without the HNSW index", 2 * n)
                conn.execute("DROP INDEX episode_chunks_scope_lexemes")
                insert("without the HNSW and the scope GIN index", 3 * n)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
