"""``haki export`` / ``haki import``: a project's memory as JSON lines, and back."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

import click

from ..config import load_settings
from ..errors import NotFound
from .database import run_with_database

if TYPE_CHECKING:
    from ..storage import Database

T = TypeVar("T")


def _run(work: Callable[[Database, bytes], Awaitable[T]]) -> T:
    """Run ``work(db, receipt_key)`` against the configured database."""
    from ..storage.secrets import RECEIPT_KEY, server_secret

    async def with_key(db: Database) -> T:
        key = await server_secret(db, RECEIPT_KEY, load_settings().receipt_key)
        return await work(db, key)

    return run_with_database(with_key)


@click.command("export")
@click.option("--project", "project_id", required=True, help="The project to export.")
@click.option("--subject", "subject_id", help="Only this subject (default: every subject).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File to write (default: standard output).",
)
def export_command(project_id: str, subject_id: str | None, output: Path | None) -> None:
    """Write a project's (or one subject's) memory as JSON lines: events, episode
    chunks, facts with every version, transitions, conflicts, forget receipts."""
    from ..portability import dump_line, export_lines, subject_exists

    async def work(db: Database, key: bytes) -> None:
        async with db.transaction(project_id=project_id) as conn:
            if subject_id is not None and not await subject_exists(conn, project_id, subject_id):
                raise NotFound(
                    f"project {project_id} holds no event or fact of subject {subject_id}",
                    field="subject_id",
                )
            out: IO[bytes] = output.open("wb") if output else sys.stdout.buffer
            try:
                async for line in export_lines(
                    conn, project_id=project_id, subject_id=subject_id, receipt_key=key
                ):
                    out.write(dump_line(line))
            finally:
                if output:
                    out.close()

    _run(work)


@click.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--project", "project_id", required=True, help="The project to import into.")
@click.option(
    "--reembed",
    is_flag=True,
    help="Embed the file's rows in the project's embedding space when their vectors "
    "are of another (default: refuse such a file).",
)
def import_command(path: Path, project_id: str, reembed: bool) -> None:
    """Replay a `haki export` file into PROJECT, in one transaction. Rows keep their
    ids; rows the project already holds are left as they are, so a second import
    writes nothing. Vectors must be of the project's embedding space (its active
    space, or this process's HAKI_EMBED_* when it has none): a file of another
    space is refused, or with --reembed embedded again in the project's space.
    Prints the rows written, skipped and re-embedded per table as JSON."""
    from ..consolidator.project_spaces import ProjectSpaces
    from ..consolidator.spaces import use_embedder_space
    from ..portability import import_into
    from ..providers.embed import Embedder
    from ..providers.embedders import build_embedder
    from ..storage.spaces import project_space

    settings = load_settings()

    async def work(db: Database, key: bytes) -> dict[str, dict[str, int]]:
        own = build_embedder(settings)
        await use_embedder_space(db, own)
        spaces = ProjectSpaces(db, settings, own)

        async def resolve() -> tuple[int, Embedder | None]:
            # The project's space as every process resolves it before embedding
            # for it; its embedder is built (from the space's recipe) only to use it.
            if reembed:
                space, embedder = await spaces.for_project(project_id)
                assert space is not None  # use_embedder_space gave db its space
                return space, embedder
            found = await project_space(db, project_id)
            space = db.embedding_space if found is None else found[0]
            assert space is not None
            return space, None

        counts = await import_into(
            db,
            lambda: path.open(encoding="utf-8"),
            project_id=project_id,
            receipt_key=key,
            resolve=resolve,
        )
        return {
            "written": counts.written,
            "skipped": counts.skipped,
            "reembedded": counts.reembedded,
        }

    click.echo(json.dumps(_run(work), sort_keys=True))


def register(group: click.Group) -> None:
    group.add_command(export_command)
    group.add_command(import_command)
