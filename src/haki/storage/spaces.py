"""The registry of embedding spaces (migration 0120).

A space is the (provider, model, dimensions) that made a vector. A process
registers its embedder's space once at start and gives the id to its
``Database``; from then on its writes are stamped with it and its context
reads compare within it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .db import Database

REGISTER = """
INSERT INTO embedding_spaces (provider, model, dimensions)
VALUES (%(provider)s, %(model)s, %(dimensions)s)
ON CONFLICT (provider, model, dimensions) DO UPDATE SET provider = EXCLUDED.provider
RETURNING id"""


@dataclass(frozen=True, slots=True)
class EmbeddingSpace:
    provider: str
    model: str
    dimensions: int

    def __str__(self) -> str:
        return f"{self.provider}:{self.model}:{self.dimensions}"


async def register_space(db: Database, space: EmbeddingSpace) -> int:
    """The id of ``space``, registered if new; also set as ``db``'s space."""
    async with db.transaction(system=True) as conn:
        cur = await conn.execute(
            REGISTER,
            {"provider": space.provider, "model": space.model, "dimensions": space.dimensions},
        )
        row = await cur.fetchone()
    assert row is not None
    db.embedding_space = int(row["id"])
    return db.embedding_space
