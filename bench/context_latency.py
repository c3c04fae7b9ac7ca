"""POST /v1/context latency over HTTP on loopback, with the naive full scan beside it.

One scope holds N facts and N episode chunks. A ``haki serve`` subprocess runs
against that database, warmed up, and 200 distinct varied queries are sent
one after the other, twice. Printed: p50/p95/p99 of the whole call (query
embedding included: first pass) and without the embedding (second pass: the
server's query-embedding cache answers), then the SQL cost of phase 1 + 2
against the naive full scan that scores every active fact of the scope, on
the same queries and connection.

``--rounds N`` repeats the HTTP measurement N times against the same warm
server, each round with its own distinct queries (so each pays for its
embeddings): one line per round shows how much the figures move from one
round to the next on a shared machine, without seeding the scope again.

Vectors: with ``--vectors real`` (default up to 20,000 rows) every text is
embedded with the local MiniLM embedder. Beyond that, embedding would take
minutes per 20,000 texts, so ``--vectors topic`` embeds one centroid per text
template and gives each row a unit vector drawn around its template's
centroid: the index sees clustered, realistic geometry, not uniform noise.

    .venv/bin/python bench/context_latency.py                      # 10,000 + 10,000
    .venv/bin/python bench/context_latency.py --rows 100000        # topic vectors
    .venv/bin/python bench/context_latency.py --rounds 3           # three rounds, one line each
    .venv/bin/python bench/context_latency.py --database-url postgresql://...   # reuses a seeded scope
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import dict_row

sys.path.insert(0, str(Path(__file__).resolve().parent))
import context_corpus as corpus
from _server import running_server
from haki.context.candidates import (
    LEXICAL,
    SEMANTIC,
    TUNE_HNSW,
    FactQuery,
    LexicalLeg,
    fulltext_params,
)
from haki.context.config import DEFAULT
from haki.context.query import fulltext_terms
from haki.providers.embed import LocalEmbedder
from haki.storage.migrate import upgrade

PROJECT, SUBJECT = "bench", "user-1"
NOW = datetime.now(UTC)

# What the two-phase retrieval replaces: every eligible fact of the scope
# scored in SQL, then the top CANDIDATE_LIMIT kept.
NAIVE_SCAN = """
SELECT f.id, f.predicate, f.value, f.confidence, f.valid_from, f.recorded_from, f.last_reinforced_at,
       f.source_event_ids, f.fact_kind, f.volatility,
       0.65 * (1 - (f.embedding <=> %(vec)s))
     + 0.25 * ts_rank_cd(f.search_vector, websearch_to_tsquery('simple', %(tsq)s), 32)
     + 0.10 * exp(-extract(epoch FROM (%(at)s - coalesce(f.valid_from, f.recorded_from))) / 2592000.0) AS total
FROM facts f
WHERE f.project_id = %(project_id)s AND f.subject_id = %(subject_id)s AND f.status = 'active'
  AND (f.valid_to IS NULL OR f.valid_to > %(at)s)
ORDER BY total DESC, f.id
LIMIT 256"""

HNSW_INDEXES = {
    "facts_embedding": "CREATE INDEX facts_embedding ON facts USING hnsw (embedding vector_cosine_ops)",
    "episode_chunks_embedding": "CREATE INDEX episode_chunks_embedding ON episode_chunks USING hnsw (embedding vector_cosine_ops)",
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _vectors(
    texts: list[str], templates: list[int], n_templates: int, mode: str, embedder, rng
) -> np.ndarray:
    if mode == "real":
        return embedder.embed_documents(texts)
    # One centroid per template (its first text), rows scattered around it.
    firsts = {}
    for t, text in zip(templates, texts, strict=True):
        firsts.setdefault(t, text)
    centroids = embedder.embed_documents([firsts[t] for t in range(n_templates) if t in firsts])
    index = {t: i for i, t in enumerate(t for t in range(n_templates) if t in firsts)}
    base = centroids[[index[t] for t in templates]]
    noisy = base + rng.normal(scale=0.045, size=base.shape).astype(np.float32)
    return (noisy / np.linalg.norm(noisy, axis=1, keepdims=True)).astype(np.float32)


def seed(url: str, rows: int, mode: str, embedder: LocalEmbedder) -> None:
    rng = np.random.default_rng(11)
    facts = corpus.facts(rows)
    turns = corpus.turns(rows)
    t0 = time.perf_counter()
    fact_vecs = _vectors(
        [f.search_text for f in facts],
        [f.template for f in facts],
        len(corpus.FACT_TEMPLATES),
        mode,
        embedder,
        rng,
    )
    turn_vecs = _vectors(
        [t for _, t in turns],
        [i for i, _ in turns],
        len(corpus.TURN_TEMPLATES),
        mode,
        embedder,
        rng,
    )
    log(f"embedded {2 * rows} texts ({mode}) in {time.perf_counter() - t0:.1f}s")
    t0 = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:  # the owner: COPY is refused under RLS
        register_vector(conn)
        for name in HNSW_INDEXES:
            conn.execute(f"DROP INDEX {name}")
        with conn.cursor() as cur:
            with cur.copy(
                "COPY facts (project_id, subject_id, predicate, value, status, confidence, valid_from, "
                "recorded_from, search_text, embedding) FROM STDIN"
            ) as copy:
                for i, (f, vec) in enumerate(zip(facts, fact_vecs, strict=True)):
                    when = NOW - timedelta(minutes=37 * i)
                    copy.write_row(
                        (
                            PROJECT,
                            SUBJECT,
                            f.predicate,
                            psycopg.types.json.Jsonb(f.value),
                            "active",
                            0.8,
                            when,
                            when,
                            f.search_text,
                            vec,
                        )
                    )
            events = [uuid.uuid4() for _ in range(rows)]
            with cur.copy(
                "COPY events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
                "idempotency_key) FROM STDIN"
            ) as copy:
                for i, eid in enumerate(events):
                    copy.write_row(
                        (
                            eid,
                            PROJECT,
                            SUBJECT,
                            "conversation.message",
                            NOW - timedelta(minutes=41 * i),
                            "{}",
                            "sha256:bench",
                            str(eid),
                        )
                    )
            with cur.copy(
                "COPY episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, "
                "text, embedding) FROM STDIN"
            ) as copy:
                for i, ((_, text), vec, eid) in enumerate(
                    zip(turns, turn_vecs, events, strict=True)
                ):
                    copy.write_row(
                        (
                            eid,
                            0,
                            PROJECT,
                            SUBJECT,
                            "conversation.message",
                            NOW - timedelta(minutes=41 * i),
                            text,
                            vec,
                        )
                    )
        log(f"copied rows in {time.perf_counter() - t0:.1f}s; building hnsw indexes")
        t0 = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '1GB'")
        for ddl in HNSW_INDEXES.values():
            conn.execute(ddl)
        conn.execute("VACUUM ANALYZE facts")
        conn.execute("VACUUM ANALYZE episode_chunks")
        log(f"indexes built in {time.perf_counter() - t0:.1f}s")


def scope_size(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM facts WHERE project_id = %s AND subject_id = %s",
            (PROJECT, SUBJECT),
        ).fetchone()
    return row[0] if row else 0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def summary(values: list[float]) -> str:
    return f"{pct(values, 50):7.2f} | {pct(values, 95):7.2f} | {pct(values, 99):7.2f}"


def http_run(
    base_url: str, queries: list[str], warm_up: list[str]
) -> tuple[list[float], list[float], list[int], dict[str, list[float]]]:
    """Two passes over the same distinct queries: the first pays for each
    query's embedding, the second finds it in the server's query cache."""
    total, cached, served = [], [], []
    stages: dict[str, list[float]] = {}

    def call(client: httpx.Client, q: str) -> tuple[float, httpx.Response]:
        t0 = time.perf_counter()
        r = client.post(
            "/v1/context", json={"project_id": PROJECT, "subject_id": SUBJECT, "query": q}
        )
        ms = (time.perf_counter() - t0) * 1000
        r.raise_for_status()
        return ms, r

    with httpx.Client(base_url=base_url, timeout=30) as client:
        for q in warm_up:  # connections, plans, caches; never measured
            call(client, q)
        for q in queries:
            ms, r = call(client, q)
            timings = dict(part.split(";dur=") for part in r.headers["server-timing"].split(", "))
            for stage, dur in timings.items():
                stages.setdefault(stage, []).append(float(dur))
            total.append(ms)
            body = r.json()
            served.append(len(body["packet"]["facts"]) + len(body["packet"]["episodes"]))
        for q in queries:
            cached.append(call(client, q)[0])
    return total, cached, served, stages


def sql_run(
    url: str, queries: list[str], embedder: LocalEmbedder
) -> tuple[list[float], list[float]]:
    """Phase 1 + 2 (its lexical and semantic statements, back to back) against
    the naive full scan, as the application role, same vectors."""
    two_phase, naive = [], []
    with psycopg.connect(url) as conn:
        register_vector(conn)
        for q in queries:
            vec = embedder.embed_query(q)
            terms = fulltext_terms(q, DEFAULT.max_query_terms)
            params = (
                FactQuery(PROJECT, SUBJECT, datetime.now(UTC), bounded=False).params()
                | fulltext_params(DEFAULT)
                | {"vec": vec, "terms": terms, "tsq": " or ".join(terms), "top_k": DEFAULT.top_k}
            )
            with conn.transaction():
                conn.execute("SET LOCAL ROLE haki_app")
                conn.execute("SELECT set_config('app.project_id', %s, true)", (PROJECT,))
                conn.execute(TUNE_HNSW, {"ef_search": str(DEFAULT.hnsw_ef_search)})
                t0 = time.perf_counter()
                with conn.cursor(row_factory=dict_row) as cur:
                    leg = LexicalLeg.of(cur.execute(LEXICAL, params).fetchall())
                conn.execute(SEMANTIC, params | leg.params()).fetchall()
                two_phase.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                conn.execute(NAIVE_SCAN, params).fetchall()
                naive.append((time.perf_counter() - t0) * 1000)
    return two_phase, naive


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rows", type=int, default=10_000, help="facts, and as many episode chunks")
    ap.add_argument("--queries", type=int, default=200, help="distinct queries per round")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="repeat the HTTP measurement with fresh queries, one result line per round",
    )
    ap.add_argument(
        "--vectors",
        choices=["real", "topic"],
        default=None,
        help="default: real up to 20,000 rows, topic beyond",
    )
    ap.add_argument(
        "--database-url", help="an empty PostgreSQL database (default: a temporary embedded server)"
    )
    ap.add_argument(
        "--shared-buffers",
        default="1GB",
        help="shared_buffers of the temporary embedded server (its default, 128MB, holds neither the "
        "100k-row heap nor its hnsw index)",
    )
    args = ap.parse_args()
    mode = args.vectors or ("real" if args.rows <= 20_000 else "topic")
    embedder = LocalEmbedder()
    if args.rounds < 1 or args.queries < 1:
        ap.error("--rounds and --queries must be positive")
    every = corpus.queries(args.queries * args.rounds)
    rounds = [every[i * args.queries : (i + 1) * args.queries] for i in range(args.rounds)]
    queries = rounds[0]
    warm_up = corpus.queries(20, seed=99, avoid=frozenset(every))

    with tempfile.TemporaryDirectory(prefix="haki-ctx-bench-") as tmp:
        server = None
        url = args.database_url
        if url is None:
            from haki.storage.embedded import ensure_database, start_embedded

            server = start_embedded(Path(tmp))
            if args.shared_buffers:
                with psycopg.connect(server.server.get_uri(), autocommit=True) as admin:  # type: ignore[attr-defined]
                    admin.execute(
                        psycopg.sql.SQL("ALTER SYSTEM SET shared_buffers = {}").format(
                            psycopg.sql.Literal(args.shared_buffers)
                        )
                    )
                server.stop()
                server = start_embedded(Path(tmp))
            ensure_database(server.server.get_uri(), "haki_bench")  # type: ignore[attr-defined]
            url = server.server.get_uri(database="haki_bench")  # type: ignore[attr-defined]
        try:
            upgrade(url)
            if scope_size(url) >= args.rows:
                log("reusing the facts already in the bench scope")
                mode = "existing"
            else:
                seed(url, args.rows, mode, embedder)
            with running_server(
                env={"HAKI_DATABASE_URL": url, "HAKI_WORKER_IN_PROCESS": "false"}
            ) as base:
                runs = [http_run(base, qs, warm_up) for qs in rounds]
            total, cached, served, stages = runs[0]
            two_phase, naive = sql_run(url, queries, embedder)
        finally:
            if server is not None:
                server.stop()

    buffers = "" if args.database_url else f", shared_buffers {args.shared_buffers}"
    print(
        f"\n### POST /v1/context — {args.rows:,} facts + {args.rows:,} episode chunks, one scope "
        f"({mode} vectors{buffers}), {len(queries)} queries, sequential, loopback"
        f"{'' if len(runs) == 1 else f'; round 1 of {len(runs)}'}\n"
    )
    print("| measure (ms) | p50 | p95 | p99 |")
    print("|---|---:|---:|---:|")
    print(f"| HTTP call, query embedding included | {summary(total)} |")
    print(f"| HTTP call, query embedding excluded (same query again: cached) | {summary(cached)} |")
    print(f"| SQL phase 1 + 2 (two indexed top-64, scored union) | {summary(two_phase)} |")
    print(f"| SQL naive full scan (score every active fact) | {summary(naive)} |")
    if len(runs) > 1:
        print("\n| round (ms), embedding included / excluded | p50 | p95 | p99 | p50 | p95 | p99 |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for n, run in enumerate(runs, start=1):
            print(f"| {n} | {summary(run[0])} | {summary(run[1])} |")
    print(
        "\nserver stages, p50 / p95 (ms): "
        + ", ".join(f"{name} {pct(v, 50):.1f} / {pct(v, 95):.1f}" for name, v in stages.items())
    )
    ratio = statistics.median(naive) / statistics.median(two_phase)
    print(
        f"\nnaive / two-phase (p50): {ratio:.1f}x; items served per call: median {statistics.median(served):.0f}"
    )


if __name__ == "__main__":
    main()
