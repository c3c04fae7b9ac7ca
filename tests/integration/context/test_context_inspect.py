"""Inspect returns exactly what was decided, and only to the trace's own scope."""

import uuid


async def test_inspect_matches_the_served_packet(api, seed):
    facts = [
        await seed.fact(f"visited {city} in spring", predicate="trip")
        for city in ("Rome", "Oslo", "Kyoto")
    ]
    await seed.episode("We talked about trips.")
    out, trace = await api.ask_and_inspect(
        "Where did she travel?", budget_tokens=20, purpose="chat"
    )
    assert trace["trace_id"] == out["trace_id"]
    assert trace["packet"] == out["packet"] and trace["token_count"] == out["token_count"]
    assert trace["query"] == "Where did she travel?" and trace["purpose"] == "chat"
    assert trace["facts_served"] == len(out["packet"]["facts"])
    included = {d["id"] for d in trace["decisions"] if d["action"] == "included"}
    served = set(api.fact_ids(out)) | {e["id"] for e in out["packet"]["episodes"]}
    assert included == served
    assert {d["id"] for d in trace["decisions"] if d["kind"] == "fact"} == {str(f) for f in facts}
    assert trace["recipe"] == "default" and trace["recipe_config"]["top_k"] == 64
    assert trace["duration_ms"] > 0


async def test_inspect_is_scope_checked(api):
    out = await api.ask("anything")
    tid = out["trace_id"]
    for params in (
        {"project_id": "proj", "subject_id": "bob"},
        {"project_id": "other", "subject_id": "alice"},
    ):
        r = await api.client.get(f"/v1/inspect/{tid}", params=params)
        assert r.status_code == 404 and r.json()["error"]["type"] == "not_found"
    r = await api.client.get(
        f"/v1/inspect/{uuid.uuid4()}", params={"project_id": "proj", "subject_id": "alice"}
    )
    assert r.status_code == 404
    r = await api.client.get(f"/v1/inspect/{tid}", params={"project_id": "proj"})
    assert r.status_code == 422 and r.json()["error"]["type"] == "missing_scope"


async def test_context_requires_scope(client):
    r = await client.post("/v1/context", json={"project_id": "p", "query": "x"})
    assert r.status_code == 422 and r.json()["error"] == {
        "type": "missing_scope",
        "message": "subject_id is required",
        "field": "subject_id",
    }


async def test_server_timing_header_carries_stage_timings(api):
    r = await api.client.post(
        "/v1/context", json={"project_id": "proj", "subject_id": "alice", "query": "x"}
    )
    assert "embed;dur=" in r.headers["server-timing"]
