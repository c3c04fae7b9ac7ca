"""Consolidation with 1 and 2 ``haki worker`` processes on the same queue: events/s and the ratio.

Each measurement gets a fresh database on one embedded PostgreSQL. The
worker processes start first (real ``haki worker`` processes: their own
pool, embedder and extractor) and report ready; then the LoCoMo dev turns
are written with their consolidation jobs (one per ``--batch`` turns of a
session, as ``bench/consolidate.py`` queues them) in one transaction, so
every worker sees the whole queue at once. The clock runs from that commit
until every job is ``done``. The settings alternate (1, 2, 2, 1, ...) over
``--rounds`` rounds, so both are measured in the same time window on a
shared machine; the ratio is taken round by round.

    .venv/bin/python bench/consolidate_scaling.py                   # 2 rounds, all 2,760 turns
    .venv/bin/python bench/consolidate_scaling.py --rounds 3 --batch 10 --embed-threads 1
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from haki.storage import Database
from haki.storage.embedded import EmbeddedServer, ensure_database, start_embedded
from haki.storage.migrate import upgrade

sys.path.insert(0, str(Path(__file__).resolve().parent))
from consolidate import cpu_ticks, load_turns, seed


@dataclass(frozen=True, slots=True)
class Run:
    workers: int
    events: int
    jobs: int
    seconds: float
    busy_pct: float | None
    by_worker: dict[str, int]

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} / {five:.2f}"


def start_workers(url: str, n: int, embed_threads: int | None) -> list[subprocess.Popen[str]]:
    env = {
        **os.environ,
        "HAKI_DATABASE_URL": url,
        "HAKI_LLM_PROVIDER": "rules",
        "HAKI_JOB_POLL_INTERVAL_S": "0.1",
        "HAKI_LOG_LEVEL": "warning",
    }
    if embed_threads is not None:
        env["HAKI_EMBED_THREADS"] = str(embed_threads)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "haki.cli", "worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(n)
    ]
    for p in procs:  # each says "worker <name> running" once its pool and providers are up
        assert p.stderr is not None
        line = p.stderr.readline()
        if "running" not in line:
            raise RuntimeError(f"haki worker did not start: {line}{p.stderr.read()[-2000:]}")
    return procs


def stop_workers(procs: list[subprocess.Popen[str]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


def done_jobs(conn: psycopg.Connection) -> tuple[int, int]:
    row = conn.execute(
        "SELECT count(*) FILTER (WHERE status = 'done'), count(*) FILTER (WHERE status = 'failed') "
        "FROM jobs"
    ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


async def queue(url: str, turns: list, batch: int) -> int:
    db = Database(url, min_size=1, max_size=1)
    await db.open()
    try:
        return await seed(db, turns, batch)
    finally:
        await db.close()


def measure(server: EmbeddedServer, name: str, workers: int, args: argparse.Namespace) -> Run:
    ensure_database(server.server.get_uri(), name)
    url = server.server.get_uri(database=name)
    upgrade(url)
    turns = load_turns(args.limit)
    procs = start_workers(url, workers, args.embed_threads)
    try:
        ticks0 = cpu_ticks()
        started = time.perf_counter()
        n_jobs = asyncio.run(queue(url, turns, args.batch))
        with psycopg.connect(url) as conn:
            while True:
                done, failed = done_jobs(conn)
                if done + failed == n_jobs:
                    break
                if any(p.poll() is not None for p in procs):
                    raise RuntimeError("a worker exited during the run")
                time.sleep(0.05)
            seconds = time.perf_counter() - started
            ticks1 = cpu_ticks()
            by_worker = dict(
                conn.execute(
                    "SELECT split_part(claimed_by, ':', 2), count(*) FROM jobs "
                    "WHERE status = 'done' GROUP BY 1 ORDER BY 1"
                ).fetchall()
            )
        if failed:
            raise RuntimeError(f"{failed} jobs failed")
    finally:
        stop_workers(procs)
    busy = (
        round(100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1]), 1)
        if ticks0 and ticks1
        else None
    )
    return Run(workers, len(turns), n_jobs, seconds, busy, by_worker)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--batch", type=int, default=50, help="turns per job (default 50)")
    ap.add_argument("--limit", type=int, help="only the first N turns")
    ap.add_argument(
        "--embed-threads",
        type=int,
        help="HAKI_EMBED_THREADS of each worker (default: the server's, all cores)",
    )
    args = ap.parse_args()
    print(f"load before: {load()}; {os.cpu_count()} CPUs")
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="haki-workers-") as tmp:
        server = start_embedded(Path(tmp))
        try:
            for r in range(args.rounds):
                order = (1, 2) if r % 2 == 0 else (2, 1)
                for workers in order:
                    run = measure(server, f"w{workers}_r{r}", workers, args)
                    log(
                        f"round {r + 1}: {workers} worker(s), {run.events_per_s:.1f} events/s "
                        f"({run.seconds:.1f} s), load {load()}"
                    )
                    runs.append(run)
        finally:
            server.stop()
    first = runs[0]
    threads = args.embed_threads if args.embed_threads is not None else "default"
    print(
        f"{first.events} LoCoMo dev turns in {first.jobs} jobs ({args.batch} turns per job), "
        f"local MiniLM embedder, rules extractor, embed threads per worker: {threads}"
    )
    print("| round | workers | seconds | events/s | machine busy | jobs per worker |")
    print("|---|---:|---:|---:|---:|---|")
    for i, run in enumerate(runs):
        print(
            f"| {i // 2 + 1} | {run.workers} | {run.seconds:.1f} | {run.events_per_s:.1f} "
            f"| {run.busy_pct}% | {', '.join(str(n) for n in run.by_worker.values())} |"
        )
    ratios = []
    for r in range(args.rounds):
        pair = {run.workers: run for run in runs[2 * r : 2 * r + 2]}
        ratios.append(pair[2].events_per_s / pair[1].events_per_s)
    print(
        f"2 workers / 1 worker, events/s: {', '.join(f'{x:.2f}' for x in ratios)} "
        f"(median {statistics.median(ratios):.2f}); load after: {load()}"
    )


if __name__ == "__main__":
    main()
