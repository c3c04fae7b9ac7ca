"""Usage log: how often agents fetched each memory with ``engram load --id``."""

from __future__ import annotations

import json
from collections.abc import Iterable

from .workspace import Root, cache_dir, write_atomic

USAGE_NAME = "usage.json"


def read_usage(root: Root) -> dict[str, int]:
    try:
        data = json.loads((cache_dir(root) / USAGE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): int(v) for k, v in data.items() if isinstance(v, int)}


def record_fetch(root: Root, ids: Iterable[str]) -> None:
    counts = read_usage(root)
    for mid in ids:
        counts[mid] = counts.get(mid, 0) + 1
    # A read-only checkout still loads; it just earns no usage bonus.
    try:  # noqa: SIM105 - contextlib stays unimported on the load path
        write_atomic(cache_dir(root) / USAGE_NAME, json.dumps(dict(sorted(counts.items()))))
    except OSError:
        pass
