"""What PostgreSQL spends to insert episode chunks, index by index.

    .venv/bin/python bench/chunk_insert_cost.py [--rows 1000]

In a throwaway embedded database at the current schema: inserts ``--rows``
chunks (short synthetic turns, random unit vectors) with every index, then
again without the HNSW index on ``embedding``, then without the per-scope
GIN index as well; prints the CPU the PostgreSQL processes used for each
(``_cpu.py``, from ``/proc``), which other load on the machine changes far
less than wall time. The first pass warms the table up and is printed too.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    args = parser.parse_args()
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
