"""The registry of embedding spaces (migration 0120).

A space is the (provider, model, dimensions) that made a vector. A process
registers its embedder's space once at start and gives the id to its
``Database``; from then on its writes are stamped with it and its context
reads compare within it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from .db import Connection, Database

# The recipe (migration 0171) is the latest registering process's: how to
# build the space's embedder, which other processes read to embed in it.
REGISTER = """
INSERT INTO embedding_spaces (provider, model, dimensions, recipe)
VALUES (%(provider)s, %(model)s, %(dimensions)s, %(recipe)s)
ON CONFLICT (provider, model, dimensions)
DO UPDATE SET recipe = coalesce(EXCLUDED.recipe, embedding_spaces.recipe)
RETURNING id"""

PROJECT_SPACE = """
SELECT p.space, s.recipe FROM project_embedding_spaces p
JOIN embedding_spaces s ON s.id = p.space
WHERE p.project_id = %(project_id)s"""

SET_PROJECT_SPACE = """
INSERT INTO project_embedding_spaces (project_id, space) VALUES (%(project_id)s, %(space)s)
ON CONFLICT (project_id) DO UPDATE SET space = EXCLUDED.space, since = now()"""

PROJECT_SPACES = "SELECT project_id, space FROM project_embedding_spaces ORDER BY project_id"

# The project's row alone, read inside a transaction already bound to it.
ACTIVE_SPACE = "SELECT space FROM project_embedding_spaces WHERE project_id = %(project_id)s"

# A project's space held for a transaction: a writer that stamps vectors with
# the space it read holds it shared, a switch exclusive, so no switch commits
# between a writer's read and its commit. A lock, not a row lock: a project
# with no row (the process's space) has nothing to lock. The two-key form
# keeps these apart from the single-key subject locks (storage.locks).
_SPACE_LOCK_CLASS = 0x4853  # any fixed int4
HOLD_SPACE = "SELECT pg_advisory_xact_lock_shared(%(class)s, hashtext(%(project_id)s))"
LOCK_SPACE = "SELECT pg_advisory_xact_lock(%(class)s, hashtext(%(project_id)s))"


class SpaceMoved(Exception):
    """The project's active space is no longer the one a read embedded its
    query in (a switch committed since the read's space was cached)."""


@dataclass(frozen=True, slots=True)
class EmbeddingSpace:
    provider: str
    model: str
    dimensions: int

    def __str__(self) -> str:
        return f"{self.provider}:{self.model}:{self.dimensions}"


async def register_space(
    db: Database, space: EmbeddingSpace, recipe: dict[str, Any] | None = None
) -> int:
    """The id of ``space``, registered if new; also set as ``db``'s space."""
    async with db.transaction(system=True) as conn:
        cur = await conn.execute(
            REGISTER,
            {
                "provider": space.provider,
                "model": space.model,
                "dimensions": space.dimensions,
                "recipe": None if recipe is None else Jsonb(recipe),
            },
        )
        row = await cur.fetchone()
    assert row is not None
    db.embedding_space = int(row["id"])
    return db.embedding_space


async def project_space(db: Database, project_id: str) -> tuple[int, dict[str, Any] | None] | None:
    """The project's active space and its recipe; None: the serving process's space."""
    async with db.transaction(project_id=project_id) as conn:
        cur = await conn.execute(PROJECT_SPACE, {"project_id": project_id})
        row = await cur.fetchone()
    return None if row is None else (int(row["space"]), row["recipe"])


async def lock_space_switch(conn: Connection, project_id: str) -> None:
    """Wait for the project's writers holding its space (``hold_space``), and
    keep new ones out, until ``conn``'s transaction ends. A switch takes it
    before any row lock, as the writers do."""
    await conn.execute(LOCK_SPACE, {"class": _SPACE_LOCK_CLASS, "project_id": project_id})


async def set_project_space(conn: Connection, project_id: str, space: int) -> None:
    """Make ``space`` the project's active space (as the table owner)."""
    await lock_space_switch(conn, project_id)
    await conn.execute(SET_PROJECT_SPACE, {"project_id": project_id, "space": space})


async def hold_space(conn: Connection, project_id: str, own: int | None) -> int | None:
    """The project's active space (its row, else ``own``: the process's),
    unchanged until ``conn``'s transaction ends: a switch waits for it."""
    await conn.execute(HOLD_SPACE, {"class": _SPACE_LOCK_CLASS, "project_id": project_id})
    cur = await conn.execute(ACTIVE_SPACE, {"project_id": project_id})
    row = await cur.fetchone()
    return own if row is None else int(row["space"])


async def hold_written_space(
    conn: Connection, project_id: str, space: int | None, own: int | None
) -> None:
    """Hold the project's space for ``conn``'s transaction (``hold_space``) and
    raise SpaceMoved unless it is ``space``, the one the writer resolved and
    embeds in: a switch that committed since that read is seen here, before
    any vector is stamped. ``space`` None: the process works in its own space
    only (no per-project spaces), and nothing is held."""
    if space is None:
        return
    if await hold_space(conn, project_id, own) != space:
        raise SpaceMoved(project_id)


async def project_spaces(db: Database) -> dict[str, int]:
    """Every project with an active space set, and that space."""
    async with db.transaction(system=True) as conn:
        cur = await conn.execute(PROJECT_SPACES)
        return {r["project_id"]: int(r["space"]) for r in await cur.fetchall()}


async def check_space(conn: Connection, project_id: str, expected: int, own: int | None) -> None:
    """Raise SpaceMoved unless the project's active space (its row, else ``own``:
    the process's space) is ``expected``; one statement in ``conn``'s transaction."""
    cur = await conn.execute(ACTIVE_SPACE, {"project_id": project_id})
    row = await cur.fetchone()
    if (own if row is None else int(row["space"])) != expected:
        raise SpaceMoved(project_id)
