"""Stage 1 I/O: load a job's events, store their chunks and embeddings.

Chunks are written once per event: an event that already has chunks is
skipped (chunks and the event embedding commit in the job's transaction, so
"has chunks" means "fully chunked"), and ``ON CONFLICT DO NOTHING`` keeps a
concurrent replay harmless.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta, timezone
from typing import Any
from uuid import UUID

import numpy as np

from ..providers.embed import Embedder
from ..providers.extraction.types import EventRow
from ..storage import Connection
from ..text.injection import marks
from .chunking import chunk_event
from .embedding import embed_texts
from .types import Chunk

LOAD_EVENTS = """
SELECT id, org_id, project_id, subject_type, subject_id, kind, occurred_at, occurred_offset, payload,
       origin_trust, actor_type, embedding IS NOT NULL AS has_embedding
FROM events
WHERE project_id = %(project_id)s AND id = ANY(%(ids)s) AND forgotten_at IS NULL
ORDER BY occurred_at, recorded_at, id"""

EVENT_SUBJECTS = """
SELECT DISTINCT subject_id FROM events
WHERE project_id = %(project_id)s AND id = ANY(%(ids)s)
ORDER BY subject_id"""

CHUNKED_EVENTS = """
SELECT DISTINCT event_id FROM episode_chunks
WHERE project_id = %(project_id)s AND event_id = ANY(%(ids)s)"""

INSERT_CHUNK = """
INSERT INTO episode_chunks
    (event_id, ordinal, org_id, project_id, subject_type, subject_id, kind, occurred_at, text, embedding,
     origin_trust, actor_type, marks)
VALUES
    (%(event_id)s, %(ordinal)s, %(org_id)s, %(project_id)s, %(subject_type)s, %(subject_id)s,
     %(kind)s, %(occurred_at)s, %(text)s, %(embedding)s, %(origin_trust)s, %(actor_type)s,
     %(marks)s)
ON CONFLICT (event_id, ordinal, project_id) DO NOTHING"""

# The guard's verdict added to a chunk's marks (``verdict_marks``); the same
# marks again on a replay.
SET_CHUNK_MARKS = """
UPDATE episode_chunks SET marks = %(marks)s
WHERE project_id = %(project_id)s AND event_id = %(event_id)s AND ordinal = %(ordinal)s"""

SET_EVENT_EMBEDDING = """
UPDATE events SET embedding = %(embedding)s
WHERE id = %(id)s AND project_id = %(project_id)s AND embedding IS NULL"""


async def load_events(
    conn: Connection, project_id: str, ids: Sequence[UUID | str]
) -> list[EventRow]:
    cur = await conn.execute(LOAD_EVENTS, {"project_id": project_id, "ids": [str(i) for i in ids]})
    return [_event_row(row) for row in await cur.fetchall()]


def _event_row(row: dict[str, Any]) -> EventRow:
    """The row with ``occurred_at`` on the speaker's clock, the offset it was captured in."""
    offset = row.pop("occurred_offset")
    if offset:
        row["occurred_at"] = row["occurred_at"].astimezone(timezone(timedelta(seconds=offset)))
    return EventRow(**row)


async def event_subjects(conn: Connection, project_id: str, ids: Sequence[UUID | str]) -> list[str]:
    """The subjects of the given events (a job's lock set), without locking anything."""
    cur = await conn.execute(
        EVENT_SUBJECTS, {"project_id": project_id, "ids": [str(i) for i in ids]}
    )
    return [row["subject_id"] for row in await cur.fetchall()]


def event_vector(vectors: np.ndarray) -> np.ndarray:
    """An event's embedding: the normalised mean of its chunks' embeddings."""
    mean = vectors.mean(axis=0)
    unit: np.ndarray = (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)
    return unit


async def pending_chunks(
    conn: Connection, events: Sequence[EventRow]
) -> list[tuple[EventRow, Chunk]]:
    """The chunks of the events not chunked yet, in event then ordinal order."""
    if not events:
        return []
    cur = await conn.execute(
        CHUNKED_EVENTS, {"project_id": events[0].project_id, "ids": [e.id for e in events]}
    )
    done = {row["event_id"] for row in await cur.fetchall()}
    return [(e, c) for e in events if e.id not in done for c in chunk_event(e)]


async def store_chunks(conn: Connection, embedder: Embedder, events: Sequence[EventRow]) -> int:
    """Chunk, embed (one batch for the whole job) and store; return the number of new chunks."""
    chunks = await pending_chunks(conn, events)
    if not chunks:
        return 0
    vectors = await embed_texts(embedder, [c.text for _, c in chunks])
    async with conn.cursor() as cur:
        await cur.executemany(
            INSERT_CHUNK,
            [
                {
                    "event_id": e.id,
                    "ordinal": c.ordinal,
                    "org_id": e.org_id,
                    "project_id": e.project_id,
                    "subject_type": e.subject_type,
                    "subject_id": e.subject_id,
                    "kind": e.kind,
                    "occurred_at": e.occurred_at,
                    "text": c.text,
                    "embedding": vectors[i],
                    "origin_trust": e.origin_trust,
                    "actor_type": e.actor_type,
                    "marks": list(marks(c.text)),
                }
                for i, (e, c) in enumerate(chunks)
            ],
        )
        rows_by_event: dict[UUID, list[int]] = {}
        for i, (e, _) in enumerate(chunks):
            rows_by_event.setdefault(e.id, []).append(i)
        await cur.executemany(
            SET_EVENT_EMBEDDING,
            [
                {
                    "id": e.id,
                    "project_id": e.project_id,
                    "embedding": event_vector(vectors[rows_by_event[e.id]]),
                }
                for e in events
                if not e.has_embedding and e.id in rows_by_event
            ],
        )
    return len(chunks)


async def mark_chunks(
    conn: Connection, project_id: str, marked: Sequence[tuple[UUID, int, tuple[str, ...]]]
) -> None:
    """Store the marks of ``(event_id, ordinal, marks)`` on their chunks."""
    if not marked:
        return
    async with conn.cursor() as cur:
        await cur.executemany(
            SET_CHUNK_MARKS,
            [
                {"project_id": project_id, "event_id": e, "ordinal": o, "marks": list(m)}
                for e, o, m in marked
            ],
        )
