"""In-process A/B of one context-call option, on a database seeded by ``context_latency.py``.

One app, built in this process on ``DIR/corpus`` or ``DIR/locomo`` of a
``context_latency.py --data-dir DIR`` run, answers the workload's questions
through ``assemble`` in alternating blocks, the option off then on (the order
swapped every block), query embeddings warmed beforehand: over HTTP on a
shared machine a fraction of a millisecond hides in the noise of a same-run
pair, and here it does not. Printed per side: the server's CPU per call
(``time.process_time``), PostgreSQL's (``/proc``, every backend), wall p50 /
p95, and how many packets came out byte for byte the same on both sides.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from _cpu import postmaster_pid, tree_cpu_ms
from context_corpus import queries
from context_data import PROJECT, SUBJECT, start_bench_db
from haki.api.app import create_app
from haki.context.assembler import assemble
from haki.context.config import recipe
from haki.context.types import ContextRequest

BLOCKS = 10

Ask = tuple[str, str]
Measure = Callable[[str, list[Ask], "int | None"], Awaitable[None]]


def asks_of(data: Path, n: int) -> list[Ask]:
    """(subject, question) pairs of the workload seeded in ``data``."""
    if data.name != "locomo":
        return [(SUBJECT, q) for q in queries(n)]
    import locomo

    _, questions = locomo.load(locomo.DATA, None, None)
    every = [(q.sample_id, q.text) for q in questions]
    return [every[int(i * len(every) / n)] for i in range(min(n, len(every)))]


@asynccontextmanager
async def _asking(url: str) -> AsyncIterator[tuple[Any, Callable[[Ask], Awaitable[bytes]]]]:
    """The app built in this process, and a function asking it one question
    (its packet's JSON back)."""
    app = create_app(database_url=url, background=False, freeze_heap=True)
    async with app.router.lifespan_context(app):
        state = app.state.haki
        cfg = recipe(state.settings.context_recipe)
        budget = state.settings.default_budget_tokens

        async def run(ask: Ask) -> bytes:
            req = ContextRequest(PROJECT, ask[0], ask[1], budget)
            result = await assemble(state.db, state.providers.embedder, req, cfg, state.traces)
            return result.packet_json

        yield state, run


async def alternate(
    url: str,
    asks: list[Ask],
    postmaster: int | None,
    switch: Callable[[Any, bool], None],
    label: str,
) -> None:
    """Both sides of ``switch(state, on)`` in alternating blocks; the option is left on."""
    async with _asking(url) as (state, run):
        for ask in asks:  # warm: pool, plan caches, query embeddings
            await run(ask)
        walls: dict[bool, list[float]] = {False: [], True: []}
        cpu = dict.fromkeys((False, True), 0.0)
        db_cpu = dict.fromkeys((False, True), 0.0)
        packets: dict[bool, dict[Ask, bytes]] = {False: {}, True: {}}
        try:
            for block in range(BLOCKS):
                for on in (True, False) if block % 2 else (False, True):
                    switch(state, on)
                    await asyncio.sleep(0.05)
                    own, db0 = time.process_time(), tree_cpu_ms(postmaster)
                    for ask in asks[block::BLOCKS]:
                        t0 = time.perf_counter()
                        packets[on][ask] = await run(ask)
                        walls[on].append((time.perf_counter() - t0) * 1000)
                    await state.traces.wait_all()  # each side's trace writes, counted
                    cpu[on] += (time.process_time() - own) * 1000
                    db_cpu[on] += tree_cpu_ms(postmaster) - db0
        finally:
            switch(state, True)
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg()[:2])
    print(f"{len(asks)} questions a side, load {load}")
    for on in (False, True):
        w = sorted(walls[on])
        print(
            f"  {label}={on!s:5}  server CPU {cpu[on] / len(w):6.2f} ms, PostgreSQL "
            f"{db_cpu[on] / len(w):6.2f} ms a call; wall p50 {statistics.median(w):.2f}, "
            f"p95 {w[int(len(w) * 0.95)]:.2f} ms"
        )
    same = sum(packets[True][a] == packets[False][a] for a in packets[True])
    print(f"  packets byte for byte the same: {same} of {len(packets[True])}")


async def warm_then_measured(
    url: str, asks: list[Ask], start: Callable[[], None], stop: Callable[[], None]
) -> None:
    """Every question once to warm the app (pool, plan caches, query vectors),
    then once more between ``start()`` and ``stop()``, each pass's trace
    writes included."""
    async with _asking(url) as (state, ask):
        for pair in asks:
            await ask(pair)
        await state.traces.wait_all()
        await asyncio.sleep(0.3)
        start()
        for pair in asks:
            await ask(pair)
        await state.traces.wait_all()
        stop()


def seeded_main(
    doc: str | None, prefix: str, measure: Measure, before: Callable[[], None] | None = None
) -> None:
    """The command line every in-process context script shares: DATA, --queries, --shared-buffers."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("data", type=Path, help="DIR/corpus or DIR/locomo of a --data-dir run")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--shared-buffers", default="1GB")
    args = ap.parse_args()
    os.environ.setdefault("HAKI_AUTH", "off")
    server, url = start_bench_db(args.data, args.shared_buffers)
    try:
        pgdata = next(p.parent for p in args.data.rglob("postmaster.pid"))
        if before is not None:
            before()
        with tempfile.TemporaryDirectory(prefix=prefix) as data_dir:
            os.environ["HAKI_DATA_DIR"] = data_dir
            asyncio.run(measure(url, asks_of(args.data, args.queries), postmaster_pid(pgdata)))
    finally:
        server.stop()
