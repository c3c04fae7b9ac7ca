"""Noisy neighbours: a large capture is cut into jobs of bounded size, projects
take turns at claiming, and job timings are the real ones."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from haki import jobs
from haki.consolidator import Worker, run_pending
from haki.consolidator.worker import CLAIM_BATCH
from haki.jobs import sizing

FACTS = """
SELECT subject_id, predicate, value, qualifiers, status, confidence, version, valid_from,
       valid_to, fact_kind, volatility, reinforcement_count, origin_trust, evidence_span,
       search_text
FROM facts WHERE project_id = %s
ORDER BY subject_id, predicate, valid_from NULLS FIRST, value::text, status"""


async def _queue(db, project: str, subject: str) -> uuid.UUID:
    """A job over no event: it runs in milliseconds, which is all claiming needs."""
    async with db.transaction(project_id=project) as conn:
        return await jobs.enqueue(
            conn, project_id=project, subject_id=subject, event_ids=[str(uuid.uuid4())]
        )


async def test_a_backlog_does_not_hold_back_another_projects_job(db, fake_worker):
    backlog = [await _queue(db, "big", f"s{i}") for i in range(30)]
    small = await _queue(db, "small", "u1")
    ran: list[uuid.UUID] = []
    await run_pending(fake_worker, on_job=lambda r: ran.append(r.job_id))
    assert sorted(ran) == sorted([*backlog, small])
    # Global FIFO ran it 31st; taking turns, it goes right after the backlog's head.
    assert ran.index(small) <= 1, ran.index(small)


async def test_a_job_queued_mid_backlog_waits_at_most_the_claimed_batch(db, fake_worker):
    for i in range(40):
        await _queue(db, "big", f"s{i}")
    ran: list[uuid.UUID] = []
    first = await fake_worker.claim()
    ran += [r.job_id for r in await fake_worker.run_claimed(first)]
    small = await _queue(db, "small", "u1")
    queued_at = len(ran)
    while claimed := await fake_worker.claim():
        ran += [r.job_id for r in await fake_worker.run_claimed(claimed)]
    # The bound, in jobs: one claimed batch in flight, plus one head per other project.
    assert ran.index(small) - queued_at <= 1, ran.index(small) - queued_at
    assert ran.index(small) - queued_at < CLAIM_BATCH


async def test_a_subject_still_runs_in_queue_order_when_projects_take_turns(db, fake_worker):
    mine = [await _queue(db, "big", "same") for _ in range(5)]
    others = [await _queue(db, "other", f"s{i}") for i in range(5)]
    ran: list[uuid.UUID] = []
    await run_pending(fake_worker, on_job=lambda r: ran.append(r.job_id))
    assert [j for j in ran if j in mine] == mine
    assert set(ran) == set(mine + others)


def _turns(n: int, size: int) -> list[dict[str, object]]:
    """A long conversation, facts superseding each other across it, padded to ``size``."""
    cities = ["Lyon", "Paris", "Nantes", "Lille", "Nice", "Brest"]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    turns = []
    for i in range(n):
        text = f"I live in {cities[i % len(cities)]} now." if i % 3 == 0 else f"Turn {i}."
        turns.append(
            {
                "subject_id": "u1" if i % 4 else "u2",
                "kind": "message",
                "occurred_at": (start + timedelta(minutes=i // 2)).isoformat(),
                "payload": {"content": text + " " + "filler words here. " * (size // 20)},
            }
        )
    return turns


async def test_a_large_capture_is_cut_into_bounded_jobs_with_the_same_facts(
    client, db_url, monkeypatch
):
    turns = _turns(36, 600)
    r = await client.post(
        "/v1/capture", json={"events": [{**t, "project_id": "whole"} for t in turns]}
    )
    assert r.status_code == 202, r.text
    monkeypatch.setattr(sizing, "JOB_MAX_BYTES", 4 * 1024)
    r = await client.post(
        "/v1/capture", json={"events": [{**t, "project_id": "cut"} for t in turns]}
    )
    assert r.status_code == 202, r.text
    first = r.json()["consolidation_job_id"]

    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT id, project_id, subject_id, payload FROM jobs ORDER BY seq"
        ).fetchall()
    whole = [row for row in rows if row[1] == "whole"]
    cut = [row for row in rows if row[1] == "cut"]
    assert len(whole) == 1 and len(cut) >= 5
    assert str(cut[0][0]) == first
    assert all(row[2] is not None for row in cut)  # each piece is one subject's
    assert all(row[3]["bytes"] <= 4 * 1024 for row in cut)
    assert sum(len(row[3]["event_ids"]) for row in cut) == len(turns)

    r = await client.post("/v1/consolidate", json={})
    assert r.status_code == 200, r.text
    with psycopg.connect(db_url) as conn:
        facts = {p: conn.execute(FACTS, (p,)).fetchall() for p in ("whole", "cut")}
        done = conn.execute("SELECT count(*) FROM jobs WHERE status = 'done'").fetchone()
    assert done == (len(whole) + len(cut),)
    assert facts["whole"] and facts["cut"] == facts["whole"]


async def test_finished_minus_started_is_how_long_the_job_ran(db, hash_embedder, worker_settings):
    from haki.providers.extraction import FakeExtractor

    async def slow(stage: str) -> None:
        if stage == "chunks":
            await asyncio.sleep(1.0)

    worker = Worker(
        db,
        embedder=hash_embedder,
        extractor=FakeExtractor(),
        settings=worker_settings,
        name="w-slow",
        checkpoint=slow,
    )
    job_id = await _queue(db, "p1", "u1")
    await run_pending(worker)
    async with db.transaction() as conn:
        cur = await conn.execute(
            "SELECT status, claimed_at, started_at, finished_at FROM jobs WHERE id = %s",
            (job_id,),
        )
        row = await cur.fetchone()
    assert row is not None and row["status"] == "done"
    ran = (row["finished_at"] - row["started_at"]).total_seconds()
    assert ran >= 1.0, ran
    assert row["claimed_at"] <= row["started_at"]


@pytest.fixture(autouse=True)
def _default_bounds(monkeypatch):
    monkeypatch.setattr(sizing, "JOB_MAX_BYTES", sizing.JOB_MAX_BYTES)
