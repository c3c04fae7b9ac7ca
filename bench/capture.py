"""Capture throughput over HTTP on loopback: batches of events to POST /v1/capture.

Starts its own ``haki serve`` (embedded PostgreSQL in a temp data dir, no
in-process worker, so consolidation does not compete for the CPU) unless
``--base-url`` is given. Every event is new: each batch names a fresh run
id in its payload, so the figure measures writes, not deduplication.

    .venv/bin/python bench/capture.py
    .venv/bin/python bench/capture.py --batches 200 --concurrency 1,2,4,8
    .venv/bin/python bench/capture.py --base-url http://127.0.0.1:8100
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import running_server

START = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Run:
    concurrency: int
    events: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rate(self) -> float:
        return self.events / self.seconds

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def batch(size: int, project: str, serial: int) -> dict:
    run = uuid.uuid4().hex
    subject = f"user-{serial % 50}"
    events = [
        {
            "project_id": project,
            "subject_id": subject,
            "thread_id": f"thread-{serial}",
            "kind": "conversation.message",
            "occurred_at": (START + timedelta(seconds=serial * size + i)).isoformat(),
            "payload": {
                "run": run,
                "messages": [
                    {"role": "user", "content": f"Message {i} of batch {serial}: I moved to Lyon."}
                ],
            },
            "classification": ["bench"],
        }
        for i in range(size)
    ]
    return {"events": events, "idempotency_key": f"bench-{run}"}


async def measure(base_url: str, *, batches: int, size: int, concurrency: int, project: str) -> Run:
    queue: asyncio.Queue[int] = asyncio.Queue()
    for serial in range(batches):
        queue.put_nowait(serial)
    latencies: list[float] = []

    async def worker(client: httpx.AsyncClient) -> None:
        while True:
            try:
                serial = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            body = batch(size, project, serial)
            began = time.perf_counter()
            r = await client.post("/v1/capture", json=body)
            latencies.append((time.perf_counter() - began) * 1000)
            if r.status_code != 202:
                raise RuntimeError(f"capture failed: {r.status_code} {r.text[:200]}")

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as client:
        began = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        seconds = time.perf_counter() - began
    return Run(
        concurrency=concurrency, events=batches * size, seconds=seconds, latencies_ms=latencies
    )


async def main_async(args: argparse.Namespace) -> list[Run]:
    with running_server(args.base_url, env={"HAKI_WORKER_IN_PROCESS": "false"}) as url:
        project = f"bench-{uuid.uuid4().hex[:8]}"
        await measure(
            url, batches=5, size=args.batch_size, concurrency=1, project=project
        )  # warm-up
        return [
            await measure(
                url, batches=args.batches, size=args.batch_size, concurrency=c, project=project
            )
            for c in args.concurrency
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="use a running server instead of starting one")
    parser.add_argument("--batches", type=int, default=100, help="batches per concurrency level")
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument(
        "--concurrency", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2, 4]
    )
    args = parser.parse_args()
    runs = asyncio.run(main_async(args))
    print(f"capture: {args.batches} batches of {args.batch_size} events per row, HTTP on loopback")
    print(
        f"{'clients':>7} {'events':>7} {'seconds':>8} {'events/s':>9} {'p50 ms':>7} {'p99 ms':>7}"
    )
    for run in runs:
        print(
            f"{run.concurrency:>7} {run.events:>7} {run.seconds:>8.2f} {run.rate:>9.0f} "
            f"{statistics.median(run.latencies_ms):>7.1f} {run.percentile(0.99):>7.1f}"
        )


if __name__ == "__main__":
    main()
