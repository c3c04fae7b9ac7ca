"""Forget means forgotten: after a forget in either mode, no route serves anything
of the subject (or of the fact and its source turns), context episodes included."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from psycopg import errors

from haki.api.errors import install_error_handlers

SCOPE = {"project_id": "p1", "subject_id": "alice"}
TURNS = ["Hi! My name is Alice Martin.", "I live in Annecy.", "I work at Initech."]


async def _remember(client) -> list[str]:
    events = [
        {
            **SCOPE,
            "kind": "conversation.message",
            "occurred_at": f"2026-05-01T12:0{i}:00Z",
            "payload": {"text": text},
        }
        for i, text in enumerate(TURNS)
    ]
    r = await client.post("/v1/capture", json={"events": events})
    assert (await client.post("/v1/consolidate/subject", params=SCOPE)).status_code == 200
    return [e["id"] for e in r.json()["events"]]


async def _served(client, event_ids: list[str], trace_id: str) -> dict[str, object]:
    """Everything the read routes hand out about the subject."""
    packet = (
        await client.post("/v1/context", json={**SCOPE, "query": "Where does Alice live and work?"})
    ).json()["packet"]
    timeline = (await client.get("/v1/timeline", params=SCOPE)).json()
    facts = (await client.get("/v1/facts", params=SCOPE)).json()["facts"]
    events = [
        (await client.get(f"/v1/events/{e}", params={"project_id": "p1"})).status_code
        for e in event_ids
    ]
    inspect = await client.get(f"/v1/inspect/{trace_id}", params=SCOPE)
    return {
        "facts": sorted(f["value"] for f in packet["facts"]),
        "episodes": sorted(e["text"] for e in packet["episodes"]),
        "timeline": len(timeline.get("events", timeline.get("items", []))),
        "listed": sorted(f["value"] for f in facts),
        "events": events,
        "inspect": inspect.status_code,
    }


async def _trace(client) -> str:
    out = await client.post("/v1/context", json={**SCOPE, "query": "Where does Alice live?"})
    await client.app.state.haki.traces.wait_all()
    return out.json()["trace_id"]


@pytest.mark.parametrize("mode", ["disable", "delete"])
async def test_forgetting_a_subject_leaves_nothing_served(client, mode):
    event_ids = await _remember(client)
    trace_id = await _trace(client)
    before = await _served(client, event_ids, trace_id)
    assert "Annecy" in before["facts"] and before["episodes"] and before["timeline"] == 3

    r = await client.post("/v1/forget", json={**SCOPE, "mode": mode})
    assert r.status_code == 200, r.text
    after = await _served(client, event_ids, trace_id)
    assert after == {
        "facts": [],
        "episodes": [],
        "timeline": 0,
        "listed": [],
        "events": [404, 404, 404],
        "inspect": 404,
    }
    # Consolidating again brings nothing back.
    assert (await client.post("/v1/consolidate", json={"project_id": "p1"})).status_code == 200
    assert await _served(client, event_ids, trace_id) == after


@pytest.mark.parametrize("mode", ["disable", "delete"])
async def test_forgetting_a_fact_takes_its_source_turn_with_it(client, mode):
    event_ids = await _remember(client)
    trace_id = await _trace(client)
    facts = (await client.get("/v1/facts", params=SCOPE)).json()["facts"]
    [annecy] = [f for f in facts if f["value"] == "Annecy"]
    r = await client.post(
        "/v1/forget", json={"project_id": "p1", "fact_id": annecy["id"], "mode": mode}
    )
    assert r.status_code == 200, r.text
    after = await _served(client, event_ids, trace_id)
    assert "Annecy" not in after["facts"] and "Annecy" not in after["listed"]
    assert not [e for e in after["episodes"] if "Annecy" in e]
    assert after["timeline"] == 2 and after["events"] == [200, 404, 200]
    assert after["inspect"] == 404  # that trace served the fact
    assert "Initech" in after["listed"]


def test_a_deadlock_is_a_conflict_not_an_outage():
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/deadlock")
    async def deadlock() -> None:
        raise errors.DeadlockDetected("deadlock detected")

    r = TestClient(app).get("/deadlock")
    assert r.status_code == 409 and r.headers["retry-after"] == "1"
    assert r.json()["error"]["type"] == "concurrent_update"


async def test_statistics_forget_the_deleted_subject_too(client, db):
    secret = "zephyrine-quillfeather-42"
    scope = {"project_id": "p1", "subject_id": secret}
    events = [
        {
            **scope,
            "kind": "conversation.message",
            "occurred_at": f"2026-05-01T12:0{i}:00Z",
            "payload": {"text": f"I live in Annecy. {secret}"},
        }
        for i in range(5)
    ]
    # Another subject's rows: ANALYZE of an empty table keeps its old
    # statistics (docs/ledger.md states that window).
    others = [
        {**e, "subject_id": f"neighbour-{i}", "payload": {"text": f"I live in Lyon. {i}"}}
        for i, e in enumerate(events * 4)
    ]
    for batch in (events, others):
        assert (await client.post("/v1/capture", json={"events": batch})).status_code == 202
    await client.post("/v1/consolidate", json={"project_id": "p1"})

    async def sampled() -> int:
        async with db.transaction(system=True) as conn:
            await conn.execute("SELECT 1")  # statistics are read as the owner
            cur = await conn.execute(
                "SELECT count(*) AS n FROM pg_stats WHERE schemaname = 'public' AND "
                "(most_common_vals::text LIKE %(p)s OR histogram_bounds::text LIKE %(p)s "
                " OR most_common_elems::text LIKE %(p)s)",
                {"p": f"%{secret}%"},
            )
            row = await cur.fetchone()
        return int(row["n"])

    async with db.transaction(system=True) as conn:
        await conn.execute("ANALYZE events, episode_chunks, jobs")
    assert await sampled() > 0  # the planner's sample holds the subject id
    r = await client.post("/v1/forget", json={**scope, "mode": "delete"})
    assert r.status_code == 200
    assert await sampled() == 0
