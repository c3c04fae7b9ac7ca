"""Server-side commands: serve, db upgrade."""

from __future__ import annotations

import contextlib
import logging
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..config import Settings, load_settings

if TYPE_CHECKING:
    from fastapi import FastAPI


# prometheus_client's own variable (observability.metrics.MULTIPROC_ENV),
# named here so that setting it does not import the library.
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# The parent of ``serve --workers N`` prepares the database once and hands
# its URL to the worker processes through this variable; they skip embedded
# start-up and migrations. It is a handoff between our own processes, not a
# setting (the workers read every HAKI_* setting as usual).
PREPARED_URL_ENV = "_HAKI_SERVE_PREPARED_URL"
# Set when that database is the parent's embedded server: the parent restarts
# it if it dies (``storage.healer``), so the processes only wait and reconnect.
PARENT_HEALS_ENV = "_HAKI_SERVE_PARENT_HEALS"
# How long uvicorn's supervisor waits for a process to answer its ping. It
# keeps its own end of each process's pipe open, so a process that dies
# while a ping is pending is seen only when this wait runs out: it bounds how
# long a process killed at that moment, or hung, goes unreplaced. A process
# answers from a thread started before its app loads, so a slow start-up
# does not need a longer wait.
WORKER_HEALTHCHECK_S = 10


@click.command()
@click.option("--host", help="Bind address (default HAKI_HOST or 127.0.0.1).")
@click.option("--port", type=int, help="Port (default HAKI_PORT or 8100).")
@click.option(
    "--no-worker", is_flag=True, help="Do not run the consolidation worker in this process."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="API processes sharing the port; each runs its own consolidation worker "
    "unless --no-worker. The database (embedded or not) is prepared once, before they start.",
)
def serve(host: str | None, port: int | None, no_worker: bool, workers: int) -> None:
    """Start the HTTP API (and an in-process consolidation worker).

    With no HAKI_DATABASE_URL an embedded PostgreSQL + pgvector is started in
    HAKI_DATA_DIR (data kept across restarts) and migrations are applied.
    With --workers N, N processes serve the same port and database: rate
    limits, job claims and keys are shared through PostgreSQL.
    """
    import uvicorn

    from ..logs import configure_logging

    overrides: dict[str, object] = {}
    if host:
        overrides["host"] = host
    if port:
        overrides["port"] = port
    if no_worker:
        overrides["worker_in_process"] = False
    settings = load_settings(**overrides)
    configure_logging(settings.log_level)
    if settings.log_level == "info":
        # Its start-up lines repeat what Haki's own start-up lines say.
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    # The port is taken before anything starts (database, worker, the
    # "serving on" line), so a busy one stops here with one line.
    sock = claim_port(settings.host, settings.port)
    if workers == 1:
        from ..api.app import create_app

        app = create_app(settings, freeze_heap=True)
        config = uvicorn.Config(
            app, host=settings.host, port=settings.port, log_config=None, access_log=False
        )
        server = uvicorn.Server(config)
        server.run(sockets=[sock])
        if not server.started:  # the app failed to start: uvicorn.run's exit code
            sys.exit(3)
        return
    # uvicorn's supervisor binds the port itself: give it back just before.
    sock.close()
    with shared_metrics_dir():
        _serve_many(settings, workers)


@contextlib.contextmanager
def shared_metrics_dir() -> Iterator[Path]:
    """A fresh directory where every process of ``serve --workers N`` (this one
    included: it counts embedded restarts) writes its metric values, so that a
    scrape answered by any of them adds up all of them; removed on exit.

    ``prometheus_client`` chooses in-memory or file-backed values when first
    imported: the command line leaves it unimported, so this process and the
    ones it starts (which inherit the variable) import it file-backed. A
    directory from the environment is not reused: files a previous run left
    would be added to this run's counts.
    """
    import os
    import shutil
    import tempfile

    if "prometheus_client" in sys.modules:
        # Its values would stay in this process's memory, where no scrape sees them.
        raise RuntimeError("prometheus_client was imported before the metrics directory was set")
    path = Path(tempfile.mkdtemp(prefix="haki-metrics-"))
    os.environ[MULTIPROC_ENV] = str(path)
    try:
        yield path
    finally:
        os.environ.pop(MULTIPROC_ENV, None)
        shutil.rmtree(path, ignore_errors=True)


def claim_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, bound as uvicorn binds it; a busy port is a
    click error (one line, exit 1) naming the address and the settings that move it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc} "
            "(another server there? stop it, or choose --port / HAKI_PORT)"
        ) from None
    sock.set_inheritable(True)
    return sock


def _serve_many(settings: Settings, workers: int) -> None:
    """Prepare the database here, then let uvicorn run ``workers`` app processes."""
    import os

    import uvicorn

    from ..storage.bootstrap import prepare_database
    from ..storage.healer import EmbeddedHealer

    prepared = prepare_database(settings)
    # The processes share one embedded server, which none of them owns: the
    # parent restarts it when its postmaster dies, and they reconnect.
    healer = EmbeddedHealer(prepared.embedded) if prepared.embedded is not None else None
    # The worker processes rebuild settings from the environment: carry the
    # command-line overrides there.
    os.environ["HAKI_HOST"] = settings.host
    os.environ["HAKI_PORT"] = str(settings.port)
    os.environ["HAKI_WORKER_IN_PROCESS"] = "true" if settings.worker_in_process else "false"
    os.environ[PREPARED_URL_ENV] = prepared.url
    os.environ[PARENT_HEALS_ENV] = "1" if healer is not None else ""
    if healer is not None:
        healer.start()
    try:
        uvicorn.run(
            f"{__name__}:worker_app",
            factory=True,
            workers=workers,
            host=settings.host,
            port=settings.port,
            log_config=None,
            access_log=False,
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
        )
    finally:
        if healer is not None:
            healer.stop()
        prepared.stop()


def worker_app() -> FastAPI:
    """The app of one ``serve --workers N`` process, on the parent's prepared database."""
    import os

    from ..api.app import create_app
    from ..logs import configure_logging

    settings = load_settings()
    configure_logging(settings.log_level)
    return create_app(
        settings,
        database_url=os.environ[PREPARED_URL_ENV],
        freeze_heap=True,
        healed_elsewhere=bool(os.environ.get(PARENT_HEALS_ENV)),
    )


@click.group()
def db() -> None:
    """Database management."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply pending migrations (idempotent); start the embedded server if needed."""
    from ..storage.bootstrap import prepare_database
    from ..storage.migrate import current_version

    settings = load_settings()
    prepared = prepare_database(settings, migrate=False)
    try:
        from ..storage.migrate import upgrade

        applied = upgrade(prepared.url)
        for mig in applied:
            click.echo(f"applied {mig.version:04d}_{mig.name}")
        click.echo(f"schema at version {current_version(prepared.url)}")
    finally:
        prepared.stop()


def register(group: click.Group) -> None:
    group.add_command(serve)
    group.add_command(db)
