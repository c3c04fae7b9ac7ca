"""The context benchmark's data: each workload's database, seeded once.

``corpus``, ``100k``, ``long`` and ``hostile`` rows are generated from the
template corpus and copied in as the table owner (hnsw indexes built after
the copy); the ``conversational`` and ``locomo`` events are captured and
consolidated through a ``haki serve`` of the version under test, so what
consolidation leaves behind is part of what is measured. A data directory
seeded once is reused by later runs (``--data-dir``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg
from pgvector.psycopg import register_vector

import context_corpus as corpus
import context_workloads as workloads
from _server import running_server
from context_hostile import hostile_queries
from haki.providers.embed import LocalEmbedder

PROJECT, SUBJECT = "bench", "user-1"
NOW = datetime.now(UTC)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# The hnsw indexes of the two tables, as the database's own schema defines
# them (a baseline checkout's may differ: migration 0170 made them partial,
# one per size): dropped before the bulk copy, rebuilt after it.
HNSW_INDEXES = """
SELECT indexname, indexdef FROM pg_indexes
WHERE schemaname = 'public' AND tablename IN ('facts', 'episode_chunks')
  AND indexdef LIKE '% USING hnsw %'
ORDER BY indexname"""


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
        hnsw = conn.execute(HNSW_INDEXES).fetchall()
        for name, _ in hnsw:
            conn.execute(f'DROP INDEX "{name}"')
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
            # One turn per event, 41 minutes apart: a chunk carries its event's time.
            times = [NOW - timedelta(minutes=41 * i) for i in range(rows)]
            with cur.copy(
                "COPY events (id, project_id, subject_id, kind, occurred_at, payload, hash, "
                "idempotency_key) FROM STDIN"
            ) as copy:
                for eid, at in zip(events, times, strict=True):
                    copy.write_row(
                        (
                            eid,
                            PROJECT,
                            SUBJECT,
                            "conversation.message",
                            at,
                            "{}",
                            "sha256:bench",
                            str(eid),
                        )
                    )
            with cur.copy(
                "COPY episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, "
                "text, embedding) FROM STDIN"
            ) as copy:
                for (_, text), vec, eid, at in zip(turns, turn_vecs, events, times, strict=True):
                    copy.write_row(
                        (
                            eid,
                            0,
                            PROJECT,
                            SUBJECT,
                            "conversation.message",
                            at,
                            text,
                            vec,
                        )
                    )
        log(f"copied rows in {time.perf_counter() - t0:.1f}s; building hnsw indexes")
        t0 = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '1GB'")
        for _, ddl in hnsw:
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


def serve_env(url: str) -> dict[str, str]:
    # No in-process worker: nothing runs in the background while measuring,
    # and a consolidate call runs every job itself.
    return {"HAKI_DATABASE_URL": url, "HAKI_WORKER_IN_PROCESS": "false"}


def baseline_python(baseline: Path) -> str:
    return str(baseline / ".venv" / "bin" / "python")


def baseline_upgrade(baseline: Path, url: str) -> None:
    """Bring a database to the baseline checkout's schema, with its own migrations."""
    code = "import sys; from haki.storage.migrate import upgrade; upgrade(sys.argv[1])"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # its own code
    subprocess.run([baseline_python(baseline), "-c", code, url], check=True, env=env)


@dataclass(frozen=True)
class Seeded:
    """What a seeded workload asks, and what it knows of the answers."""

    asks: list[workloads.Ask]
    warm: list[workloads.Ask]  # warm-up asks, never measured
    desc: str
    # conversational: each answerable question's answering events
    answers: workloads.Answers = field(default_factory=dict)


def seed_workload(
    name: str,
    url: str,
    args: argparse.Namespace,
    embedder: LocalEmbedder,
    python: str | None = None,
) -> Seeded:
    """Seed the database for one workload; return what it asks.

    Events are captured and consolidated through a server run by ``python``
    (None: this checkout's)."""
    wanted = args.queries * args.rounds
    if name in ("corpus", "100k", "long", "hostile"):
        rows = args.rows if name == "corpus" else 100_000
        mode = args.vectors or ("real" if rows <= 20_000 else "topic")
        if scope_size(url) >= rows:
            log("reusing the facts already in the bench scope")
        else:
            seed(url, rows, mode, embedder)
        ask = {"long": corpus.long_queries, "hostile": hostile_queries}.get(name, corpus.queries)
        every = ask(wanted)
        warm = ask(20, seed=99, avoid=frozenset(every))
        asks = [workloads.Ask(SUBJECT, q) for q in every]
        desc = f"{rows:,} facts + {rows:,} episode chunks, one scope ({mode} vectors)"
        if name == "long":
            desc += ", asked long messages (2–5 of its own sentences)"
        if name == "hostile":
            desc += ", asked hostile text (noise, numbers, letters, logs, symbols, repeats)"
        return Seeded(asks, [workloads.Ask(SUBJECT, q) for q in warm], desc)
    env = serve_env(url)
    seeded = chunk_count(url) > 0
    if seeded:
        log(f"reusing the {name} workload already in {url}")
    t0 = time.perf_counter()
    if name == "conversational":
        events = workloads.conversational_events(args.events)
        if not seeded:
            with (
                running_server(env=env, python=python) as base,
                httpx.Client(base_url=base, timeout=60) as c,
            ):
                workloads.capture(c, PROJECT, SUBJECT, [(at, {"text": t}) for at, t in events])
            log(
                f"captured and consolidated {len(events):,} events in {time.perf_counter() - t0:.0f}s"
            )
        questions = workloads.conversational_questions(wanted + 20)
        asks = [workloads.Ask(SUBJECT, q) for q in questions]
        desc = (
            f"{len(events):,} short third-person events in one subject, captured and consolidated"
        )
        answers = workloads.conversational_answers([t for _, t in events], questions[20:])
        return Seeded(asks[20:], asks[:20], desc, answers)
    import locomo

    turns, questions = locomo.load(locomo.DATA, None, None)
    by_subject: dict[str, list[tuple[datetime, dict[str, str]]]] = {}
    for t in turns:
        payload = {"speaker": t.speaker, "text": t.text}
        if t.caption:
            payload["blip_caption"] = t.caption
        by_subject.setdefault(t.sample_id, []).append((t.occurred_at, payload))
    if not seeded:
        with (
            running_server(env=env, python=python) as base,
            httpx.Client(base_url=base, timeout=60) as c,
        ):
            for subject, events in by_subject.items():
                workloads.capture(c, PROJECT, subject, events)
        log(
            f"captured and consolidated {len(turns):,} LoCoMo turns in {time.perf_counter() - t0:.0f}s"
        )
    asks = workloads.spread([workloads.Ask(q.sample_id, q.text) for q in questions], wanted + 20)
    sizes = sorted(len(v) for v in by_subject.values())
    desc = f"LoCoMo dev: {len(sizes)} scopes of {sizes[0]}–{sizes[-1]} turns, their own questions"
    return Seeded(asks[20:], asks[:20], desc)


def chunk_count(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM episode_chunks WHERE project_id = %s", (PROJECT,)
        ).fetchone()
    return row[0] if row else 0


def start_bench_db(data: Path, shared_buffers: str) -> tuple[Any, str]:
    """The embedded server in ``data`` with ``shared_buffers``, and the bench database URL."""
    from haki.storage.embedded import ensure_database, start_embedded

    server = start_embedded(data)
    with psycopg.connect(server.server.get_uri(), autocommit=True) as admin:
        admin.execute(
            psycopg.sql.SQL("ALTER SYSTEM SET shared_buffers = {}").format(
                psycopg.sql.Literal(shared_buffers)
            )
        )
    server.stop()
    server = start_embedded(data)
    ensure_database(server.server.get_uri(), "haki_bench")
    return server, server.server.get_uri(database="haki_bench")


def copy_data_dir(source: Path, target: Path) -> None:
    """A stopped server's data directory, copied with its owners (``cp -a``)."""
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)
    (target / "pg" / ".handle_pids.json").unlink(missing_ok=True)


# Workloads whose events go through capture and consolidation (each version
# seeds its own database); the others are copied in.
CAPTURED = ("conversational", "locomo")
