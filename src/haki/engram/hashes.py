"""Recorded content hashes (``engram.lock.json``): what Engram last accepted.

A memory whose file no longer matches its recorded hash was edited outside
Engram; a source whose file no longer matches marks its memories stale.
Files never recorded are ``untracked``: shown, and listed by ``engram verify``.
"""

from __future__ import annotations

import json
from pathlib import Path

from .record import Record, field
from .sha import sha256_hex
from .workspace import Root, write_atomic


class Lock(Record):
    memories: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)


def sha256_bytes(data: bytes) -> str:
    return sha256_hex(data)


def sha256_file(path: Path) -> str | None:
    try:
        return sha256_bytes(path.read_bytes())
    except OSError:
        return None


def read_lock(root: Root) -> Lock:
    try:
        data = json.loads(root.lock_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Lock()
    return Lock(dict(data.get("memories", {})), dict(data.get("sources", {})))


def write_lock(root: Root, lock: Lock) -> None:
    data = {
        "version": 1,
        "memories": dict(sorted(lock.memories.items())),
        "sources": dict(sorted(lock.sources.items())),
    }
    write_atomic(root.lock_path, json.dumps(data, indent=2) + "\n")


def record(root: Root, rel_paths: dict[str, str], sources: dict[str, str]) -> Lock:
    """Merge new hashes into the lock file and return the result."""
    lock = read_lock(root)
    merged = Lock({**lock.memories, **rel_paths}, {**lock.sources, **sources})
    write_lock(root, merged)
    return merged
