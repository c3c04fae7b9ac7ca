"""Server-side commands: serve, db upgrade."""

from __future__ import annotations

import click

from ..config import load_settings


@click.command()
@click.option("--host", help="Bind address (default HAKI_HOST or 127.0.0.1).")
@click.option("--port", type=int, help="Port (default HAKI_PORT or 8100).")
@click.option(
    "--no-worker", is_flag=True, help="Do not run the consolidation worker in this process."
)
def serve(host: str | None, port: int | None, no_worker: bool) -> None:
    """Start the HTTP API (and an in-process consolidation worker).

    With no HAKI_DATABASE_URL an embedded PostgreSQL + pgvector is started in
    HAKI_DATA_DIR (data kept across restarts) and migrations are applied.
    """
    import uvicorn

    from ..api.app import create_app
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
    app = create_app(settings)
    uvicorn.run(app, host=settings.host, port=settings.port, log_config=None, access_log=False)


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
