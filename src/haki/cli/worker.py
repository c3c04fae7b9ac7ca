"""Consolidation commands: ``haki worker`` (long-running) and ``haki consolidate`` (drain now)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import click

from ..config import Settings, load_settings

if TYPE_CHECKING:
    from ..consolidator import Worker


@asynccontextmanager
async def _worker(settings: Settings) -> AsyncIterator[Worker]:
    """A Worker on the configured database (embedded or external, migrated) and providers."""
    from ..consolidator import Worker
    from ..consolidator.project_spaces import ProjectSpaces
    from ..consolidator.spaces import use_embedder_space
    from ..observability import tracing
    from ..providers import build_providers
    from ..storage import Database, prepare_database

    tracing.configure(settings)  # job spans, as in the server's own worker
    prepared = await asyncio.to_thread(prepare_database, settings)
    db = Database(prepared.url, min_size=1, max_size=2, timeout=settings.db_timeout_s)
    await db.open()
    try:
        providers = build_providers(settings)
        await use_embedder_space(db, providers.embedder)
        yield Worker(
            db,
            embedder=providers.embedder,
            extractor=providers.extractor,
            settings=settings,
            spaces=ProjectSpaces(db, settings, providers.embedder),
        )
    finally:
        await db.close()
        tracing.flush()
        await asyncio.to_thread(prepared.stop)


@click.command()
def worker() -> None:
    """Claim and run consolidation jobs, and enforce retention policies, until
    SIGINT/SIGTERM (any number may run)."""
    from ..logs import configure_logging
    from ..retention import run_forever as run_retention

    settings = load_settings()
    configure_logging(settings.log_level)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        async with _worker(settings) as w:
            click.echo(f"worker {w.name} running", err=True)
            await asyncio.gather(
                w.run_forever(stop),
                run_retention(
                    w.db,
                    interval_s=settings.retention_interval_s,
                    batch=settings.retention_batch,
                    stop=stop,
                ),
            )

    asyncio.run(main())


@click.command()
@click.option(
    "--all", "backfill", is_flag=True, help="Also queue every event that was never consolidated."
)
@click.option("--project", "project_id", help="Only this project's jobs.")
@click.option("--subject", "subject_id", help="Only this subject's jobs (needs --project).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def consolidate(
    backfill: bool, project_id: str | None, subject_id: str | None, quiet: bool
) -> None:
    """Run pending consolidation jobs now, with a progress bar on stderr; print the counts as JSON."""
    import json

    from rich.console import Console
    from rich.progress import Progress

    from .. import jobs
    from ..consolidator import run_pending
    from ..consolidator.backlog import enqueue_unconsolidated

    if subject_id and not project_id:
        raise click.UsageError("--subject needs --project")
    settings = load_settings()

    async def main() -> dict[str, Any]:
        async with _worker(settings) as w:
            if backfill:
                async with w.db.transaction(system=True) as conn:
                    await enqueue_unconsolidated(conn, project_id=project_id)
            async with w.db.transaction() as conn:
                total = await jobs.count_claimable(
                    conn, project_id=project_id, subject_id=subject_id
                )
            with Progress(console=Console(stderr=True), disable=quiet) as bar:
                task = bar.add_task("Consolidating", total=total)
                summary = await run_pending(
                    w,
                    project_id=project_id,
                    subject_id=subject_id,
                    on_job=lambda _: bar.advance(task),
                )
            return summary.as_json()

    click.echo(json.dumps(asyncio.run(main()), sort_keys=True))


def register(group: click.Group) -> None:
    group.add_command(worker)
    group.add_command(consolidate)
