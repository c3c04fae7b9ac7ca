"""Consolidate means done: the call returns once the scope's queued jobs are finished,
including jobs another worker (here, a worker racing in the same process) holds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from uuid import UUID

import httpx
import pytest

from haki.api.app import create_app
from haki.config import load_settings
from haki.consolidator import Worker
from haki.providers.extraction import RulesExtractor
from haki.storage import Database


def event(text: str, minute: int, subject: str = "u1") -> dict:
    return {
        "project_id": "p1",
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": f"2024-05-01T12:{minute:02d}:00Z",
        "payload": {"text": text},
    }


async def _client(db_url, providers, **overrides) -> AsyncIterator[httpx.AsyncClient]:
    settings = load_settings(auth="off", database_url=None, **overrides)
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://haki.test") as c,
    ):
        yield c


@pytest.fixture
async def api(db_url, providers):
    async for c in _client(db_url, providers):
        yield c


@pytest.fixture
async def impatient_api(db_url, providers):
    async for c in _client(db_url, providers, consolidate_wait_s=0.3):
        yield c


async def _racing_worker(
    db: Database, hash_embedder, delay_s: float
) -> tuple[Worker, asyncio.Task]:
    """A worker that pauses ``delay_s`` mid-job, so it still holds a job when the call comes."""
    settings = load_settings(auth="off", database_url=None, job_poll_interval_s=0.05)

    async def pause(stage: str) -> None:
        if stage == "chunks":
            await asyncio.sleep(delay_s)

    worker = Worker(
        db,
        embedder=hash_embedder,
        extractor=RulesExtractor(),
        settings=settings,
        name="racer",
        checkpoint=pause,
    )
    return worker, asyncio.create_task(worker.run_forever())


async def _held(db: Database, job_id: str) -> None:
    for _ in range(400):
        async with db.transaction() as conn:
            cur = await conn.execute(
                "SELECT status, claimed_by FROM jobs WHERE id = %(id)s", {"id": UUID(job_id)}
            )
            row = await cur.fetchone()
        if row and row["status"] == "running" and row["claimed_by"] == "racer":
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the racing worker never claimed the job")


async def _capture(api: httpx.AsyncClient, text: str, minute: int, subject: str = "u1") -> str:
    r = await api.post("/v1/capture", json={"events": [event(text, minute, subject)]})
    assert r.status_code == 202, r.text
    return r.json()["consolidation_job_id"]


async def _home(api: httpx.AsyncClient) -> list[tuple[str, str]]:
    r = await api.get("/v1/facts", params={"project_id": "p1", "subject_id": "u1"})
    return sorted((f["value"], f["status"]) for f in r.json()["facts"])


async def test_subject_call_waits_for_the_job_another_worker_holds(api, db, hash_embedder):
    await _capture(api, "I live in Paris.", 0)
    r = await api.post("/v1/consolidate/subject", params={"project_id": "p1", "subject_id": "u1"})
    assert r.status_code == 200 and r.json()["waited"]["held_elsewhere"] == []

    _worker, task = await _racing_worker(db, hash_embedder, delay_s=1.5)
    try:
        job = await _capture(api, "I moved to Berlin.", 5)
        second = await _capture(api, "I work at Initech.", 6)
        await _held(db, job)
        r = await api.post(
            "/v1/consolidate/subject", params={"project_id": "p1", "subject_id": "u1"}
        )
        assert r.status_code == 200, r.text
        waited = r.json()["waited"]
        assert waited["jobs"] == [job, second]
        assert job in waited["held_elsewhere"] and waited["failed"] == []
        # The very next read sees the move: nothing of the subject is left queued.
        assert await _home(api) == [
            ("Berlin", "active"),
            ("Initech", "active"),
            ("Paris", "superseded"),
        ]
        r = await api.get("/v1/jobs", params={"project_id": "p1"})
        assert r.json()["counts"] == {"done": 3}
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_project_call_waits_too(api, db, hash_embedder):
    _worker, task = await _racing_worker(db, hash_embedder, delay_s=1.5)
    try:
        job = await _capture(api, "I live in Lyon.", 0, subject="u2")
        await _held(db, job)
        r = await api.post("/v1/consolidate", json={"project_id": "p1"})
        assert r.status_code == 200, r.text
        assert r.json()["waited"]["held_elsewhere"] == [job]
        # This call ran nothing itself: the answer says the other worker did it.
        assert r.json()["processed"] == 0 and r.json()["already_consolidated"] is True
        assert "another worker ran the 1 pending job" in r.json()["note"]
        r = await api.get("/v1/facts", params={"project_id": "p1", "subject_id": "u2"})
        assert [(f["value"], f["status"]) for f in r.json()["facts"]] == [("Lyon", "active")]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_timeout_answers_409_naming_the_running_job(impatient_api, db, hash_embedder):
    _worker, task = await _racing_worker(db, hash_embedder, delay_s=3.0)
    try:
        job = await _capture(impatient_api, "I live in Paris.", 0)
        await _held(db, job)
        r = await impatient_api.post(
            "/v1/consolidate/subject", params={"project_id": "p1", "subject_id": "u1"}
        )
        assert r.status_code == 409, r.text
        error = r.json()["error"]
        assert error["type"] == "consolidation_pending"
        assert job in error["message"] and "running on worker racer" in error["message"]
        assert r.headers["retry-after"] == "1"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_job_backing_off_is_named_at_once(api, db):
    job = await _capture(api, "I live in Paris.", 0)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE jobs SET run_after = now() + interval '1 hour', last_error = 'provider down' "
            "WHERE id = %(id)s",
            {"id": UUID(job)},
        )
    r = await api.post("/v1/consolidate/subject", params={"project_id": "p1", "subject_id": "u1"})
    assert r.status_code == 409
    message = r.json()["error"]["message"]
    assert job in message and "provider down" in message
