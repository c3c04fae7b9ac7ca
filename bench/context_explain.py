"""EXPLAIN (ANALYZE, BUFFERS) of every statement a context call sends, nested
ones included, on a database seeded by ``context_latency.py --data-dir DIR``.

``context_profile.py --statements`` says how long each statement takes on
average; this says where inside it the time goes. It loads ``auto_explain``
for the bench database's new sessions (``ALTER DATABASE ... SET``, reset
after the run), with ``log_analyze``, ``log_buffers`` and
``log_nested_statements`` on and the plans sent to the client as notices,
builds the app in this process as ``context_profile.py`` does, answers the
workload's questions through ``assemble`` (twice: the second pass with the
query vectors cached, which is the one measured) and prints, per statement
text: calls, mean time, mean shared buffers hit and read, mean rows, and
(``--plans``) the plan of the call closest to the statement's median time.

Times include ``auto_explain``'s own timing of every node (a few tens of
per cent on statements of many small nodes): compare statements with each
other, not with ``context_profile.py``'s figures.

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_explain.py /tmp/ctx/corpus --queries 60 --plans 6
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).parent))
from _context_ab import asks_of, warm_then_measured
from context_data import start_bench_db

SETTINGS = {
    "session_preload_libraries": "auto_explain",
    "auto_explain.log_min_duration": "0",
    "auto_explain.log_analyze": "on",
    "auto_explain.log_buffers": "on",
    "auto_explain.log_nested_statements": "on",
    "auto_explain.log_format": "json",
    "auto_explain.log_level": "notice",
}
DURATION = re.compile(r"duration: ([0-9.]+) ms\s+plan:\s*", re.S)

# (statement text, duration ms, plan) of every statement the measured pass ran.
_plans: list[tuple[str, float, dict[str, Any]]] = []
_recording = False


def _notice(diag: Any) -> None:
    text = diag.message_primary or ""
    m = DURATION.match(text)
    if not (m and _recording):
        return
    plan = json.loads(text[m.end() :])
    query = re.sub(r"\s+", " ", plan.get("Query Text", "")).strip()
    _plans.append((query, float(m.group(1)), plan))


def _install_notice_hook() -> None:
    """Every connection opened from here on records auto_explain's notices."""
    base = psycopg.BaseConnection
    original = base._notice_handler

    def handler(wself: Any, res: Any) -> None:
        from psycopg import errors

        _notice(errors.Diagnostic(res, encoding="utf-8"))
        original(wself, res)

    base._notice_handler = staticmethod(handler)  # type: ignore[method-assign]


def _buffers(plan: dict[str, Any]) -> tuple[int, int]:
    node = plan["Plan"]
    return node.get("Shared Hit Blocks", 0), node.get("Shared Read Blocks", 0)


def _text_plan(node: dict[str, Any], depth: int = 0) -> list[str]:
    """A compact text rendering of a JSON plan node and its children."""
    parts = [node["Node Type"]]
    for key in ("Relation Name", "Index Name", "Function Name", "CTE Name", "Subplan Name"):
        if key in node:
            parts.append(f"{key.split()[0].lower()}={node[key]}")
    line = (
        f"{'  ' * depth}{' '.join(parts)}  "
        f"time={node.get('Actual Total Time', 0):.3f} rows={node.get('Actual Rows', 0)}"
        f" loops={node.get('Actual Loops', 0)} hit={node.get('Shared Hit Blocks', 0)}"
        f" read={node.get('Shared Read Blocks', 0)}"
    )
    for key in ("Index Cond", "Filter", "Recheck Cond", "Join Filter", "Order By"):
        if key in node:
            line += f"\n{'  ' * depth}    {key}: {node[key][:160]}"
    out = [line]
    for child in node.get("Plans", []):
        out += _text_plan(child, depth + 1)
    return out


async def run(url: str, asks: list[tuple[str, str]]) -> None:
    def recording(on: bool) -> Callable[[], None]:
        def set_() -> None:
            global _recording
            _recording = on

        return set_

    await warm_then_measured(url, asks, recording(True), recording(False))


def report(n: int, plans: int) -> None:
    by_text: dict[str, list[tuple[float, dict[str, Any]]]] = defaultdict(list)
    for text, ms, plan in _plans:
        by_text[text].append((ms, plan))
    rows = sorted(by_text.items(), key=lambda kv: -sum(ms for ms, _ in kv[1]))
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg()[:2])
    print(f"{n} calls, load {load}; per statement: calls a call, mean ms, hit, read, rows")
    for text, runs in rows:
        hit = statistics.fmean(_buffers(p)[0] for _, p in runs)
        read = statistics.fmean(_buffers(p)[1] for _, p in runs)
        out = statistics.fmean(p["Plan"].get("Actual Rows", 0) for _, p in runs)
        mean = statistics.fmean(ms for ms, _ in runs)
        print(f"  {len(runs) / n:5.2f} {mean:7.3f} {hit:8.1f} {read:6.1f} {out:7.1f}  {text[:110]}")
    for text, runs in rows[:plans]:
        median = statistics.median(ms for ms, _ in runs)
        ms, plan = min(runs, key=lambda r: abs(r[0] - median))
        print(f"\n--- {ms:.3f} ms: {text[:300]}")
        print("\n".join(_text_plan(plan["Plan"])))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("data", type=Path, help="DIR/<workload> of a context_latency.py --data-dir run")
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--plans", type=int, default=6, help="plans printed, costliest first")
    ap.add_argument("--shared-buffers", default="1GB")
    args = ap.parse_args()
    os.environ.setdefault("HAKI_AUTH", "off")
    server, url = start_bench_db(args.data, args.shared_buffers)
    admin_url = server.server.get_uri()
    db = sql.Identifier("haki_bench")
    try:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for name, value in SETTINGS.items():
                admin.execute(
                    sql.SQL("ALTER DATABASE {} SET {} = {}").format(
                        db, sql.Identifier(name), sql.Literal(value)
                    )
                )
        _install_notice_hook()
        asks = asks_of(args.data, args.queries)
        with tempfile.TemporaryDirectory(prefix="haki-explain-") as data_dir:
            os.environ["HAKI_DATA_DIR"] = data_dir
            asyncio.run(run(url, asks))
        report(len(asks), args.plans)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for name in SETTINGS:
                admin.execute(
                    sql.SQL("ALTER DATABASE {} RESET {}").format(db, sql.Identifier(name))
                )
        server.stop()


if __name__ == "__main__":
    main()
