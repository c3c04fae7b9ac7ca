"""What reading a project's active embedding space costs a context call.

Every context call, job and fact write reads the project's row of
``project_embedding_spaces`` (migration 0171) before it embeds
(``consolidator.project_spaces``). This times that read alone, on a fresh
embedded database, for a project without a row (the common case: the
process's own space) and one with a row, through the application's pool,
beside an empty transaction (``SELECT 1``) of the same pool, interleaved.
``+ check`` is that transaction with the check a context call on a cached
space runs in its fact transaction (``storage.spaces.check_space``): the
difference from ``SELECT 1`` is what the check adds to a call.

    .venv/bin/python bench/project_space_lookup.py [--calls 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from haki.config import load_settings
from haki.consolidator.project_spaces import ProjectSpaces
from haki.providers.embed import HashEmbedder
from haki.storage import Database, prepare_database
from haki.storage.spaces import EmbeddingSpace, check_space, register_space, set_project_space


async def measure(url: str, calls: int) -> dict[str, tuple[float, float]]:
    db = Database(url, min_size=2, max_size=2)
    await db.open()
    try:
        other = await register_space(db, EmbeddingSpace("hash", "other", 768), {"provider": "hash"})
        async with db.transaction(system=True) as conn:
            await set_project_space(conn, "moved", other)
        embedder = HashEmbedder()
        own = await register_space(db, EmbeddingSpace(*embedder.space), {"provider": "hash"})
        spaces = ProjectSpaces(db, load_settings(embed_provider="hash"), embedder)
        spaces._built[other] = embedder  # timing the read, not building an embedder
        out = {}

        async def empty(project: str) -> None:
            async with db.transaction(project) as conn:
                await conn.execute("SELECT 1")

        async def checked(project: str) -> None:
            async with db.transaction(project) as conn:
                await conn.execute("SELECT 1")
                await check_space(conn, project, own, own)

        # Interleaved, so the load is the same for all.
        runs = {
            "own": spaces.for_project,
            "moved": spaces.for_project,
            "SELECT 1": empty,
            "+ check": checked,
        }
        timed: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(calls):
            for name, call in runs.items():
                start = time.perf_counter()
                await call(name if name in ("own", "moved") else "own")
                timed[name].append((time.perf_counter() - start) * 1000)
        for project, times in timed.items():
            times.sort()
            out[project] = (statistics.median(times), times[int(0.95 * (len(times) - 1))])
        return out
    finally:
        await db.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="haki-space-") as data_dir:
        settings = load_settings(data_dir=Path(data_dir), embed_provider="hash")
        prepared = prepare_database(settings)
        try:
            results = asyncio.run(measure(prepared.url, args.calls))
        finally:
            prepared.stop()
    for project, (p50, p95) in results.items():
        print(f"{project:>8}: p50 {p50:.3f} ms, p95 {p95:.3f} ms over {args.calls} reads")


if __name__ == "__main__":
    main()
