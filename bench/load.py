"""Mixed traffic against ``haki serve --workers N`` on loopback.

Each round starts a fresh server (embedded PostgreSQL in a temp directory,
the local MiniLM embedder unless ``--embedder hash``), seeds ``--subjects``
subjects with a few remembered facts each, then runs every client count in
turn: ``C`` concurrent clients send, for ``--seconds`` or at most
``--max-requests`` calls, a mix of 80% ``POST /v1/context``, 15% ``POST
/v1/capture`` (one turn) and 5% reads (``GET /v1/facts``), each on a random
subject (seeded, so every round replays the same traffic). Printed per
(workers, clients): calls, throughput, p50/p95/p99 of the whole call, errors
(anything not 2xx) and 5xx among them. Auth is off (dev mode): no rate limit
applies, so a 429 would be an error too.

The client runs in this process (one asyncio loop), on the same machine as
the server: on a small machine it takes its share of the cores.

    .venv/bin/python bench/load.py                                   # 1 and 2 workers, 1/8/32/64 clients
    .venv/bin/python bench/load.py --workers 2 --clients 8 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import running_server

PROJECT = "load"
FACTS = (
    "I live in {city}.",
    "I work as a {job}.",
    "My favourite food is {food}.",
    "I am allergic to {allergen}.",
)
CITIES = ("Lyon", "Nantes", "Lisbon", "Osaka", "Quito", "Oslo")
JOBS = ("nurse", "carpenter", "data engineer", "teacher", "pilot")
FOODS = ("ramen", "couscous", "paella", "pho", "tacos")
ALLERGENS = ("peanuts", "pollen", "penicillin", "shellfish")
QUESTIONS = (
    "Where do I live?",
    "What should I cook tonight?",
    "Anything I should avoid eating?",
    "What do I do for a living?",
    "Plan a weekend trip for me.",
)
MIX = (("context", 0.80), ("capture", 0.15), ("read", 0.05))


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} / {five:.2f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def subject(i: int) -> str:
    return f"user-{i:04d}"


def turn(subject_id: str, text: str) -> dict[str, object]:
    return {
        "project_id": PROJECT,
        "subject_id": subject_id,
        "kind": "conversation.message",
        "occurred_at": "2026-11-20T10:00:00Z",
        "payload": {"role": "user", "content": text},
    }


def seed(url: str, subjects: int) -> None:
    rng = random.Random(7)
    with httpx.Client(base_url=url, timeout=300) as c:
        for i in range(subjects):
            texts = [
                FACTS[0].format(city=rng.choice(CITIES)),
                FACTS[1].format(job=rng.choice(JOBS)),
                FACTS[2].format(food=rng.choice(FOODS)),
                FACTS[3].format(allergen=rng.choice(ALLERGENS)),
            ]
            r = c.post("/v1/capture", json={"events": [turn(subject(i), t) for t in texts]})
            r.raise_for_status()
        c.post("/v1/consolidate", json={"project_id": PROJECT}).raise_for_status()


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def all(self) -> list[float]:
        return [ms for values in self.latencies.values() for ms in values]


async def one_call(c: httpx.AsyncClient, rng: random.Random, subjects: int, tally: Tally) -> None:
    kind = rng.choices([k for k, _ in MIX], [w for _, w in MIX])[0]
    who = subject(rng.randrange(subjects))
    started = time.perf_counter()
    try:
        if kind == "context":
            query = rng.choice(QUESTIONS)
            r = await c.post(
                "/v1/context", json={"project_id": PROJECT, "subject_id": who, "query": query}
            )
        elif kind == "capture":
            text = f"Today I talked about {rng.choice(FOODS)} with {rng.choice(CITIES)} friends."
            r = await c.post("/v1/capture", json={"events": [turn(who, text)]})
        else:
            r = await c.get("/v1/facts", params={"project_id": PROJECT, "subject_id": who})
    except httpx.HTTPError as exc:
        tally.failures.append(type(exc).__name__)
        return
    tally.latencies.setdefault(kind, []).append((time.perf_counter() - started) * 1000)
    tally.statuses.append(r.status_code)


async def run(url: str, clients: int, seconds: float, max_requests: int, subjects: int) -> Tally:
    tally = Tally()
    sent = 0
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as c:

        async def client(n: int) -> None:
            nonlocal sent
            rng = random.Random(1000 + n)
            while time.monotonic() < deadline and sent < max_requests:
                sent += 1
                await one_call(c, rng, subjects, tally)

        await asyncio.gather(*(client(n) for n in range(clients)))
    return tally


def row(workers: int, clients: int, tally: Tally, elapsed: float) -> str:
    values = tally.all
    errors = sum(1 for s in tally.statuses if not 200 <= s < 300) + len(tally.failures)
    five = sum(1 for s in tally.statuses if s >= 500)
    if not values:
        return f"| {workers} | {clients} | 0 | - | - | - | - | {errors} | {five} |"
    return (
        f"| {workers} | {clients} | {len(values)} | {len(values) / elapsed:.1f} | "
        f"{pct(values, 50):.1f} | {pct(values, 95):.1f} | {pct(values, 99):.1f} | "
        f"{errors} | {five} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--workers", default="1,2", help="API process counts, comma-separated")
    ap.add_argument("--clients", default="1,8,32,64", help="concurrent clients, comma-separated")
    ap.add_argument("--seconds", type=float, default=15.0, help="per (workers, clients) step")
    ap.add_argument("--max-requests", type=int, default=3000, help="per step, at most")
    ap.add_argument("--subjects", type=int, default=200)
    ap.add_argument("--embedder", choices=("local", "hash"), default="local")
    args = ap.parse_args()
    env = {"HAKI_EMBED_PROVIDER": args.embedder, "HAKI_AUTOCONSOLIDATE": "false"}
    if args.embedder == "hash":
        env["HAKI_ALLOW_HASH_EMBEDDER"] = "true"

    print(f"load average before: {load()}")
    print("| API processes | clients | calls | calls/s | p50 ms | p95 ms | p99 ms | errors | 5xx |")
    print("|---|---|---|---|---|---|---|---|---|")
    for workers in (int(w) for w in args.workers.split(",")):
        with running_server(env=env, args=("--workers", str(workers))) as url:
            seed(url, args.subjects)
            for clients in (int(c) for c in args.clients.split(",")):
                started = time.monotonic()
                tally = asyncio.run(
                    run(url, clients, args.seconds, args.max_requests, args.subjects)
                )
                print(row(workers, clients, tally, time.monotonic() - started), flush=True)
                if tally.failures:
                    print(f"  transport failures: {sorted(set(tally.failures))}", flush=True)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
