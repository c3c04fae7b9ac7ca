"""PostgreSQL CPU per statement of a context call, read from each backend's ``/proc``.

``context_profile.py --statements`` gives each statement's mean execution
time from ``pg_stat_statements``: wall time inside the backend, which on a
shared two-core machine counts the time the backend waited for a core as
much as the time it computed. This script counts CPU instead. It builds the
app in this process on a database seeded by ``context_latency.py --data-dir
DIR`` (as ``context_profile.py`` does), answers the workload's questions
through ``assemble`` once to warm up (pool, plan caches, query vectors), then
again with every ``execute`` and ``commit`` of psycopg wrapped: the CPU its
backend (``conn.info.backend_pid``) used between sending the statement and
receiving its result, from ``/proc/PID/stat`` (clock ticks, so only the
mean over many calls means anything). Printed per statement: CPU per call,
statements per call, and the text; then the sum beside the CPU every
PostgreSQL process spent in the pass (``/proc``, the postmaster's tree):
what no statement accounts for (background writers, autovacuum, the
backends' idle wake-ups).

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_statement_cpu.py /tmp/ctx/corpus --queries 300

The trace's insert runs after the response, in the trace writer's task; it is
counted, since it shares the cores with the next call.
"""

from __future__ import annotations

import os
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).parent))
from _context_ab import seeded_main, warm_then_measured
from _cpu import tree_cpu_ms

_TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")

# statement text -> [CPU ms, executions], while ``_counting``
_spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
_counting = False


def backend_cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * _TICK_MS


def _key(query: Any) -> str:
    if isinstance(query, bytes | bytearray | memoryview):
        query = bytes(query).decode("utf-8", "replace")
    return re.sub(r"\s+", " ", str(query)).strip()[:90]


def _count(key: str, pid: int, before: float) -> None:
    spent = _spent[key]
    spent[0] += backend_cpu_ms(pid) - before
    spent[1] += 1


def _install() -> None:
    """Wrap psycopg's async ``execute`` and ``commit`` to count their backend's CPU."""
    execute = psycopg.AsyncCursor.execute
    commit = psycopg.AsyncConnection.commit

    async def counted_execute(self: Any, query: Any, params: Any = None, **kw: Any) -> Any:
        if not _counting:
            return await execute(self, query, params, **kw)
        pid = self.connection.info.backend_pid
        before = backend_cpu_ms(pid)
        try:
            return await execute(self, query, params, **kw)
        finally:
            _count(_key(query), pid, before)

    async def counted_commit(self: Any) -> None:
        if not _counting:
            return await commit(self)
        pid = self.info.backend_pid
        before = backend_cpu_ms(pid)
        try:
            return await commit(self)
        finally:
            _count("COMMIT", pid, before)

    psycopg.AsyncCursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.AsyncConnection.commit = counted_commit  # type: ignore[method-assign]


async def measure(url: str, asks: list[tuple[str, str]], postmaster: int | None) -> None:
    spent = [0.0]

    def start() -> None:
        global _counting
        _counting = True
        spent[0] = -tree_cpu_ms(postmaster)

    def stop() -> None:
        global _counting
        spent[0] += tree_cpu_ms(postmaster)
        _counting = False

    await warm_then_measured(url, asks, start, stop)
    total = spent[0]
    n = len(asks)
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg()[:2])
    print(f"{n} calls (query vectors cached), load {load}")
    print("PostgreSQL CPU per call (ms), statements per call, statement")
    counted = 0.0
    for key, (ms, runs) in sorted(_spent.items(), key=lambda kv: -kv[1][0]):
        counted += ms
        print(f"  {ms / n:7.3f}  {runs / n:5.2f}  {key}")
    print(f"  {counted / n:7.3f}         all statements")
    print(f"  {total / n:7.3f}         every PostgreSQL process (/proc)")


def main() -> None:
    seeded_main(__doc__, "haki-statement-cpu-", measure, before=_install)


if __name__ == "__main__":
    main()
