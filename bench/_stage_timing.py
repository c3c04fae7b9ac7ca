"""Per-stage consolidation timings for the benchmark (``haki.consolidator.stages``).

``time_sql`` counts every statement's round trip as the ``sql`` stage (taken
out of the stage that ran it) by wrapping psycopg's async cursor: a
benchmark-only patch, so the product pays nothing for it. Trees without
the stage timers (a baseline from before them) give no split.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

# The stages in the order the split prints them.
ORDER = (
    "chunking",
    "embedding",
    "extraction",
    "guard",
    "corrections/doubt",
    "identity",
    "apply",
    "sql",
    "maintenance",
)


def stages_module() -> ModuleType | None:
    try:
        return importlib.import_module("haki.consolidator.stages")
    except ImportError:
        return None


def time_sql() -> bool:
    """Count SQL round trips as the ``sql`` stage; False on a tree without stages."""
    stages = stages_module()
    if stages is None:
        return False
    from psycopg import AsyncCursor

    for name in ("execute", "executemany"):
        original = getattr(AsyncCursor, name)

        @functools.wraps(original)
        async def timed(self: Any, *args: Any, _original: Any = original, **kw: Any) -> Any:
            with stages.stage("sql"):
                return await _original(self, *args, **kw)

        setattr(AsyncCursor, name, timed)
    return True


def totals() -> dict[str, list[float]] | None:
    """[wall s, CPU s] per stage so far; None on a tree without the timers."""
    stages = stages_module()
    return None if stages is None else {k: list(v) for k, v in stages.totals().items()}


def dump_after_each_drain(path: Path) -> None:
    """Write the stage totals to ``path`` after each batch of jobs a worker runs
    (the server process's side; ``serve_with_stages``)."""
    from haki.consolidator import worker

    original = worker.Worker.run_claimed

    async def run_claimed(self: Any, *args: Any, **kw: Any) -> Any:
        runs = await original(self, *args, **kw)
        path.write_text(json.dumps(totals()))
        return runs

    worker.Worker.run_claimed = run_claimed  # type: ignore[method-assign]


if __name__ == "__main__":  # haki serve with the timers: python bench/_stage_timing.py [args]
    import sys

    from haki.cli.main import cli

    if time_sql() and (out := os.environ.get("HAKI_BENCH_STAGES")):
        dump_after_each_drain(Path(out))
    cli(["serve", *sys.argv[1:]], prog_name="haki")
