"""``haki facts reembed``: rewrite stored facts' text and embedding after the fact rendering changes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from ..config import load_settings

if TYPE_CHECKING:
    from ..consolidator.project_spaces import ProjectSpaces
    from ..consolidator.reembed import Reembedded
    from ..storage import Database

# Reads of a project's space before the command gives up (a switch per read).
SPACE_READS = 3


@click.group()
def facts() -> None:
    """Maintenance of stored facts."""


@facts.command("reembed")
@click.option("--project", "project_id", help="Only this project's facts.")
@click.option("--batch", default=256, show_default=True, help="Facts per transaction.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def reembed(project_id: str | None, batch: int, quiet: bool) -> None:
    """Rewrite the search text and embedding of facts written with an older rendering.

    Facts are embedded as the sentence people would say ("The user lives in
    Lyon.") after the questions it answers; facts stored before that change
    keep "lives in: Lyon" until this runs. Idempotent and resumable: a fact
    whose text is current is left alone. Prints the counts as JSON.
    """
    from rich.console import Console
    from rich.progress import Progress

    from ..consolidator.project_spaces import ProjectSpaces
    from ..consolidator.reembed import count_facts
    from ..consolidator.spaces import projects, use_embedder_space
    from ..providers.embedders import build_embedder
    from ..storage import Database, prepare_database

    settings = load_settings()

    async def main() -> dict[str, int]:
        prepared = await asyncio.to_thread(prepare_database, settings)
        db = Database(prepared.url, min_size=1, max_size=2, timeout=settings.db_timeout_s)
        await db.open()
        try:
            embedder = build_embedder(settings)
            await use_embedder_space(db, embedder)
            # Each project's facts in its own embedding space, by its model.
            spaces = ProjectSpaces(db, settings, embedder)
            total = await count_facts(db, project_id)
            seen = rewritten = 0
            with Progress(console=Console(stderr=True), disable=quiet) as bar:
                task = bar.add_task("Re-embedding facts", total=total)
                for p in [project_id] if project_id else await projects(db):
                    done = await _project(spaces, db, p, batch, lambda n: bar.advance(task, n))
                    seen, rewritten = seen + done.seen, rewritten + done.rewritten
            return {"facts": seen, "rewritten": rewritten}
        finally:
            await db.close()
            await asyncio.to_thread(prepared.stop)

    click.echo(json.dumps(asyncio.run(main()), sort_keys=True))


async def _project(
    spaces: ProjectSpaces, db: Database, project_id: str, batch: int, advance: Callable[[int], None]
) -> Reembedded:
    """One project's facts in its embedding space, read again (up to
    SPACE_READS times) when a model switch lands while it runs: the rewrite
    is idempotent, so a pass in the new space resumes where it stopped."""
    from ..consolidator.reembed import reembed_facts
    from ..storage.db import in_space
    from ..storage.spaces import SpaceMoved

    for _ in range(SPACE_READS):
        space, own = await spaces.for_project(project_id)
        try:
            with in_space(space):
                return await reembed_facts(
                    db, own, project_id=project_id, space=space, batch=batch, on_batch=advance
                )
        except SpaceMoved:
            continue
    raise click.ClickException(
        f"project {project_id!r}: its embedding space kept changing; run this again"
    )


def register(group: click.Group) -> None:
    group.add_command(facts)
