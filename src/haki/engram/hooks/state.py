"""Per-session memory of what a host already received.

One small JSON file per (host, session) under the index cache (never in the
committed tree). Hooks of one session can run at once (two prompts, a
subagent, the asynchronous ``InstructionsLoaded``), so every read-modify-write
holds an exclusive ``flock`` on the session's lock file.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..record import Record, field
from ..sha import sha256_hex
from ..workspace import write_atomic

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any

MAX_AGE_SECONDS = 7 * 24 * 3600


class Session(Record, frozen=False):
    """What a host session has already been given."""

    delivered: list[str] = field(default_factory=list)  # memory ids, in delivery order
    routed: list[str] = field(default_factory=list)  # last prompt's routed set (read: auto)

    def deliver(self, ids: list[str]) -> None:
        self.delivered.extend(i for i in ids if i not in self.delivered)

    def signature(self) -> str:
        return sha256_hex("\n".join(sorted(self.delivered)).encode())[:8]


def session_path(directory: Path, host: str, session_id: str) -> Path:
    digest = sha256_hex(session_id.encode("utf-8", "replace"))[:20]
    return directory / f"{host}-{digest}.json"


class locked:
    """The session stored at ``path``, under the lock; written back on a clean exit.

    A class rather than ``contextlib.contextmanager``: importing ``contextlib`` costs
    every hook process about 0.5 ms."""

    __slots__ = ("_before", "_file", "_path", "_session")

    def __init__(self, path: Path) -> None:
        self._path = path

    def __enter__(self) -> Session:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self._path.with_suffix(".lock"), "a+")  # closed in __exit__
        try:
            _lock(self._file.fileno())
            self._session = _read(self._path)
        except BaseException:
            self._file.close()
            raise
        self._before = _dump(self._session)
        return self._session

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        try:
            if exc_type is None:
                after = _dump(self._session)
                if after != self._before or not self._path.exists():
                    write_atomic(self._path, after)
        finally:
            self._file.close()


def prune(directory: Path, now: float | None = None) -> int:
    """Delete session files untouched for a week; returns how many went."""
    cutoff = (now or time.time()) - MAX_AGE_SECONDS
    removed = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.stat().st_mtime < cutoff:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _read(path: Path) -> Session:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Session()
    if not isinstance(data, dict):
        return Session()
    return Session(
        [str(i) for i in data.get("delivered", []) if isinstance(i, str)],
        [str(i) for i in data.get("routed", []) if isinstance(i, str)],
    )


def _dump(session: Session) -> str:
    return json.dumps(
        {
            "delivered": session.delivered,
            "routed": session.routed,
        }
    )


def _lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # no flock (Windows): concurrent hooks may repeat a body
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
