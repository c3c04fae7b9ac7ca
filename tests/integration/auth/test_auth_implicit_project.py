"""A project key names its project: ``project_id`` may be left out with one,
and must match when given. In dev mode and with the admin key it is required."""

from __future__ import annotations

from auth_helpers import ADMIN, bearer

EVENT = {
    "subject_id": "s",
    "kind": "message",
    "occurred_at": "2026-01-31T09:00:00Z",
    "payload": {"content": "I live in Lyon."},
}


async def test_a_project_key_may_leave_project_id_out(authed_client, mint):
    key = bearer((await mint("p1")).secret)
    r = await authed_client.post("/v1/capture", json={"events": [EVENT]}, headers=key)
    assert r.status_code == 202, r.text
    r = await authed_client.get("/v1/timeline", params={"subject_id": "s"}, headers=key)
    assert r.status_code == 200 and [e["project_id"] for e in r.json()["events"]] == ["p1"]
    r = await authed_client.post(
        "/v1/context", json={"subject_id": "s", "query": "where?"}, headers=key
    )
    assert r.status_code == 200
    r = await authed_client.post("/v1/forget", json={"subject_id": "nobody"}, headers=key)
    assert r.status_code == 200 and r.json()["project_id"] == "p1"


async def test_a_project_key_naming_another_project_is_forbidden(authed_client, mint):
    key = bearer((await mint("p1")).secret)
    r = await authed_client.get(
        "/v1/timeline", params={"project_id": "p2", "subject_id": "s"}, headers=key
    )
    assert r.status_code == 403 and r.json()["error"]["type"] == "forbidden_scope"
    r = await authed_client.post(
        "/v1/capture", json={"events": [EVENT | {"project_id": "p2"}]}, headers=key
    )
    assert r.status_code == 403


async def test_the_admin_key_must_name_the_project(authed_client):
    r = await authed_client.get("/v1/timeline", params={"subject_id": "s"}, headers=ADMIN)
    assert r.status_code == 422
    assert r.json()["error"] == {
        "type": "missing_scope",
        "message": "project_id is required",
        "field": "project_id",
    }
    r = await authed_client.post("/v1/capture", json={"events": [EVENT]}, headers=ADMIN)
    assert r.status_code == 422 and r.json()["error"]["field"] == "events[0].project_id"
