"""Facts and episode chunks at scale: ingest, sizes, the cosine leg's recall, context latency.

``--rows`` facts and as many episode chunks (and their events), topic-
clustered vectors as ``context_latency.py --vectors topic`` (one MiniLM
centroid per text template, rows scattered around it), across
``--subjects`` subjects of one project, are copied into a fresh embedded
PostgreSQL with its secondary indexes dropped, then the indexes are built
(two hnsw, two GIN, the btrees). ``--big-subject N`` adds one subject of N
facts and N chunks (repeatable): the scope size where the cosine leg
switches from an exact read to the hnsw index.

Printed:
- ingest: vector generation, copy, index build times; table and index
  sizes; PostgreSQL's memory (unique set size of the postmaster and its
  backends);
- recall: for ``--queries`` random subjects, the cosine leg as shipped
  (``candidates.SEMANTIC`` and ``episode_candidates.SEMANTIC`` with the
  lexical leg empty, as the application role) against an exact per-scope
  top-64, beside the same search forced through the hnsw index with the
  scope filtered afterwards (the plan the planner may pick). Each query
  vector is a stored vector drawn at random (almost always another
  subject's) plus noise, so most of its nearest neighbours in the whole
  table belong to someone else. For a
  big subject, the leg as shipped (prepared, as the server's pooled
  connections run it: the plan cache then settles on a generic plan) and
  each of its branches, planned for each call (the exact read with the
  share rule lifted, and the hnsw walk);
- latency: ``--calls`` ``POST /v1/context`` calls over HTTP on loopback,
  sequential, each on a random subject with a distinct query text (the
  query embedding is part of every call), against a ``haki serve`` on the
  seeded database; p50/p95/p99 and the server's stages (``Server-Timing``);
  then as many calls on each big subject, p50/p95/p99 of the whole call.

``--data-dir DIR`` keeps the database in DIR and reuses it when it already
holds the rows asked for (the build figures are then not printed again).

    .venv/bin/python bench/scale.py --rows 100000                  # 100 facts per subject
    .venv/bin/python bench/scale.py --rows 100000 --big-subject 5000 --big-subject 20000
    nice -n 10 .venv/bin/python bench/scale.py --rows 1000000      # the issue's size (long)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import numpy as np
import psutil
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parent))
import context_corpus as corpus
from _server import running_server
from context_data import _vectors
from haki.context.candidates import SEMANTIC as FACT_SEMANTIC
from haki.context.candidates import FactQuery, fulltext_params, read_settings, scope_params
from haki.context.config import DEFAULT, RetrievalConfig
from haki.context.episode_candidates import SEMANTIC as CHUNK_SEMANTIC
from haki.context.episode_candidates import EpisodeQuery
from haki.providers.embed import LocalEmbedder
from haki.storage.db import local_settings
from haki.storage.embedded import start_embedded
from haki.storage.migrate import upgrade

PROJECT = "scale"
TOP_K = 64
NOW = datetime.now(UTC)
TABLES = ("facts", "episode_chunks", "events")
# Rows per COPY statement: progress is logged between them.
COPY_BATCH = 50_000

# The exact per-scope top-K: ``cosine_distance()`` cannot be served by an index.
EXACT = {
    "facts": """
SELECT id FROM facts
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s AND status = 'active'
ORDER BY cosine_distance(embedding, %(vec)s), id LIMIT %(k)s""",
    "episode_chunks": """
SELECT id FROM episode_chunks
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s AND occurred_at <= %(at)s
ORDER BY cosine_distance(embedding, %(vec)s), id LIMIT %(k)s""",
}

# The search through the hnsw index, the scope filter applied to what it
# returns: ``subject_id || ''`` hides the filter from the scope index, so
# the planner has no other way than the hnsw order.
THROUGH_HNSW = {
    "facts": """
SELECT id FROM facts
WHERE project_id = %(project_id)s AND subject_id || '' = %(subject_id)s AND status = 'active'
ORDER BY embedding <=> %(vec)s LIMIT %(k)s""",
    "episode_chunks": """
SELECT id FROM episode_chunks
WHERE project_id = %(project_id)s AND subject_id || '' = %(subject_id)s AND occurred_at <= %(at)s
ORDER BY embedding <=> %(vec)s LIMIT %(k)s""",
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} / {five:.2f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def subjects_of(rows: int, subjects: int, big: list[int]) -> list[str]:
    """The subject of each row: round robin over ``subjects``, then each big subject's rows."""
    out = [f"user-{i % subjects:05d}" for i in range(rows)]
    for n in big:
        out.extend([big_subject(n)] * n)
    return out


def big_subject(rows: int) -> str:
    return f"big-{rows}"


def secondary_indexes(conn: psycopg.Connection) -> dict[str, str]:
    """Indexes of the seeded tables that back no constraint: dropped while copying."""
    rows = conn.execute(
        "SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x "
        "JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid "
        "WHERE t.relname = ANY(%s) AND t.relnamespace = 'public'::regnamespace "
        "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid) "
        "ORDER BY i.relname",
        (list(TABLES),),
    ).fetchall()
    return {name: ddl for name, ddl in rows}


def column_types(conn: psycopg.Connection, table: str, columns: list[str]) -> list[int]:
    oids = dict(
        conn.execute(
            "SELECT attname, atttypid::int FROM pg_attribute "
            "WHERE attrelid = %s::regclass AND attname = ANY(%s)",
            (table, columns),
        ).fetchall()
    )
    return [oids[c] for c in columns]


def copy_rows(
    conn: psycopg.Connection, table: str, columns: list[str], rows: Iterator[tuple[object, ...]]
) -> None:
    """Binary COPY (a vector travels as its 1,536 bytes, not as text), in batches."""
    types = column_types(conn, table, columns)
    statement = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT BINARY)").format(
        sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    done = False
    n = 0
    while not done:
        with conn.cursor() as cur, cur.copy(statement) as copy:
            copy.set_types(types)
            for _ in range(COPY_BATCH):
                row = next(rows, None)
                if row is None:
                    done = True
                    break
                copy.write_row(row)
                n += 1
        log(f"  {table}: {n:,} rows")


@dataclass
class Built:
    vectors_s: float = 0.0
    copy_s: float = 0.0
    index_s: dict[str, float] = field(default_factory=dict)


def seed(url: str, rows: int, subjects: int, big: list[int]) -> Built:
    built = Built()
    who = subjects_of(rows, subjects, big)
    total = len(who)
    started = time.perf_counter()
    rng = np.random.default_rng(11)
    embedder = LocalEmbedder()
    facts = corpus.facts(total)
    fact_vecs = _vectors(
        [f.search_text for f in facts],
        [f.template for f in facts],
        len(corpus.FACT_TEMPLATES),
        "topic",
        embedder,
        rng,
    )
    turns = corpus.turns(total)
    turn_vecs = _vectors(
        [t for _, t in turns],
        [i for i, _ in turns],
        len(corpus.TURN_TEMPLATES),
        "topic",
        embedder,
        rng,
    )
    built.vectors_s = time.perf_counter() - started
    log(f"vectors for {2 * total:,} rows in {built.vectors_s:.0f} s")
    events = [uuid.uuid4() for _ in range(total)]
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:  # the owner: COPY is refused under RLS
        register_vector(conn)
        indexes = secondary_indexes(conn)
        for name in indexes:
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
        copy_rows(
            conn,
            "facts",
            [
                "project_id",
                "subject_id",
                "predicate",
                "value",
                "status",
                "confidence",
                "valid_from",
                "recorded_from",
                "search_text",
                "embedding",
            ],
            (
                (
                    PROJECT,
                    s,
                    f.predicate,
                    psycopg.types.json.Jsonb(f.value),
                    "active",
                    0.8,
                    NOW - timedelta(minutes=i % 100_000),
                    NOW,
                    f.search_text,
                    vec,
                )
                for i, (s, f, vec) in enumerate(zip(who, facts, fact_vecs, strict=True))
            ),
        )
        copy_rows(
            conn,
            "events",
            [
                "id",
                "project_id",
                "subject_id",
                "kind",
                "occurred_at",
                "payload",
                "hash",
                "idempotency_key",
            ],
            (
                (
                    e,
                    PROJECT,
                    s,
                    "conversation.message",
                    NOW - timedelta(minutes=i % 100_000),
                    psycopg.types.json.Jsonb({}),
                    "sha256:bench",
                    str(e),
                )
                for i, (s, e) in enumerate(zip(who, events, strict=True))
            ),
        )
        copy_rows(
            conn,
            "episode_chunks",
            [
                "event_id",
                "ordinal",
                "project_id",
                "subject_id",
                "kind",
                "occurred_at",
                "text",
                "embedding",
            ],
            (
                (
                    e,
                    0,
                    PROJECT,
                    s,
                    "conversation.message",
                    NOW - timedelta(minutes=i % 100_000),
                    text,
                    vec,
                )
                for i, (s, e, (_, text), vec) in enumerate(
                    zip(who, events, turns, turn_vecs, strict=True)
                )
            ),
        )
        built.copy_s = time.perf_counter() - started
        log(f"copied in {built.copy_s:.0f} s; building {len(indexes)} indexes")
        conn.execute("SET maintenance_work_mem = '3GB'")
        for name, ddl in indexes.items():
            started = time.perf_counter()
            conn.execute(ddl)
            built.index_s[name] = time.perf_counter() - started
            log(f"  {name}: {built.index_s[name]:.0f} s")
        started = time.perf_counter()
        for table in TABLES:
            conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(table)))
        built.index_s["vacuum analyze"] = time.perf_counter() - started
    return built


def row_count(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM facts WHERE project_id = %s", (PROJECT,)
        ).fetchone()
    return int(row[0]) if row else 0


def sizes(url: str) -> list[tuple[str, str, str]]:
    with psycopg.connect(url) as conn:
        return [
            (t, table, index)
            for t, table, index in conn.execute(
                "SELECT t, pg_size_pretty(pg_table_size(t::regclass)), "
                "pg_size_pretty(pg_indexes_size(t::regclass)) FROM unnest(%s::text[]) AS t",
                (list(TABLES),),
            ).fetchall()
        ] + [
            (name, "", size)
            for name, size in conn.execute(
                "SELECT relname, pg_size_pretty(pg_relation_size(oid)) FROM pg_class "
                "WHERE relname IN ('facts_embedding', 'episode_chunks_embedding') ORDER BY relname"
            ).fetchall()
        ]


def server_memory(pgdata: Path) -> str:
    """Memory of the server of ``pgdata``: its postmaster and backends (unique set size)."""
    postmaster = psutil.Process(int((pgdata / "postmaster.pid").read_text().split()[0]))
    total = 0
    for p in [postmaster, *postmaster.children()]:
        try:
            total += p.memory_full_info().uss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return f"{total / 2**20:,.0f} MiB"


def serve_memory() -> str:
    """Resident memory of the ``haki serve`` this benchmark started."""
    total = 0
    for p in psutil.Process().children(recursive=True):
        try:
            if any("_serve.py" in part for part in p.cmdline()):
                total += p.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return f"{total / 2**20:,.0f} MiB"


@dataclass
class Leg:
    """Times (ms) and recalls of one way of running the cosine leg."""

    ms: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)

    def row(self, name: str) -> str:
        r = self.recall
        return (
            f"| {name} | {pct(self.ms, 50):.2f} | {pct(self.ms, 95):.2f} | {pct(self.ms, 99):.2f} "
            f"| {sum(r) / len(r):.3f} | {min(r):.3f} | {sum(x < 0.95 for x in r)}/{len(r)} |"
        )


def shipped(
    table: str, subject: str, vec: np.ndarray, cfg: RetrievalConfig = DEFAULT
) -> tuple[str, dict]:
    """The context's cosine leg for ``table``, its lexical leg empty, read as ``cfg`` says."""
    if table == "facts":
        params = (
            FactQuery(PROJECT, subject, NOW, bounded=False).params()
            | fulltext_params(DEFAULT)
            | {"terms": [], "top_k": TOP_K, "lex_ids": [], "lex_ranks": [], "blocked": []}
        )
        statement = FACT_SEMANTIC
    else:
        params = EpisodeQuery(PROJECT, subject, NOW).params() | {"k": TOP_K, "lex_ids": []}
        statement = CHUNK_SEMANTIC
    return statement, params | scope_params(cfg) | {"vec": vec}


def timed_ids(
    conn: psycopg.Connection, statement: str, params: dict, *, prepare: bool | None = None
) -> tuple[float, set]:
    started = time.perf_counter()
    ids = {r[0] for r in conn.execute(statement, params, prepare=prepare)}
    return (time.perf_counter() - started) * 1000, ids


@contextmanager
def as_app(conn: psycopg.Connection, max_scan_tuples: int = 0) -> Iterator[None]:
    """One transaction as the application role, under row-level security, hnsw tuned as served
    (and ``hnsw.max_scan_tuples`` raised, when asked)."""
    with conn.transaction():
        conn.execute("SET LOCAL ROLE haki_app")
        conn.execute(*local_settings(read_settings(DEFAULT), PROJECT))
        if max_scan_tuples:
            conn.execute(
                "SELECT set_config('hnsw.max_scan_tuples', %s, true)", (str(max_scan_tuples),)
            )
        yield


def measure_recall(
    url: str,
    vecs: dict[str, np.ndarray],
    subjects: int,
    queries: int,
    big: list[int],
    max_scan_tuples: int,
) -> None:
    rng = random.Random(5)
    nprng = np.random.default_rng(5)
    legs: dict[tuple[str, str], Leg] = {}
    with psycopg.connect(url) as conn:
        register_vector(conn)
        cases = [(f"user-{rng.randrange(subjects):05d}", None) for _ in range(queries)]
        cases += [(big_subject(n), n) for n in big for _ in range(max(20, queries // 10))]
        for subject, size in cases:
            for table, table_vecs in vecs.items():
                base = table_vecs[rng.randrange(len(table_vecs))]
                q = base + nprng.normal(scale=0.03, size=base.shape).astype(np.float32)
                q = (q / np.linalg.norm(q)).astype(np.float32)
                params = {
                    "project_id": PROJECT,
                    "subject_id": subject,
                    "vec": q,
                    "k": TOP_K,
                    "at": NOW,
                }
                with as_app(conn):
                    exact = {r[0] for r in conn.execute(EXACT[table], params)}
                if not exact:
                    continue
                ways: dict[str, tuple[str, dict]] = {}
                if size is None:
                    ways["as shipped"] = shipped(table, subject, q)
                    ways["through hnsw, scope filtered after"] = (THROUGH_HNSW[table], params)
                else:
                    # Both branches of the leg on the big scope: every scope of
                    # up to ``size`` rows read exactly (no share of the table
                    # sends it to hnsw), then none.
                    read_all = replace(DEFAULT, exact_scope_rows=size, hnsw_scope_share=1.0)
                    walk_all = replace(DEFAULT, exact_scope_rows=0)
                    ways[f"{size:,}-row scope, as shipped"] = shipped(table, subject, q)
                    ways[f"{size:,}-row scope, read exactly"] = shipped(table, subject, q, read_all)
                    ways[f"{size:,}-row scope, through hnsw"] = shipped(table, subject, q, walk_all)
                for way, (statement, way_params) in ways.items():
                    # A branch of the leg is planned for each call: prepared,
                    # the plan cache would settle on one generic plan for
                    # every subject (the shipped row is prepared, as the
                    # server's pooled connections prepare it).
                    prepare = None if way.endswith("as shipped") else False
                    with as_app(conn, max_scan_tuples):
                        ms, ids = timed_ids(conn, statement, way_params, prepare=prepare)
                    leg = legs.setdefault((table, way), Leg())
                    leg.ms.append(ms)
                    leg.recall.append(len(ids & exact) / len(exact))
    print(
        f"\ncosine leg vs the exact per-scope top-{TOP_K} (as the application role; "
        f"exact_scope_rows = {DEFAULT.exact_scope_rows:,}, hnsw.ef_search = "
        f"{DEFAULT.hnsw_ef_search}, iterative scan relaxed_order, hnsw.max_scan_tuples = "
        f"{max_scan_tuples or 'default'}); {load()}"
    )
    print("| table | leg | p50 ms | p95 ms | p99 ms | mean recall | min | below 0.95 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (table, way), leg in legs.items():
        print(f"| {table} " + leg.row(way))


def measure_http(url: str, subjects: int, calls: int, big: list[int]) -> None:
    """``calls`` calls on random (small) subjects, then as many on each big subject."""
    rng = random.Random(8)
    every = corpus.queries(calls * (1 + len(big)) + 20, seed=17)
    warm, asked = every[:20], every[20:]
    plan = [f"user-{rng.randrange(subjects):05d}" for _ in warm + asked[:calls]]
    plan += [big_subject(n) for n in big for _ in range(calls)]
    env = {"HAKI_DATABASE_URL": url, "HAKI_WORKER_IN_PROCESS": "false"}
    totals: dict[str, list[float]] = {}
    stages: dict[str, list[float]] = {}
    before = load()
    with running_server(env=env) as base, httpx.Client(base_url=base, timeout=60) as client:
        for n, (query, subject) in enumerate(zip(warm + asked, plan, strict=True)):
            started = time.perf_counter()
            r = client.post(
                "/v1/context", json={"project_id": PROJECT, "subject_id": subject, "query": query}
            )
            ms = (time.perf_counter() - started) * 1000
            r.raise_for_status()
            if n < len(warm):
                continue
            group = "random subject" if subject.startswith("user-") else subject
            totals.setdefault(group, []).append(ms)
            if group != "random subject":
                continue
            for part in r.headers["server-timing"].split(", "):
                name, _, dur = part.partition(";dur=")
                stages.setdefault(name, []).append(float(dur))
        memory = serve_memory()
    print(
        f"\nPOST /v1/context over HTTP, {calls} calls per row, sequential, loopback, a distinct "
        f"query each (query embedding included); {before} → {load()}"
    )
    print("| part | p50 ms | p95 ms | p99 ms |")
    print("|---|---:|---:|---:|")
    for group, values in totals.items():
        name = "whole call" if group == "random subject" else f"whole call, subject {group}"
        print(f"| {name} | {pct(values, 50):.1f} | {pct(values, 95):.1f} | {pct(values, 99):.1f} |")
    for name, values in stages.items():
        print(f"| {name} | {pct(values, 50):.1f} | {pct(values, 95):.1f} | {pct(values, 99):.1f} |")
    print(f"haki serve memory (RSS, one process): {memory}")


def table_vectors(url: str, per_table: int) -> dict[str, np.ndarray]:
    """A sample of stored vectors per table: the queries are drawn around them."""
    out = {}
    with psycopg.connect(url) as conn:
        register_vector(conn)
        for table in ("facts", "episode_chunks"):
            rows = conn.execute(
                sql.SQL("SELECT embedding FROM {} TABLESAMPLE SYSTEM (1) LIMIT %s").format(
                    sql.Identifier(table)
                ),
                (per_table,),
            ).fetchall()
            out[table] = np.stack([r[0].to_numpy().astype(np.float32) for r in rows])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rows", type=int, default=100_000, help="facts, and as many chunks")
    ap.add_argument("--subjects", type=int, default=1_000)
    ap.add_argument(
        "--big-subject",
        type=int,
        action="append",
        default=[],
        metavar="N",
        help="one more subject with N facts and N chunks (repeatable)",
    )
    ap.add_argument("--queries", type=int, default=200, help="recall queries on random subjects")
    ap.add_argument("--calls", type=int, default=300, help="HTTP context calls (0: none)")
    ap.add_argument(
        "--max-scan-tuples",
        type=int,
        default=0,
        help="hnsw.max_scan_tuples of the recall queries (0: the server's default, 20,000)",
    )
    ap.add_argument("--data-dir", type=Path, help="keep the database here and reuse it")
    ap.add_argument("--shared-buffers", default="2GB", help="shared_buffers of the embedded server")
    args = ap.parse_args()
    print(f"{load()} before")
    with tempfile.TemporaryDirectory(prefix="haki-scale-") as tmp:
        data = args.data_dir or Path(tmp)
        data.mkdir(parents=True, exist_ok=True)
        server = start_embedded(data)
        try:
            with psycopg.connect(server.admin_url, autocommit=True) as admin:
                admin.execute(
                    sql.SQL("ALTER SYSTEM SET shared_buffers = {}").format(
                        sql.Literal(args.shared_buffers)
                    )
                )
            server.stop()
            server = start_embedded(data)
            url = server.admin_url
            upgrade(url)
            total = args.rows + sum(args.big_subject)
            if row_count(url) == total:
                print(f"reusing the {total:,} facts and chunks already in {data}")
            else:
                built = seed(url, args.rows, args.subjects, args.big_subject)
                print(
                    f"{args.rows:,} facts and {args.rows:,} episode chunks across "
                    f"{args.subjects:,} subjects"
                    + "".join(f", plus one subject of {n:,}" for n in args.big_subject)
                    + f": vectors {built.vectors_s:.0f} s, copy {built.copy_s:.0f} s, "
                    f"indexes {sum(built.index_s.values()):.0f} s ("
                    + ", ".join(f"{k} {v:.0f} s" for k, v in built.index_s.items())
                    + ")"
                )
            print("| relation | table | indexes |")
            print("|---|---:|---:|")
            for name, table, index in sizes(url):
                print(f"| {name} | {table} | {index} |")
            print(f"PostgreSQL memory (USS) after ingest: {server_memory(server.pgdata)}")
            vecs = table_vectors(url, 5_000)
            measure_recall(
                url, vecs, args.subjects, args.queries, args.big_subject, args.max_scan_tuples
            )
            if args.calls:
                measure_http(url, args.subjects, args.calls, args.big_subject)
            print(f"PostgreSQL memory (USS) at the end: {server_memory(server.pgdata)}")
        finally:
            server.stop()
    print(f"{load()} after")


if __name__ == "__main__":
    main()
