"""Project keys: every route checks the projects it names; trust may only go down."""

import pytest
from ledger_helpers import insert_fact

from haki.api.auth import Principal, get_principal


@pytest.fixture
def as_project_key(client):
    client.app.dependency_overrides[get_principal] = lambda: Principal(project_id="p1", key_id="k1")
    yield client
    client.app.dependency_overrides.clear()


def ev(**over) -> dict:
    body = {
        "project_id": "p1",
        "subject_id": "u1",
        "kind": "note",
        "occurred_at": "2026-01-01T10:00:00Z",
        "payload": {"a": 1},
    }
    body.update(over)
    return body


async def test_every_route_refuses_another_project(as_project_key, db_url):
    c = as_project_key
    fact_id = insert_fact(db_url, project_id="p2")
    calls = [
        c.post("/v1/capture", json={"events": [ev(project_id="p2")]}),
        c.post("/v1/capture", json={"events": [ev(), ev(project_id="p2")]}),
        c.get("/v1/timeline", params={"project_id": "p2", "subject_id": "u1"}),
        c.get(f"/v1/events/{fact_id}", params={"project_id": "p2"}),
        c.get("/v1/facts", params={"project_id": "p2", "subject_id": "u1"}),
        c.get(f"/v1/facts/{fact_id}", params={"project_id": "p2"}),
        c.post(f"/v1/facts/{fact_id}/status", json={"project_id": "p2", "status": "disabled"}),
        c.post("/v1/forget", json={"project_id": "p2", "subject_id": "u1", "mode": "delete"}),
    ]
    for call in calls:
        r = await call
        assert r.status_code == 403 and r.json()["error"]["type"] == "forbidden_scope", r.text


async def test_project_key_may_lower_trust_but_not_raise_it(as_project_key):
    c = as_project_key
    r = await c.post(
        "/v1/capture", json={"events": [ev(actor_type="agent", origin_trust="trusted")]}
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "events[0].origin_trust"
    r = await c.post(
        "/v1/capture", json={"events": [ev(actor_type="agent", origin_trust="untrusted")]}
    )
    assert r.status_code == 202
    event_id = r.json()["events"][0]["id"]
    got = await c.get(f"/v1/events/{event_id}", params={"project_id": "p1"})
    assert got.json()["origin_trust"] == "untrusted"
