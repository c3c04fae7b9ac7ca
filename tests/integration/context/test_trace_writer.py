"""Traces written after the response: readers wait for them, nothing piles up, failures stay inside."""

import asyncio
import logging
import uuid
from contextlib import asynccontextmanager

import pytest

from haki.context.trace import TraceRecord, insert_trace, read_trace, trace_params
from haki.context.trace_writer import PendingTrace, TraceWriter, write_trace
from haki.context.types import Packet
from haki.errors import DatabaseUnavailable

PROJECT, SUBJECT = "proj", "alice"  # the scope the context fixtures seed and ask
COUNT = "SELECT count(*) FROM context_traces WHERE id = %(id)s"


def pending(trace_id: uuid.UUID | None = None) -> PendingTrace:
    record = TraceRecord(
        id=trace_id or uuid.uuid4(),
        project_id=PROJECT,
        subject_id=SUBJECT,
        query="q",
        purpose=None,
        as_of=None,
        recipe="default",
        recipe_config=b"{}",
        packet=Packet(facts=(), episodes=(), warnings=(), status="ok", empty_reason=None),
        decisions=(),
        token_count=0,
    )
    return PendingTrace(record, b'{"facts":[],"episodes":[]}', {"embed_ms": 1.0}, 2.0)


class SlowDatabase:
    """The real database, with every transaction held until ``release`` is set."""

    def __init__(self, db, fail_first: int = 0):
        self.db, self.fail_first, self.attempts = db, fail_first, 0
        self.release = asyncio.Event()

    @asynccontextmanager
    async def transaction(self, **kw):
        self.attempts += 1
        await self.release.wait()
        if self.attempts <= self.fail_first:
            raise DatabaseUnavailable("the database is unavailable; retry later")
        async with self.db.transaction(**kw) as conn:
            yield conn


async def test_a_submitted_trace_is_written_and_waited_for(db, seed):
    slow = SlowDatabase(db)
    writer = TraceWriter(slow)  # type: ignore[arg-type]
    trace = pending()
    await writer.submit(trace)
    assert writer.pending == 1
    assert (
        await seed.fetchval(COUNT, {"id": trace.record.id}) == 0
    )  # not written yet: the caller did not wait
    waiting = asyncio.ensure_future(writer.wait(trace.record.id))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    slow.release.set()
    await waiting
    assert await seed.fetchval(COUNT, {"id": trace.record.id}) == 1
    assert writer.pending == 0


async def test_past_max_pending_the_caller_writes_its_own_trace(db, seed):
    writer = TraceWriter(db, max_pending=0)
    trace = pending()
    await writer.submit(trace)
    assert writer.pending == 0
    assert await seed.fetchval(COUNT, {"id": trace.record.id}) == 1


async def test_close_waits_for_every_pending_write(db, seed):
    slow = SlowDatabase(db)
    writer = TraceWriter(slow)  # type: ignore[arg-type]
    traces = [pending() for _ in range(3)]
    for t in traces:
        await writer.submit(t)
    closing = asyncio.ensure_future(writer.close())
    await asyncio.sleep(0.05)
    assert not closing.done()
    slow.release.set()
    await closing
    for t in traces:
        assert await seed.fetchval(COUNT, {"id": t.record.id}) == 1


async def test_an_unavailable_database_is_retried(db, seed):
    slow = SlowDatabase(db, fail_first=2)
    slow.release.set()
    writer = TraceWriter(slow, retry_delays_s=(0.01, 0.01, 0.01))  # type: ignore[arg-type]
    trace = pending()
    await writer.submit(trace)
    await writer.wait_all()
    assert slow.attempts == 3
    assert await seed.fetchval(COUNT, {"id": trace.record.id}) == 1


async def test_a_trace_that_cannot_be_written_is_logged_not_raised(db, seed, caplog):
    slow = SlowDatabase(db, fail_first=10)
    slow.release.set()
    writer = TraceWriter(slow, retry_delays_s=(0.01,))  # type: ignore[arg-type]
    trace = pending()
    with caplog.at_level(logging.WARNING, logger="haki.context.trace_writer"):
        await writer.submit(trace)
        await writer.wait(trace.record.id)
    assert slow.attempts == 2
    assert f"trace {trace.record.id} lost after 2 attempts" in caplog.text
    assert await seed.fetchval(COUNT, {"id": trace.record.id}) == 0


@pytest.fixture
def held_writes(client):
    """Hold the app's trace writes until the returned event is set."""
    state = client.app.state.haki
    slow = SlowDatabase(state.db)
    state.traces._db = slow
    return slow.release


async def test_inspect_feedback_and_stats_wait_for_the_trace(api, client, seed, held_writes):
    await seed.fact("visited Rome in spring", predicate="trip")
    out = await api.ask("Where did she travel?")
    assert client.app.state.haki.traces.pending == 1
    inspect = asyncio.ensure_future(api.inspect(out["trace_id"]))
    await asyncio.sleep(0.05)
    assert not inspect.done()  # held until the write lands, not a 404
    held_writes.set()
    assert (await inspect)["trace_id"] == out["trace_id"]

    out = await api.ask("Where did she travel?")
    r = await client.post(
        "/v1/feedback",
        json={"project_id": PROJECT, "trace_id": out["trace_id"], "rating": "useful"},
    )
    assert r.status_code == 201, r.text
    await api.ask("Where did she travel?")
    r = await client.get("/v1/stats/overview", params={"project_id": PROJECT})
    assert r.json()["recall_count"] == 3


async def test_forget_erases_traces_still_being_written(api, client, seed, held_writes):
    await seed.fact("visited Rome in spring", predicate="trip")
    await api.ask("Where did she travel?")
    forgetting = asyncio.ensure_future(
        client.post(
            "/v1/forget", json={"project_id": PROJECT, "subject_id": SUBJECT, "mode": "delete"}
        )
    )
    await asyncio.sleep(0.05)
    held_writes.set()
    r = await forgetting
    assert r.status_code == 200, r.text
    assert r.json()["traces_deleted"] == 1
    assert await seed.fetchval("SELECT count(*) FROM context_traces") == 0


async def test_a_trace_is_written_in_one_trip_and_read_back(db, seed):
    """``write_trace`` begins its transaction with its settings in one message
    (``storage.begin``); the row commits and reads back whole, and a
    transaction of that kind that fails writes nothing."""
    trace = pending()
    await write_trace(db, trace)
    async with db.transaction(project_id=PROJECT) as conn:
        row = await read_trace(conn, trace.record.id, PROJECT, SUBJECT)
    assert (row["query"], row["timings"], row["duration_ms"]) == ("q", {"embed_ms": 1.0}, 2.0)
    assert row["packet"] == {"facts": [], "episodes": []}
    failed = pending()
    with pytest.raises(RuntimeError):
        async with db.transaction(project_id=PROJECT, one_trip=True) as conn:
            params = trace_params(failed.record, failed.packet_json)
            await insert_trace(conn, params, failed.timings, failed.duration_ms)
            raise RuntimeError("rolled back")
    assert await seed.fetchval(COUNT, {"id": failed.record.id}) == 0
