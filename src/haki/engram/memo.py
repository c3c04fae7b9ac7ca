"""Index entries kept by content: what building the index derives from one memory file.

Parsing a memory, cutting its fields into terms, the safety scan and its static vector
are most of a cold ``engram load`` (docs/engram.md, "Whole process, cold"). They depend
only on the file's bytes, its path inside the root, the static table and the code that
derives them, so they are stored under a key made of exactly those:

    <memo_dir>/memo-v1.sqlite: (derivation key, sha256 of path and content) -> entry

A changed memory has another content hash, so its old entry is never read again; a
rebuilt table, another release or changed derivation code (the bytes of any ``.py``
of ``haki.engram`` or ``haki.text``, whatever their modification times) gives another
derivation key. What depends on the repository (the lock
file, sources, ignore rules, the scope) is never stored here.
"""

from __future__ import annotations

import json
import marshal
import os
import sys
import time
from pathlib import Path

from .sha import sha256_hex
from .workspace import memo_dir

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MEMO_NAME = "memo-v1.sqlite"
_CHUNK = 500  # names per query, under SQLite's oldest limit on bound parameters
_KEEP = 30 * 86400

_PACKAGES = (Path(__file__).resolve().parent, Path(__file__).resolve().parents[1] / "text")


def _code_digest() -> list[tuple[str, str]]:
    """Each deriving ``.py`` (subfolders included) and the sha256 of its bytes.

    Bytes, not modification times and sizes: an install that pins every mtime
    (reproducible builds, Nix, some wheels) can bring other code of the same
    size. Reading and hashing them costs under a millisecond of CPU
    (about 250 kB), less than a side cache of digests by file status would
    cost to read and keep true."""
    code: list[tuple[str, str]] = []
    for folder in _PACKAGES:
        # Walked paths all start with the resolved folder: the name relative to its
        # parent is a slice (``os.path.relpath`` normalises both paths on every file).
        cut = len(os.path.join(folder.parent, ""))
        for parent, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(parent, name)
                try:
                    with open(path, "rb") as f:
                        digest = sha256_hex(f.read())
                except OSError:
                    continue
                rel = path[cut:].replace(os.sep, "/")
                code.append((rel, digest))
    code.sort()
    return code


def derivation_key(index_version: int) -> str:
    """The index format, the static table, the release and the deriving code's
    bytes, as one short hash."""
    from .. import __version__
    from .semantic import table_signature

    # Entries are stored with ``marshal``, whose format belongs to the interpreter.
    raw = json.dumps([index_version, sys.version, __version__, table_signature(), _code_digest()])
    return sha256_hex(raw.encode())[:16]


class Memo:
    """One derivation key's entries in one SQLite file; never raises (a cache only).

    SQLite rather than a file per entry: a cold build stores every memory of the root
    in one transaction, and a warm one reads them with one query, each several times
    cheaper than as many small files. Entries are ``marshal`` blobs (plain dicts,
    lists, tuples, strings and numbers), which load about three times faster than
    JSON. Concurrent processes are SQLite's business (WAL, a busy timeout); without
    durability (``synchronous=off``), since a lost entry is derived again. A file
    that is not a database any more is removed and made again; any other failure
    leaves this process without a memo (it derives, as on a new machine).
    """

    def __init__(self, key: str | Callable[[], str], read: bool = True) -> None:
        # A callable key (``derivation_key`` hashes the deriving code) is computed on first
        # use: a cold build on a machine without a memo file never needs it.
        self._key = key
        self.read = read
        self._db: Any = None
        self._broken = False

    @property
    def key(self) -> str:
        if not isinstance(self._key, str):
            self._key = self._key()
        return self._key

    def _connect(self, create: bool) -> Any:
        if self._db is not None or self._broken:
            return self._db
        try:  # a home directory that cannot be found or entered: no memo
            path = memo_dir() / MEMO_NAME
            if not create and not path.is_file():
                return None
        except (OSError, RuntimeError):
            self._broken = True
            return None
        try:
            import sqlite3
        except ImportError:  # an interpreter built without it
            self._broken = True
            return None
        for attempt in (1, 2):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(str(path), timeout=5, isolation_level=None)
                db.execute("pragma journal_mode=wal")
                db.execute("pragma synchronous=off")
                db.execute(
                    "create table if not exists entries (key text, name text, written integer,"
                    " entry blob, primary key (key, name))"
                )
            except sqlite3.DatabaseError as exc:
                damaged = not isinstance(exc, sqlite3.OperationalError)
                if damaged and not create:
                    return None  # the same build's ``put_many`` replaces the file
                if damaged and attempt == 1:
                    for suffix in ("", "-wal", "-shm"):
                        try:
                            os.unlink(f"{path}{suffix}")
                        except OSError:
                            continue
                    continue
                self._broken = True
                return None
            except OSError:
                self._broken = True
                return None
            self._db = db
            return db
        return None

    @staticmethod
    def name(rel: str, digest: str) -> str:
        return sha256_hex(f"{rel}\0{digest}".encode())

    def get_many(self, names: list[str]) -> dict[str, dict[str, Any]]:
        """Stored entries by name (``name(rel, digest)``); absent names are not stored."""
        db = self._connect(create=False) if self.read else None
        if db is None or not names:
            return {}
        found: dict[str, dict[str, Any]] = {}
        try:
            for start in range(0, len(names), _CHUNK):
                chunk = names[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    f"select name, entry from entries where key = ? and name in ({marks})",
                    [self.key, *chunk],
                ).fetchall()
                for name, blob in rows:
                    found[name] = marshal.loads(blob)
        except Exception:  # sqlite3.Error or a damaged row: derive again
            return {}
        return found

    def put_many(self, entries: dict[str, dict[str, Any]]) -> None:
        db = self._connect(create=True)
        if db is None or not entries:
            return
        now = int(time.time())
        try:
            db.execute("begin")
            db.executemany(
                "insert or replace into entries values (?, ?, ?, ?)",
                [(self.key, name, now, marshal.dumps(entry)) for name, entry in entries.items()],
            )
            # Entries of older derivation keys (another table, older code) go after a month.
            db.execute(
                "delete from entries where key != ? and written < ?", (self.key, now - _KEEP)
            )
            db.execute("commit")
        except Exception:  # sqlite3.Error (busy past the timeout, disk full): a cache only
            try:  # noqa: SIM105 - contextlib stays unimported on the load path
                db.execute("rollback")  # the connection stays open: leave no write lock behind
            except Exception:  # already failing: the memo is marked broken below
                pass
            self._broken = True
