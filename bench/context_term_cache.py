"""One context call's CPU with and without the kept term estimates, in one process.

``context_episode_lexical`` (migration 0174) takes the term estimates the
server works out from what an earlier call returned (``context.term_estimates``)
while its statistics keep their token, instead of reading the statistics and
matching every term against the scope's words again. As ``context_one_trip.py`` does
for its option, this script measures the difference where the noise is
smallest: one app, built in this process on a database seeded by
``context_latency.py --data-dir DIR`` (``corpus`` or ``locomo``), answers the
workload's questions in alternating blocks with the cache on, then off (no
estimates handed to the leg: it computes them all, as before 0174; the order
swapped every block), query embeddings warmed beforehand.
Printed per side: the server's CPU per call, PostgreSQL's (``/proc``), wall
p50 / p95, and how many packets came out byte for byte the same.

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_term_cache.py /tmp/ctx/corpus --queries 300
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _cpu import postmaster_pid, tree_cpu_ms
from context_data import PROJECT, start_bench_db
from context_one_trip import BLOCKS, asks_of
from haki.api.app import create_app
from haki.context.assembler import assemble
from haki.context.config import recipe
from haki.context.term_estimates import ESTIMATES, NOTHING_KNOWN
from haki.context.types import ContextRequest


async def compare(url: str, asks: list[tuple[str, str]], postmaster: int | None) -> None:
    app = create_app(database_url=url, background=False, freeze_heap=True)
    known = ESTIMATES.known

    def nothing_known(project_id: str, subject_id: str, terms: Sequence[str]) -> dict[str, Any]:
        return NOTHING_KNOWN

    async with app.router.lifespan_context(app):
        state = app.state.haki
        cfg = recipe(state.settings.context_recipe)
        budget = state.settings.default_budget_tokens

        async def run(ask: tuple[str, str]) -> bytes:
            req = ContextRequest(PROJECT, ask[0], ask[1], budget)
            result = await assemble(state.db, state.providers.embedder, req, cfg, state.traces)
            return result.packet_json

        for ask in asks:  # warm: pool, plan caches, query embeddings
            await run(ask)
        walls: dict[bool, list[float]] = {False: [], True: []}
        cpu = dict.fromkeys((False, True), 0.0)
        db_cpu = dict.fromkeys((False, True), 0.0)
        packets: dict[bool, dict[tuple[str, str], bytes]] = {False: {}, True: {}}
        for block in range(BLOCKS):
            for on in (True, False) if block % 2 else (False, True):
                ESTIMATES.known = known if on else nothing_known  # type: ignore[method-assign]
                await asyncio.sleep(0.05)
                own, db0 = time.process_time(), tree_cpu_ms(postmaster)
                for ask in asks[block::BLOCKS]:
                    t0 = time.perf_counter()
                    packets[on][ask] = await run(ask)
                    walls[on].append((time.perf_counter() - t0) * 1000)
                await state.traces.wait_all()  # each side's trace writes, counted
                cpu[on] += (time.process_time() - own) * 1000
                db_cpu[on] += tree_cpu_ms(postmaster) - db0
        ESTIMATES.known = known  # type: ignore[method-assign]
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg()[:2])
    print(f"{len(asks)} questions a side, load {load}")
    for on in (False, True):
        w = sorted(walls[on])
        print(
            f"  estimates kept={on!s:5}  server CPU {cpu[on] / len(w):6.2f} ms, PostgreSQL "
            f"{db_cpu[on] / len(w):6.2f} ms a call; wall p50 {statistics.median(w):.2f}, "
            f"p95 {w[int(len(w) * 0.95)]:.2f} ms"
        )
    same = sum(packets[True][a] == packets[False][a] for a in packets[True])
    print(f"  packets byte for byte the same: {same} of {len(packets[True])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("data", type=Path, help="DIR/corpus or DIR/locomo of a --data-dir run")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--shared-buffers", default="1GB")
    args = ap.parse_args()
    os.environ.setdefault("HAKI_AUTH", "off")
    server, url = start_bench_db(args.data, args.shared_buffers)
    try:
        pgdata = next(p.parent for p in args.data.rglob("postmaster.pid"))
        with tempfile.TemporaryDirectory(prefix="haki-term-cache-") as data_dir:
            os.environ["HAKI_DATA_DIR"] = data_dir
            asyncio.run(compare(url, asks_of(args.data, args.queries), postmaster_pid(pgdata)))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
