"""Facts at scale: the scope-filtered hnsw search against an exact search per scope.

``--rows`` facts (topic-clustered vectors, as ``context_latency.py --vectors
topic``: one MiniLM centroid per text template, rows scattered around it)
across ``--subjects`` subjects of one project are copied into a fresh
embedded PostgreSQL; the hnsw index is built after the copy. Then, for
``--queries`` random subjects, the cosine leg's shape (one subject's active
facts, ``ORDER BY embedding <=> q LIMIT 64`` with ``hnsw.ef_search = 100`` and
``hnsw.iterative_scan = relaxed_order``, the settings of
``context/candidates.py``) runs through the index and exactly (a sequential
ordering of the same rows). Printed: copy and index build times, table and
index sizes, the server's memory, the indexed query's p50/p95/p99, and the
recall of the indexed top-64 against the exact one.

Each query vector is a random fact vector of another subject plus noise, so
most of its nearest neighbours in the whole table belong to someone else:
the case where filtering after an index scan loses recall.

    .venv/bin/python bench/scale.py --rows 100000            # 100 facts per subject
    .venv/bin/python bench/scale.py --rows 1000000           # the issue's size (long)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psutil
import psycopg
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parent))
import context_corpus as corpus
from context_latency import _vectors
from haki.providers.embed import LocalEmbedder
from haki.storage.embedded import start_embedded
from haki.storage.migrate import upgrade

PROJECT = "scale"
TOP_K = 64
NOW = datetime.now(UTC)

SCOPED = """
SELECT id FROM facts
WHERE project_id = %(project)s AND subject_id = %(subject)s AND status = 'active'
ORDER BY embedding <=> %(vec)s LIMIT %(k)s"""


# The same search with the scope filter hidden from the scope index, so the
# planner must walk the hnsw index and filter afterwards: the plan a subject
# with many facts gets, measured whatever the planner picks for this data.
THROUGH_HNSW = SCOPED.replace("subject_id = %(subject)s", "subject_id || '' = %(subject)s")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} / {five:.2f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def seed(url: str, rows: int, subjects: int) -> tuple[np.ndarray, float, float]:
    rng = np.random.default_rng(11)
    facts = corpus.facts(rows)
    vecs = _vectors(
        [f.search_text for f in facts],
        [f.template for f in facts],
        len(corpus.FACT_TEMPLATES),
        "topic",
        LocalEmbedder(),
        rng,
    )
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        conn.execute("DROP INDEX facts_embedding")
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY facts (project_id, subject_id, predicate, value, status, confidence, "
                "valid_from, recorded_from, search_text, embedding) FROM STDIN"
            ) as copy,
        ):
            for i, (f, vec) in enumerate(zip(facts, vecs, strict=True)):
                copy.write_row(
                    (
                        PROJECT,
                        f"user-{i % subjects:05d}",
                        f.predicate,
                        psycopg.types.json.Jsonb(f.value),
                        "active",
                        0.8,
                        NOW,
                        NOW,
                        f.search_text,
                        vec,
                    )
                )
        copied = time.perf_counter() - started
        started = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '512MB'")
        conn.execute(
            "CREATE INDEX facts_embedding ON facts USING hnsw (embedding vector_cosine_ops)"
        )
        conn.execute("ANALYZE facts")
        built = time.perf_counter() - started
    return vecs, copied, built


def sizes(url: str) -> dict[str, str]:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT pg_size_pretty(pg_table_size('facts')), "
            "pg_size_pretty(pg_relation_size('facts_embedding')), "
            "pg_size_pretty(pg_indexes_size('facts'))"
        ).fetchone()
    assert row is not None
    return {"table": row[0], "hnsw index": row[1], "all indexes": row[2]}


def server_memory(pgdata: Path) -> str:
    """Memory of the server of ``pgdata``: its postmaster and backends (unique set size)."""
    postmaster = psutil.Process(int((pgdata / "postmaster.pid").read_text().split()[0]))
    total = 0
    for p in [postmaster, *postmaster.children()]:
        try:
            total += p.memory_full_info().uss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return f"{total / 2**20:.0f} MiB"


def measure(
    url: str, vecs: np.ndarray, rows: int, subjects: int, queries: int, max_scan_tuples: int
) -> None:
    rng = random.Random(5)
    nprng = np.random.default_rng(5)
    latencies: list[float] = []
    recalls: list[float] = []
    forced_latencies: list[float] = []
    forced_recalls: list[float] = []
    plans: list[str] = []
    with psycopg.connect(url) as conn:
        register_vector(conn)
        for _ in range(queries):
            subject = f"user-{rng.randrange(subjects):05d}"
            base = vecs[rng.randrange(rows)]
            q = base + nprng.normal(scale=0.03, size=base.shape).astype(np.float32)
            q = (q / np.linalg.norm(q)).astype(np.float32)
            params = {"project": PROJECT, "subject": subject, "vec": q, "k": TOP_K}
            with conn.transaction():
                conn.execute("SET LOCAL hnsw.ef_search = 100")
                conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                if max_scan_tuples:
                    conn.execute(f"SET LOCAL hnsw.max_scan_tuples = {int(max_scan_tuples)}")
                started = time.perf_counter()
                approx = [r[0] for r in conn.execute(SCOPED, params)]
                latencies.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                forced = [r[0] for r in conn.execute(THROUGH_HNSW, params)]
                forced_latencies.append((time.perf_counter() - started) * 1000)
            with conn.transaction():
                conn.execute("SET LOCAL enable_indexscan = off")
                conn.execute("SET LOCAL enable_bitmapscan = off")
                exact = [r[0] for r in conn.execute(SCOPED, params)]
            if not plans:
                with conn.transaction():
                    conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                    plan = conn.execute("EXPLAIN " + SCOPED, params).fetchall()
                plans.append("hnsw" if "facts_embedding" in str(plan) else "scope index + sort")
            if exact:
                recalls.append(len(set(approx) & set(exact)) / len(exact))
                forced_recalls.append(len(set(forced) & set(exact)) / len(exact))
    print(f"plan chosen for the scoped query: {plans[0]}")
    print("| query | p50 | p95 | p99 | recall of the exact per-scope top-64 |")
    print("|---|---|---|---|---|")
    for name, times, found in (
        ("as planned", latencies, recalls),
        ("through hnsw, filtered after", forced_latencies, forced_recalls),
    ):
        print(
            f"| scoped top-{TOP_K}, {name} | {pct(times, 50):.2f} ms | {pct(times, 95):.2f} ms "
            f"| {pct(times, 99):.2f} ms | mean {sum(found) / len(found):.3f}, "
            f"min {min(found):.3f}, below 0.95: {sum(r < 0.95 for r in found)}/{len(found)} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--subjects", type=int, default=1_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument(
        "--max-scan-tuples",
        type=int,
        default=0,
        help="hnsw.max_scan_tuples for the indexed queries (0: the server's default, 20,000)",
    )
    args = ap.parse_args()
    print(f"load average before: {load()}")
    with tempfile.TemporaryDirectory(prefix="haki-scale-") as tmp:
        server = start_embedded(Path(tmp))
        try:
            url = server.admin_url
            upgrade(url)
            vecs, copied, built = seed(url, args.rows, args.subjects)
            print(
                f"{args.rows} facts across {args.subjects} subjects: copy {copied:.1f} s, "
                f"hnsw build {built:.1f} s"
            )
            print(" | ".join(f"{k} {v}" for k, v in sizes(url).items()))
            print(f"PostgreSQL memory (USS): {server_memory(server.pgdata)}")
            measure(url, vecs, args.rows, args.subjects, args.queries, args.max_scan_tuples)
        finally:
            server.stop()
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
