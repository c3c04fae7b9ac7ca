"""GET /v1/stats/overview: usage figures of one project."""

import pytest


async def test_overview_counts_calls_injection_and_tokens(api, seed):
    await seed.fact("lives in Lyon", predicate="home_city")
    await seed.fact("lives in Rome", predicate="home_city", project_id="other")
    await seed.episode("hello")
    served = [await api.ask("Where does she live?"), await api.ask("Where does she live?")]
    empty = await api.client.post(
        "/v1/context", json={"project_id": "proj", "subject_id": "nobody", "query": "x"}
    )
    assert empty.json()["packet"]["facts"] == []
    r = await api.client.get("/v1/stats/overview", params={"project_id": "proj"})
    assert r.status_code == 200
    body = r.json()
    assert body["project_id"] == "proj"
    assert body["active_facts"] == 1
    assert body["events_this_week"] == 1
    assert body["recall_count"] == 3
    assert (
        body["injection_rate"] == pytest.approx(2 / 3)
        and body["hit_rate"] == body["injection_rate"]
    )
    assert body["context_tokens_served"] == sum(o["token_count"] for o in served)
    assert 0 < body["recall_p50_ms"] <= body["recall_p99_ms"]
    today = body["per_day"][-1]
    assert (today["events"], today["context_calls"]) == (1, 3)
    assert sum(d["context_calls"] for d in body["per_day"]) == 3


async def test_overview_of_an_unused_project(client):
    r = await client.get("/v1/stats/overview", params={"project_id": "fresh"})
    body = r.json()
    days = body.pop("per_day")
    assert len(days) == 14 and days == sorted(days, key=lambda d: d["day"])
    assert all(d["events"] == 0 and d["context_calls"] == 0 for d in days)
    assert body == {
        "project_id": "fresh",
        "active_facts": 0,
        "events_this_week": 0,
        "recall_p50_ms": None,
        "recall_p99_ms": None,
        "injection_rate": None,
        "hit_rate": None,
        "context_tokens_served": 0,
        "recall_count": 0,
        "retention": {  # no policy: everything kept, no receipt
            "project_id": "fresh",
            "events_days": None,
            "traces_days": None,
            "updated_at": None,
            "receipts": [],
        },
    }


async def test_overview_requires_project(client):
    r = await client.get("/v1/stats/overview")
    assert r.status_code == 422 and r.json()["error"]["type"] == "missing_scope"
