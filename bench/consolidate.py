"""Consolidation throughput: events/s on LoCoMo dev turns (rules extractor + embedder).

    .venv/bin/python bench/consolidate.py                    # all 2,760 dev turns, local embedder
    .venv/bin/python bench/consolidate.py --limit 500 --batch 1
    HAKI_DATABASE_URL=postgresql://... .venv/bin/python bench/consolidate.py

Events are written straight into a fresh database (not timed), one
consolidation job per ``--batch`` turns of a conversation, as a client
capturing a session in batches would queue them. The timed part is the
worker draining the queue: chunking, embedding, extraction, identity
resolution, fact embedding, one transaction per job.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

from psycopg.types.json import Jsonb

from haki import jobs
from haki.config import load_settings
from haki.consolidator import Summary, Worker, run_pending
from haki.providers.embed import HashEmbedder, LocalEmbedder
from haki.providers.extraction import RulesExtractor
from haki.storage import Database
from haki.storage.migrate import upgrade

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locomo import DATA, load

INSERT_EVENT = """
INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, source, hash, idempotency_key)
VALUES (%(id)s, %(project_id)s, %(subject_id)s, 'conversation.message', %(occurred_at)s, %(payload)s,
        %(source)s, %(hash)s, %(key)s)"""


def cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) jiffies over all CPUs, or None off Linux."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def load_turns(limit: int | None) -> list[tuple[str, int, dict]]:
    """(conversation, session number, event row) for every dev turn, in order."""
    turns, _ = load(DATA, None, 0)
    out = []
    for t in turns[:limit] if limit else turns:
        payload = {
            "speaker": t.speaker,
            "text": t.text,
            **({"blip_caption": t.caption} if t.caption else {}),
        }
        out.append(
            (
                t.sample_id,
                int(t.dia_id[1:].split(":")[0]),
                {
                    "id": uuid.uuid4(),
                    "project_id": "bench",
                    "subject_id": t.sample_id,
                    "occurred_at": t.occurred_at,
                    "payload": Jsonb(payload),
                    "source": Jsonb({"dia_id": t.dia_id}),
                    "hash": f"sha256:{uuid.uuid4().hex}",
                    "key": uuid.uuid4().hex,
                },
            )
        )
    return out


async def seed(db: Database, turns: list[tuple[str, int, dict]], batch: int) -> int:
    groups: dict[tuple[str, int], list[dict]] = {}
    for conv, session, row in turns:
        groups.setdefault((conv, session), []).append(row)
    n_jobs = 0
    async with db.transaction(project_id="bench") as conn:
        async with conn.cursor() as cur:
            await cur.executemany(INSERT_EVENT, [row for _, _, row in turns])
        for (conv, _), rows in groups.items():
            for start in range(0, len(rows), batch):
                part = rows[start : start + batch]
                await jobs.enqueue(
                    conn, project_id="bench", subject_id=conv, event_ids=[r["id"] for r in part]
                )
                n_jobs += 1
    return n_jobs


async def run(url: str, args: argparse.Namespace) -> dict:
    upgrade(url)
    settings = load_settings(database_url=None, auth="off")
    embedder = (
        HashEmbedder()
        if args.embedder == "hash"
        else LocalEmbedder(threads=settings.embed_threads, batch_tokens=settings.embed_batch_tokens)
    )
    embedder.embed_query("warm up")
    db = Database(url, min_size=1, max_size=2 * args.workers)
    await db.open()
    try:
        turns = load_turns(args.limit)
        n_jobs = await seed(db, turns, args.batch)
        workers = [
            Worker(
                db,
                embedder=embedder,
                extractor=RulesExtractor(),
                settings=settings,
                name=f"bench-{i}",
            )
            for i in range(args.workers)
        ]
        t0, cpu0, ticks0 = time.perf_counter(), time.process_time(), cpu_ticks()
        summaries = await asyncio.gather(*(run_pending(w) for w in workers))
        elapsed, cpu, ticks1 = time.perf_counter() - t0, time.process_time() - cpu0, cpu_ticks()
        summary = Summary(
            jobs={"done": sum(s.jobs.get("done", 0) for s in summaries)},
            events=sum(s.events for s in summaries),
            chunks=sum(s.chunks for s in summaries),
            candidates=sum(s.candidates for s in summaries),
            actions=dict(sum((Counter(s.actions) for s in summaries), Counter())),
            rejected=dict(sum((Counter(s.rejected) for s in summaries), Counter())),
        )
    finally:
        await db.close()
    return {
        "events": summary.events,
        "jobs": n_jobs,
        "batch": args.batch,
        "embedder": embedder.name,
        "workers": args.workers,
        "seconds": round(elapsed, 2),
        "events_per_s": round(summary.events / elapsed, 1),
        "chunks": summary.chunks,
        "candidates": summary.candidates,
        "actions": summary.actions,
        "rejected": summary.rejected,
        "cpus": os.cpu_count(),
        # Other processes on a shared machine slow the wall clock, not the
        # CPU time this process spends (embedder threads and pipeline).
        "process_cpu_s": round(cpu, 2),
        "events_per_cpu_s": round(summary.events / cpu, 1),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        # Share of all CPUs busy (this process, the database, anything else)
        # while the queue drained: near 100 means the run is CPU-bound.
        "machine_busy_pct": round(100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1]), 1)
        if ticks0 and ticks1
        else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="Only the first N turns.")
    parser.add_argument("--batch", type=int, default=50, help="Turns per job (default 50).")
    parser.add_argument("--embedder", choices=["local", "hash"], default="local")
    parser.add_argument(
        "--workers", type=int, default=1, help="Workers draining the queue concurrently."
    )
    args = parser.parse_args()
    url = os.environ.get("HAKI_DATABASE_URL")
    if url:
        result = asyncio.run(run(url, args))
    else:
        from haki.storage.embedded import start_embedded

        with tempfile.TemporaryDirectory(prefix="haki-bench-") as tmp:
            server = start_embedded(Path(tmp))
            try:
                result = asyncio.run(run(server.admin_url, args))
            finally:
                server.stop()
    print(json.dumps(result, sort_keys=True))
    return 0 if result["events"] else 1


if __name__ == "__main__":
    sys.exit(main())
