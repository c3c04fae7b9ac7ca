"""``haki embeddings status|reembed``: which embedding space a project's
vectors are in, and moving it to the configured one without stopping it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..config import Settings, load_settings

if TYPE_CHECKING:
    from ..providers.embed import Embedder
    from ..storage import Database

T = TypeVar("T")
# Stage-then-switch rounds per project: a round fails only when the project
# was written between its staging and its switch.
SWITCH_ROUNDS = 5


@click.group()
def embeddings() -> None:
    """Embedding spaces: status and re-embedding into the configured model."""


@asynccontextmanager
async def _opened(settings: Settings) -> AsyncIterator[tuple[Database, Embedder, int]]:
    from ..consolidator.spaces import use_embedder_space
    from ..providers.embedders import build_embedder
    from ..storage import Database, prepare_database

    prepared = await asyncio.to_thread(prepare_database, settings)
    db = Database(prepared.url, min_size=1, max_size=2, timeout=settings.db_timeout_s)
    await db.open()
    try:
        embedder = build_embedder(settings)
        space = await use_embedder_space(db, embedder)
        yield db, embedder, space
    finally:
        await db.close()
        await asyncio.to_thread(prepared.stop)


def _run(work: Callable[[Database, Embedder, int], Awaitable[T]]) -> T:
    settings = load_settings()

    async def main() -> T:
        async with _opened(settings) as (db, embedder, space):
            return await work(db, embedder, space)

    return asyncio.run(main())


@embeddings.command("status")
@click.option("--project", "project_id", help="Only this project.")
def status(project_id: str | None) -> None:
    """Print, as JSON, the registered spaces and, per project, its active space
    (null: the space of the process serving it) and how many vectors are in the
    configured space (HAKI_EMBED_*), staged for it, and in all."""
    from ..consolidator.spaces import progress, projects, spaces
    from ..storage.spaces import project_spaces

    async def work(db: Database, embedder: Embedder, space: int) -> dict[str, Any]:
        chosen = [project_id] if project_id else await projects(db)
        active = await project_spaces(db)
        return {
            "configured_space": space,
            "spaces": await spaces(db),
            "projects": [
                {**(await progress(db, space, p)).as_dict(), "active_space": active.get(p)}
                for p in chosen
            ],
        }

    click.echo(json.dumps(_run(work), sort_keys=True, default=str))


@embeddings.command("reembed")
@click.option("--project", "project_id", help="Only this project (default: every project).")
@click.option("--batch", default=256, show_default=True, help="Rows per transaction.")
@click.option(
    "--switch/--no-switch",
    default=True,
    show_default=True,
    help="Move a project into the new space once every row is staged.",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def reembed(project_id: str | None, batch: int, switch: bool, quiet: bool) -> None:
    """Re-embed projects into the configured space (HAKI_EMBED_*), in the background.

    Servers keep answering from the vectors a project has; the new ones are
    staged beside them, a batch per transaction (interrupt and run again: it
    resumes). Once a project is complete one transaction switches its vectors
    and its active space: from then on every server and worker embeds for it
    in the new space, whatever model they are configured with.
    """
    from rich.console import Console
    from rich.progress import Progress

    from ..consolidator.spaces import progress, projects, stage_project, switch_project

    async def work(db: Database, embedder: Embedder, space: int) -> list[dict[str, Any]]:
        out = []
        for p in [project_id] if project_id else await projects(db):
            before = await progress(db, space, p)
            with Progress(console=Console(stderr=True), disable=quiet) as bar:
                task = bar.add_task(f"Re-embedding {p}", total=sum(before.total.values()))
                bar.advance(task, before.done)

                def advance(n: int, task: Any = task) -> None:
                    bar.advance(task, n)

                moved: dict[str, int] | None = None
                for _ in range(SWITCH_ROUNDS):
                    await stage_project(db, embedder, space, p, batch=batch, on_batch=advance)
                    after = await progress(db, space, p)
                    if not (switch and after.complete):
                        break
                    # None: rows written since the staging; stage them, switch again.
                    moved = await switch_project(db, space, p)
                    if moved is not None:
                        after = await progress(db, space, p)
                        break
            out.append({**after.as_dict(), "switched": moved or {}})
        return out

    click.echo(json.dumps(_run(work), sort_keys=True))


def register(group: click.Group) -> None:
    group.add_command(embeddings)
