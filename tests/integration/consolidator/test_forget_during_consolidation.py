"""Forget while a worker consolidates the same subject: no deadlock, no 503, and
nothing of the subject is left once both are done."""

from __future__ import annotations

import asyncio

import pytest

from haki.config import load_settings
from haki.consolidator import Worker, run_pending
from haki.providers.extraction import RulesExtractor

TURNS = ["My name is Alice Martin.", "I live in Annecy.", "I work at Initech.", "I love hiking."]
TABLES = ("events", "episode_chunks", "facts", "jobs", "context_traces")


def _events(minute: int) -> list[dict]:
    return [
        {
            "project_id": "p1",
            "subject_id": "alice",
            "kind": "conversation.message",
            "occurred_at": f"2026-05-01T12:{minute:02d}:{i:02d}Z",
            "payload": {"text": text},
        }
        for i, text in enumerate(TURNS)
    ]


async def _left(db) -> dict[str, int]:
    async with db.transaction(system=True) as conn:
        counts = {}
        for table in TABLES:
            cur = await conn.execute(
                f"SELECT count(*) AS n FROM {table} WHERE subject_id = 'alice'"
            )
            row = await cur.fetchone()
            counts[table] = row["n"]
    return counts


@pytest.mark.parametrize("delay_s", [1.2, 0.3, 0.0])
async def test_forget_racing_a_consolidation_never_deadlocks(client, db, hash_embedder, delay_s):
    settings = load_settings(auth="off", database_url=None, worker_test_delay_s=delay_s)
    worker = Worker(
        db, embedder=hash_embedder, extractor=RulesExtractor(), settings=settings, name="racer"
    )
    for round_ in range(2):
        r = await client.post("/v1/capture", json={"events": _events(round_)})
        assert r.status_code == 202
        running = asyncio.create_task(run_pending(worker, project_id="p1"))
        # Let the worker claim and write its chunks (it pauses there for delay_s).
        await asyncio.sleep(0.15 + delay_s / 3)
        for mode in ("disable", "delete"):
            r = await client.post(
                "/v1/forget", json={"project_id": "p1", "subject_id": "alice", "mode": mode}
            )
            assert r.status_code == 200, r.text
        await running
        assert await _left(db) == dict.fromkeys(TABLES, 0)
