"""Consolidation throughput: events/s and events per CPU-second, with the per-stage split.

    .venv/bin/python bench/consolidate.py                    # all 2,760 LoCoMo dev turns
    .venv/bin/python bench/consolidate.py --limit 500 --batch 1
    .venv/bin/python bench/consolidate.py --workload short --events 10000
    .venv/bin/python bench/consolidate.py --workload short --baseline ../main --dump-facts f.jsonl

``locomo``: LoCoMo dev turns written straight into a fresh database (not
timed), one consolidation job per ``--batch`` turns of a conversation; the
timed part is a worker in this process draining the queue, its extractor
built as the server builds it (the rules with the embedder, so the readers
by meaning). ``--speakers user`` sends the turns as user messages: named
speakers' sentences are not the subject's own, so only then do the readers
by meaning read them.

``short``: ``--events`` short synthetic conversational turns of one subject
(``short_turns.py``), captured over HTTP in batches of 100 into a fresh
``haki serve`` without its in-process worker (not timed); the timed part is
one ``POST /v1/consolidate/subject``. CPU is that of the server and of
PostgreSQL, read from ``/proc``.

Both print the split of the consolidation time per stage
(``haki.consolidator.stages``; SQL round trips counted apart); ``other`` is
what no stage covers (HTTP, claims, the event loop), negative by as much as
the worker's ``embedding ahead`` (the next job's chunks, embedded in a task
beside the job) overlaps the job's stages. ``--baseline DIR`` runs
the same workload on another checkout's ``src`` first, in the same run, and
``--dump-facts FILE`` writes every fact the run produced (ids and clock
times left out) so two trees' facts compare byte for byte (the baseline's go
to ``FILE.baseline``). ``--documents int8|packaged`` sets this side's
document model (``HAKI_EMBED_FAST_DOCUMENTS``; default: the tree's own
default); a baseline keeps its tree's default, so ``--baseline`` of the same
commit with ``--documents packaged`` measures the two document models.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from psycopg.types.json import Jsonb

from haki import jobs
from haki.config import load_settings
from haki.consolidator import Summary, Worker, run_pending
from haki.providers.embed import HashEmbedder, LocalEmbedder
from haki.providers.extraction import build_extractor
from haki.storage import Database
from haki.storage.migrate import upgrade

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _stage_timing
import short_turns
from _cpu import postmaster_pid, tree_cpu_ms
from locomo import DATA, load

# Events per capture call of the short workload, as a client batching a session.
CAPTURE_BATCH = 100
# The short workload's warm-up turn: a fact, and one dated by a span dateparser reads.
WARM_UP = "I live in Oslo. I started playing chess three years ago."
# The data directory of the embedded PostgreSQL this run started (its CPU is read).
PGDATA: Path | None = None

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


def turn_payload(speaker: str, text: str, caption: str | None, speakers: str) -> dict:
    """A LoCoMo turn's event payload: its speaker named, or a user message (``load_turns``)."""
    shared = {"blip_caption": caption} if caption else {}
    if speakers == "named":
        return {"speaker": speaker, "text": text, **shared}
    return {"messages": [{"role": "user", "content": text}], **shared}


def load_turns(
    limit: int | None, conversations: int | None = None, speakers: str = "named"
) -> list[tuple[str, int, dict]]:
    """(conversation, session number, event row) for every dev turn, in order.

    ``speakers``: ``named`` keeps each turn's speaker, as ``bench/locomo.py``
    captures them (the readers by meaning then read none: a named speaker's
    sentences are not taken as the subject's own); ``user`` sends each turn
    as a user message, as an agent capturing its user does, so the readers
    by meaning read them as the short workload's.
    """
    turns, _ = load(DATA, conversations, 0)
    out = []
    for t in turns[:limit] if limit else turns:
        payload = turn_payload(t.speaker, t.text, t.caption, speakers)
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


async def run_locomo(url: str, args: argparse.Namespace) -> dict:
    upgrade(url)
    settings = load_settings(database_url=None, auth="off")
    embedder = (
        HashEmbedder()
        if args.embedder == "hash"
        else LocalEmbedder(
            threads=settings.embed_threads,
            batch_tokens=settings.embed_batch_tokens,
            # The tree's own default unless asked; a tree whose settings do not
            # know the option (an old baseline) gets its embedder's default.
            **_fast_documents(settings, args),
        )
    )
    embedder.embed_query("warm up")  # also builds the int8 model documents may run on
    db = Database(url, min_size=1, max_size=2 * args.workers)
    await db.open()
    try:
        turns = load_turns(args.limit, args.conversations, args.speakers)
        n_jobs = await seed(db, turns, args.batch)
        workers = [
            Worker(
                db,
                embedder=embedder,
                # As the server wires it (providers.bundle): the rules read
                # wishes and facts by meaning with the documents' embedder.
                extractor=build_extractor(settings, embedder),
                settings=settings,
                name=f"bench-{i}",
            )
            for i in range(args.workers)
        ]
        stages_before = _stage_timing.totals()
        t0, cpu0, ticks0 = time.perf_counter(), time.process_time(), cpu_ticks()
        pg0 = tree_cpu_ms(postmaster_pid(PGDATA)) if PGDATA else 0.0
        summaries = await asyncio.gather(*(run_pending(w) for w in workers))
        elapsed, cpu, ticks1 = time.perf_counter() - t0, time.process_time() - cpu0, cpu_ticks()
        pg_cpu = (tree_cpu_ms(postmaster_pid(PGDATA)) - pg0) / 1000 if PGDATA else 0.0
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
        "speakers": args.speakers,
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
        # With PostgreSQL's own CPU (its processes under the postmaster).
        "postgres_cpu_s": round(pg_cpu, 2),
        "events_per_total_cpu_s": round(summary.events / (cpu + pg_cpu), 1) if pg_cpu else None,
        "stages": _split(stages_before, _stage_timing.totals(), elapsed, cpu),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        # Share of all CPUs busy (this process, the database, anything else)
        # while the queue drained: near 100 means the run is CPU-bound.
        "machine_busy_pct": round(100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1]), 1)
        if ticks0 and ticks1
        else None,
    }


SHORT_PROJECT, SHORT_SUBJECT = "bench", "short-1"

# Every fact a run produced, minus what differs between two runs of the same
# workload (ids, clock times, the random event ids): the events a fact came
# from and the fact it supersedes are named by their time and value instead.
# The embedding is compared apart (``same_vectors``): a text's vector moves
# in its last bits with the inference batch it shared, so two trees that
# batch differently never agree byte for byte on it.
FACTS = """
SELECT f.embedding::text AS vector, to_jsonb(f) - 'id' - 'supersedes_id' - 'source_event_ids' - 'recorded_from'
         - 'recorded_to' - 'updated_at' - 'last_reinforced_at' - 'embedding'
       || jsonb_build_object(
            'sources', (SELECT coalesce(jsonb_agg(e.occurred_at ORDER BY e.occurred_at), '[]')
                        FROM events e WHERE e.id = ANY(f.source_event_ids)),
            'supersedes', (SELECT jsonb_build_array(s.predicate, s.value, s.qualifiers)
                           FROM facts s WHERE s.id = f.supersedes_id)) AS fact
FROM facts f"""


def dump_facts(url: str, path: Path) -> int:
    """The facts to ``path`` (sorted JSON lines), their vectors to ``path.vectors``."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = sorted(
            (json.dumps(fact, sort_keys=True), vector)
            for vector, fact in conn.execute(FACTS).fetchall()
        )
    path.write_text("".join(f"{fact}\n" for fact, _ in rows))
    Path(f"{path}.vectors").write_text(json.dumps([json.loads(v) if v else None for _, v in rows]))
    return len(rows)


def vectors_apart(a: Path, b: Path) -> float:
    """The largest cosine distance between the vectors of the same facts in two dumps."""
    import numpy as np

    va, vb = (json.loads(Path(f"{p}.vectors").read_text()) for p in (a, b))
    pairs = [(x, y) for x, y in zip(va, vb, strict=True) if x is not None and y is not None]
    if not pairs:
        return 0.0
    x, y = (np.array(m, dtype=np.float64) for m in zip(*pairs, strict=True))
    cos = (x * y).sum(1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)
    return float((1 - cos).max())


def _split(
    before: dict[str, list[float]] | None,
    after: dict[str, list[float]] | None,
    wall: float,
    cpu: float,
) -> dict[str, list[float]]:
    """[wall s, CPU s] per stage spent between two readings of the stage
    totals, plus ``other``: the rest of the run's ``wall`` and ``cpu``."""
    if before is None or after is None:
        return {}
    spent = {
        k: [a - b for a, b in zip(v, before.get(k, [0.0, 0.0]), strict=True)]
        for k, v in after.items()
    }
    names = [*_stage_timing.ORDER, *sorted(k for k in spent if k not in _stage_timing.ORDER)]
    out = {k: [round(x, 3) for x in spent.get(k, [0.0, 0.0])] for k in names}
    out["other"] = [
        round(wall - sum(v[0] for v in spent.values()), 3),
        round(cpu - sum(v[1] for v in spent.values()), 3),
    ]
    return out


def run_short(url: str, args: argparse.Namespace) -> dict:
    """Capture ``--events`` short turns over HTTP, then time one consolidate call."""
    import httpx

    from _cpu import tree_cpu_ms
    from _server import running_server, server_pid

    upgrade(url)
    stages_file = Path(tempfile.mkdtemp(prefix="haki-stages-")) / "stages.json"
    env = {
        "HAKI_DATABASE_URL": url,
        "HAKI_WORKER_IN_PROCESS": "false",
        "HAKI_BENCH_STAGES": str(stages_file),
        "HAKI_CONSOLIDATE_WAIT_S": "600",
        **(
            {"HAKI_EMBED_PROVIDER": "hash", "HAKI_ALLOW_HASH_EMBEDDER": "true"}
            if args.embedder == "hash"
            else {}
        ),
        **(
            {"HAKI_EMBED_FAST_DOCUMENTS": str(args.documents == "int8").lower()}
            if args.documents
            else {}
        ),
    }
    script = Path(__file__).resolve().parent / "_stage_timing.py"
    rows = short_turns.turns(args.events)
    with (
        running_server(env=env, script=script) as base,
        httpx.Client(base_url=base, timeout=3600) as client,
    ):
        for start in range(0, len(rows), CAPTURE_BATCH):
            events = [
                {
                    "project_id": SHORT_PROJECT,
                    "subject_id": SHORT_SUBJECT,
                    "kind": "conversation.message",
                    "occurred_at": at.isoformat(),
                    "payload": {"messages": [{"role": role, "content": text}]},
                }
                for role, text, at in rows[start : start + CAPTURE_BATCH]
            ]
            r = client.post("/v1/capture", json={"events": events})
            if r.status_code != 202:
                raise RuntimeError(f"capture failed: {r.status_code} {r.text[:300]}")
        # The server's first consolidation loads the embedding model, and its
        # first dated fact dateparser (import, language data, time zones): a
        # tiny subject of its own pays for both, outside the timed call.
        warm = {
            "project_id": SHORT_PROJECT,
            "subject_id": "warm-up",
            "kind": "conversation.message",
            "occurred_at": short_turns.START.isoformat(),
            "payload": {"messages": [{"role": "user", "content": WARM_UP}]},
        }
        client.post("/v1/capture", json={"events": [warm]}).raise_for_status()
        client.post(
            "/v1/consolidate/subject", params={"project_id": SHORT_PROJECT, "subject_id": "warm-up"}
        ).raise_for_status()
        pids = (server_pid(base), postmaster_pid(PGDATA) if PGDATA else None)
        stages_before = json.loads(stages_file.read_text()) if stages_file.exists() else None
        cpu0 = [tree_cpu_ms(p) for p in pids]
        ticks0, t0 = cpu_ticks(), time.perf_counter()
        r = client.post(
            "/v1/consolidate/subject",
            params={"project_id": SHORT_PROJECT, "subject_id": SHORT_SUBJECT},
        )
        elapsed, ticks1 = time.perf_counter() - t0, cpu_ticks()
        cpu1 = [tree_cpu_ms(p) for p in pids]
        r.raise_for_status()
        body = r.json()
        stages_after = json.loads(stages_file.read_text()) if stages_file.exists() else None
    server_cpu, pg_cpu = ((b - a) / 1000 for a, b in zip(cpu0, cpu1, strict=True))
    events = body["events"]
    return {
        "workload": "short",
        "events": events,
        "seconds": round(elapsed, 2),
        "events_per_s": round(events / elapsed, 1),
        "candidates": body["candidates"],
        "actions": body["actions"],
        "rejected": body["rejected"],
        "server_cpu_s": round(server_cpu, 2),
        "postgres_cpu_s": round(pg_cpu, 2),
        "events_per_cpu_s": round(events / server_cpu, 1),
        "events_per_total_cpu_s": round(events / (server_cpu + pg_cpu), 1) if pg_cpu else None,
        "cpus": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "machine_busy_pct": round(100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1]), 1)
        if ticks0 and ticks1
        else None,
        "stages": _split(stages_before, stages_after, elapsed, server_cpu),
    }


def run_side(url: str, args: argparse.Namespace) -> dict:
    if args.workload == "short":
        result = run_short(url, args)
    else:
        _stage_timing.time_sql()
        result = asyncio.run(run_locomo(url, args))
    if args.dump_facts:
        result["facts"] = dump_facts(url, args.dump_facts)
    return result


def _fast_documents(settings: Any, args: argparse.Namespace) -> dict[str, bool]:
    """The LocalEmbedder option for this side's document model."""
    if args.documents:
        return {"fast_documents": args.documents == "int8"}
    known = getattr(settings, "embed_fast_documents", None)
    return {} if known is None else {"fast_documents": known}


def baseline_run(args: argparse.Namespace, argv: list[str]) -> dict:
    """This script on ``--baseline``'s ``src``, in a child process: same workload, other code."""
    own = [
        a
        for i, a in enumerate(argv)
        if a != "--baseline" and (i == 0 or argv[i - 1] != "--baseline")
    ]
    # The baseline embeds documents as its own tree ships them (``--documents``
    # applies to this side only), so the pair measures a change of model too.
    own = [a for a in own if not a.startswith("--baseline=")]
    if "--documents" in own:
        at = own.index("--documents")
        del own[at : at + 2]
    own = [a for a in own if not a.startswith("--documents=")]
    if args.dump_facts:
        own += ["--dump-facts", f"{args.dump_facts}.baseline"]
    env = {**os.environ, "PYTHONPATH": str(args.baseline.resolve() / "src")}
    env.pop("HAKI_EMBED_FAST_DOCUMENTS", None)
    out = subprocess.run(
        [sys.executable, __file__, *own], env=env, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def print_split(results: dict[str, dict]) -> None:
    """Each side's per-stage split as a markdown table: wall and CPU seconds, and shares."""
    names = [n for n in results if results[n].get("stages")]
    if not names:
        return
    seen = {k for n in names for k in results[n]["stages"]}
    keys = [k for k in _stage_timing.ORDER if k in seen]
    keys += [*sorted(k for k in seen if k not in keys and k != "other"), "other"]
    print("\n| stage | " + " | ".join(f"{n} wall s | % | {n} CPU s | %" for n in names) + " |")
    print("|---|" + "---:|---:|---:|---:|" * len(names))
    for k in [*keys, "total"]:
        cells = []
        for n in names:
            stages = results[n]["stages"]
            wall_all = sum(v[0] for v in stages.values())
            cpu_all = sum(v[1] for v in stages.values())
            wall, cpu = (wall_all, cpu_all) if k == "total" else stages.get(k, [0.0, 0.0])
            cells.append(
                f"{wall:.2f} | {100 * wall / wall_all:.0f} | {cpu:.2f} | {100 * cpu / cpu_all:.0f}"
            )
        print(f"| {k} | " + " | ".join(cells) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=["locomo", "short"], default="locomo")
    parser.add_argument(
        "--events", type=int, default=10_000, help="short: turns captured (default 10,000)."
    )
    parser.add_argument("--limit", type=int, help="locomo: only the first N turns.")
    parser.add_argument("--conversations", type=int, help="locomo: only the first N conversations.")
    parser.add_argument("--batch", type=int, default=50, help="locomo: turns per job (default 50).")
    parser.add_argument(
        "--speakers",
        choices=["named", "user"],
        default="named",
        help="locomo: turns keep their speaker's name (as bench/locomo.py captures them), or "
        "go as user messages, which the readers by meaning read.",
    )
    parser.add_argument("--embedder", choices=["local", "hash"], default="local")
    parser.add_argument(
        "--documents",
        choices=["int8", "packaged"],
        help="local: this side's document model (HAKI_EMBED_FAST_DOCUMENTS; default: the "
        "tree's own default); the baseline keeps its tree's default.",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="locomo: workers draining the queue concurrently."
    )
    parser.add_argument(
        "--baseline", type=Path, help="A checkout to run the same workload on first."
    )
    parser.add_argument(
        "--dump-facts", type=Path, help="Write the facts produced, one JSON a line."
    )
    args = parser.parse_args()
    results: dict[str, dict] = {}
    if args.baseline:
        results["baseline"] = baseline_run(args, sys.argv[1:])
    url = os.environ.get("HAKI_DATABASE_URL")
    if url:
        results["this"] = run_side(url, args)
    else:
        from haki.storage.embedded import start_embedded

        global PGDATA
        with tempfile.TemporaryDirectory(prefix="haki-bench-") as tmp:
            server = start_embedded(Path(tmp))
            PGDATA = server.pgdata
            try:
                results["this"] = run_side(server.admin_url, args)
            finally:
                server.stop()
    if args.baseline:
        print_split(results)
        for name, result in results.items():
            print(f"{name}: {json.dumps(result, sort_keys=True)}")
        if args.dump_facts:
            other = Path(f"{args.dump_facts}.baseline")
            same = args.dump_facts.read_bytes() == other.read_bytes()
            print(f"facts identical: {same}")
            if same:
                apart = vectors_apart(args.dump_facts, other)
                print(f"largest cosine distance between their vectors: {apart:.2e}")
    else:
        print_split(results)
    print(json.dumps(results["this"], sort_keys=True))
    return 0 if results["this"]["events"] else 1


if __name__ == "__main__":
    sys.exit(main())
