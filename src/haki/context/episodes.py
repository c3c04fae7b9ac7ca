"""Episodic memory: the scope's episode chunks nearest to the query (hnsw, cosine).

Packed after facts, in what is left of the same budget. With ``as_of`` only
events that had occurred by then are eligible. ``LIMIT 0`` (episode_top_k = 0)
turns episodes off.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

import numpy as np

from ..storage import Connection
from .config import RetrievalConfig
from .types import EpisodeRow

NEAREST_CHUNKS = """
SELECT c.id, c.event_id, c.kind AS event_kind, c.occurred_at, c.text,
       (c.embedding <=> %(vec)s)::float8 AS distance
FROM episode_chunks c
WHERE c.project_id = %(project_id)s AND c.subject_id = %(subject_id)s
  AND c.occurred_at <= %(at)s
ORDER BY c.embedding <=> %(vec)s
LIMIT %(k)s"""


async def nearest_episodes(
    conn: Connection, project_id: str, subject_id: str, at: datetime, vec: np.ndarray, cfg: RetrievalConfig
) -> Callable[[], Awaitable[list[EpisodeRow]]]:
    """Send the query now, read it later (see ``candidates.fact_candidates``)."""
    params = {"project_id": project_id, "subject_id": subject_id, "at": at, "vec": vec, "k": cfg.episode_top_k}
    cur = await conn.execute(NEAREST_CHUNKS, params)

    async def collect() -> list[EpisodeRow]:
        return [EpisodeRow(**rec) for rec in await cur.fetchall()]

    return collect
