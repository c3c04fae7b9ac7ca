"""Where one context call's CPU goes, in process, on a database seeded by
``context_latency.py --data-dir DIR``.

The latency benchmark times calls over HTTP and prints the CPU per call of
``haki serve`` and of its PostgreSQL; this script splits those two sums. It
starts the embedded server of ``DIR/<workload>`` (stopped, e.g. after a
latency run), builds the app in this process (no HTTP, no worker) and runs
the workload's corpus questions through ``assemble``:

- the server's CPU per call (``time.process_time``), with the query
  embedded, with it cached (the same questions again), and with the trace
  write left out (``--no-trace`` pass): embedding, retrieval and trace,
  each as a difference;
- the query embedding alone (``embed_query``, uncached);
- with ``--statements``, the mean execution time of each SQL statement the
  calls ran, nested ones included (``pg_stat_statements`` with ``track =
  all``, loaded for this run only and unloaded after it).

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_profile.py /tmp/ctx/corpus --statements

Times on a shared machine move with its load (printed): compare only
figures taken in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).parent))
from context_corpus import queries
from context_data import PROJECT, SUBJECT, start_bench_db
from haki.api.app import create_app
from haki.context.assembler import assemble
from haki.context.config import recipe
from haki.context.trace_writer import PendingTrace
from haki.context.types import ContextRequest
from haki.storage.embedded import start_embedded

STATEMENTS = """
SELECT calls, mean_exec_time, rows::float8 / calls,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 100)
FROM pg_stat_statements WHERE calls >= %(calls)s
ORDER BY total_exec_time DESC LIMIT 20"""


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg()[:2])


async def _cpu_per_call(
    run: Callable[[str], Awaitable[Any]], asks: list[str]
) -> tuple[float, float]:
    await asyncio.sleep(0.3)  # the previous pass's trace writes
    cpu, wall = time.process_time(), time.perf_counter()
    for ask in asks:
        await run(ask)
    await asyncio.sleep(0.3)  # this pass's trace writes, counted
    n = len(asks)
    return (time.process_time() - cpu) * 1000 / n, (time.perf_counter() - wall - 0.3) * 1000 / n


async def profile(url: str, n: int, statements: bool) -> None:
    app = create_app(database_url=url, background=False, freeze_heap=True)
    async with app.router.lifespan_context(app):
        state = app.state.haki
        cfg = recipe(state.settings.context_recipe)
        embedder = state.providers.embedder
        traces = state.traces

        async def run(ask: str) -> Any:
            req = ContextRequest(PROJECT, SUBJECT, ask, state.settings.default_budget_tokens)
            return await assemble(state.db, embedder, req, cfg, traces)

        asks = queries(n + 20)
        for ask in asks[:20]:  # warm: pool, plan caches
            await run(ask)
        asks = asks[20:]
        if statements:
            with psycopg.connect(url, autocommit=True) as admin:
                admin.execute("SELECT pg_stat_statements_reset()")
        first = await _cpu_per_call(run, asks)
        cached = await _cpu_per_call(run, asks)
        submit = traces.submit

        async def skip(_: PendingTrace) -> None:
            return None

        traces.submit = skip  # type: ignore[method-assign]
        untraced = await _cpu_per_call(run, asks)
        traces.submit = submit  # type: ignore[method-assign]
        cpu = time.process_time()
        for ask in asks:
            embedder.embed_query(ask + " ?")  # not in the query cache
        embed = (time.process_time() - cpu) * 1000 / len(asks)
        print(f"{len(asks)} questions, load {load()}; haki CPU per call (ms), wall in ()")
        print(f"  query embedded:         {first[0]:6.2f}  ({first[1]:.2f})")
        print(f"  query cached:           {cached[0]:6.2f}  ({cached[1]:.2f})")
        print(f"  cached, no trace write: {untraced[0]:6.2f}  ({untraced[1]:.2f})")
        print(f"  embed_query alone:      {embed:6.2f}")
        if statements:
            print("PostgreSQL, the three passes: calls, mean ms, rows per call, statement")
            with psycopg.connect(url, autocommit=True) as admin:
                for calls, mean, rows, text in admin.execute(STATEMENTS, {"calls": len(asks)}):
                    print(f"  {calls:6d} {mean:7.3f} {rows:8.1f}  {text}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("data", type=Path, help="DIR/<workload> of a context_latency.py --data-dir run")
    ap.add_argument("--queries", type=int, default=150, help="questions per pass")
    ap.add_argument("--statements", action="store_true", help="per-statement SQL times")
    ap.add_argument("--shared-buffers", default="1GB")
    args = ap.parse_args()
    os.environ.setdefault("HAKI_AUTH", "off")
    if args.statements:
        server = start_embedded(args.data)
        with psycopg.connect(server.server.get_uri(), autocommit=True) as admin:
            admin.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
            admin.execute("ALTER SYSTEM SET pg_stat_statements.track = 'all'")
        server.stop()
    server, url = start_bench_db(args.data, args.shared_buffers)
    try:
        if args.statements:
            with psycopg.connect(url, autocommit=True) as admin:
                admin.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        with tempfile.TemporaryDirectory(prefix="haki-profile-") as data_dir:
            os.environ["HAKI_DATA_DIR"] = data_dir
            asyncio.run(profile(url, args.queries, args.statements))
    finally:
        if args.statements:
            with psycopg.connect(server.server.get_uri(), autocommit=True) as admin:
                admin.execute("ALTER SYSTEM RESET shared_preload_libraries")
                admin.execute("ALTER SYSTEM RESET pg_stat_statements.track")
        server.stop()


if __name__ == "__main__":
    main()
