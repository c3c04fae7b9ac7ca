"""``haki import`` stamps vectors with the project's space as its own
transaction sees it: a switch that commits between the import's read of the
space and its write is seen (the space is read again), and a switch that
comes during the import waits for it to commit."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterable
from contextlib import AbstractContextManager

import psycopg

from haki.portability import import_into
from haki.providers.embed import Embedder
from haki.storage import Database
from haki.storage.spaces import EmbeddingSpace, hold_space, register_space, set_project_space

PROJECT = "prj_import_space"
# A whole export with no rows: the import runs its transaction and writes nothing.
EMPTY = [
    json.dumps({"kind": "header", "format": "haki.export", "version": 1, "spaces": {}}),
    json.dumps({"kind": "end", "counts": {}}),
]


def lines() -> AbstractContextManager[Iterable[str]]:
    return io.StringIO("\n".join(EMPTY) + "\n")


async def two_spaces(db: Database) -> tuple[int, int]:
    """(other, own): ``db`` serves in ``own``."""
    other = await register_space(db, EmbeddingSpace("hash", "other", 16))
    own = await register_space(db, EmbeddingSpace("hash", "own", 16))
    return other, own


async def test_a_switch_between_the_read_and_the_write_is_read_again(
    db: Database, db_url: str
) -> None:
    other, own = await two_spaces(db)
    resolved: list[int] = []

    async def resolve() -> tuple[int, Embedder | None]:
        # The project has no row: the read finds the process's space. Then,
        # before the import's transaction, another process switches it.
        space = own if not resolved else other
        resolved.append(space)
        if len(resolved) == 1:
            with psycopg.connect(db_url) as conn:
                conn.execute(
                    "INSERT INTO project_embedding_spaces (project_id, space) VALUES (%s, %s)",
                    (PROJECT, other),
                )
        return space, None

    counts = await import_into(db, lines, project_id=PROJECT, receipt_key=b"k", resolve=resolve)
    assert resolved == [own, other]  # the stale read was not used to write
    assert sum(counts.written.values()) == 0


async def test_a_switch_waits_for_an_import_holding_the_space(db: Database) -> None:
    other, own = await two_spaces(db)
    switched = asyncio.Event()

    async def switch() -> None:
        async with db.transaction(system=True) as conn:
            await set_project_space(conn, PROJECT, other)
        switched.set()

    async with db.transaction(project_id=PROJECT) as conn:
        assert await hold_space(conn, PROJECT, db.embedding_space) == own
        task = asyncio.create_task(switch())
        await asyncio.sleep(1.0)
        # Still the import's space: the switch waits at the lock.
        assert not switched.is_set()
        assert await hold_space(conn, PROJECT, db.embedding_space) == own
    await asyncio.wait_for(task, 30)
    async with db.transaction(project_id=PROJECT) as conn:
        assert await hold_space(conn, PROJECT, db.embedding_space) == other
