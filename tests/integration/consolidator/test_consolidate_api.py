"""The HTTP face: capture → consolidate, autoconsolidate, access rules."""

from __future__ import annotations

import httpx
import pytest

from haki.api.app import create_app
from haki.config import load_settings


def event(text: str, minute: int, subject: str = "u1", project: str = "p1") -> dict:
    return {
        "project_id": project,
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": f"2024-05-01T12:{minute:02d}:00Z",
        "payload": {"text": text},
    }


async def facts(client, subject="u1", project="p1"):
    r = await client.get("/v1/facts", params={"project_id": project, "subject_id": subject})
    assert r.status_code == 200
    return sorted((f["predicate"], f["value"], f["status"]) for f in r.json()["facts"])


async def test_capture_then_consolidate_endpoints(client):
    r = await client.post("/v1/capture", json={"events": [event("I live in Paris.", 0)]})
    assert r.status_code == 202 and r.json()["consolidation_job_id"]
    await client.post(
        "/v1/capture", json={"events": [event("I work at Initech.", 1, subject="u2")]}
    )

    r = await client.post(
        "/v1/consolidate/subject", params={"project_id": "p1", "subject_id": "u1"}
    )
    assert r.status_code == 200
    body = r.json()
    assert body["jobs"] == {"done": 1} and body["events"] == 1 and body["actions"] == {"insert": 1}
    assert await facts(client) == [("home_city", "Paris", "active")]
    assert await facts(client, "u2") == []

    r = await client.post("/v1/consolidate")
    assert r.status_code == 200 and r.json()["jobs"] == {"done": 1}
    assert await facts(client, "u2") == [("employer", "Initech", "active")]

    r = await client.get("/v1/jobs", params={"project_id": "p1"})
    assert r.json()["counts"] == {"done": 2}
    r = await client.post("/v1/consolidate/subject", params={"project_id": "p1"})
    assert r.status_code == 422 and r.json()["error"]["type"] == "missing_scope"


@pytest.fixture
async def auto_client(db_url, providers):
    settings = load_settings(auth="off", database_url=None, autoconsolidate=True)
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://haki.test") as c,
    ):
        yield c


async def test_autoconsolidate_runs_the_capture_job(auto_client):
    await auto_client.post("/v1/capture", json={"events": [event("I live in Paris.", 0)]})
    await auto_client.post("/v1/capture", json={"events": [event("I moved to Lyon.", 5)]})
    assert await facts(auto_client) == [
        ("home_city", "Lyon", "active"),
        ("home_city", "Paris", "superseded"),
    ]
    r = await auto_client.get("/v1/jobs", params={"project_id": "p1"})
    assert r.json()["counts"] == {"done": 2}


@pytest.fixture
async def keyed_client(db_url, providers):
    settings = load_settings(
        auth="on", database_url=None, admin_key="admin-secret-for-the-consolidator-tests"
    )
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://haki.test") as c,
    ):
        yield c


async def test_consolidate_all_needs_the_admin_key(keyed_client):
    admin = {"Authorization": "Bearer admin-secret-for-the-consolidator-tests"}
    r = await keyed_client.post("/v1/keys", json={"project_id": "p1"}, headers=admin)
    assert r.status_code in (200, 201), r.text
    secret = r.json()["key"]
    project_key = {"Authorization": f"Bearer {secret}"}

    r = await keyed_client.post("/v1/consolidate", headers=project_key)
    assert r.status_code == 403 and r.json()["error"]["type"] == "forbidden_scope"
    r = await keyed_client.post(
        "/v1/consolidate/subject",
        params={"project_id": "p2", "subject_id": "u"},
        headers=project_key,
    )
    assert r.status_code == 403
    r = await keyed_client.post(
        "/v1/consolidate/subject",
        params={"project_id": "p1", "subject_id": "u"},
        headers=project_key,
    )
    assert r.status_code == 200
    for path in ("/v1/jobs", "/v1/conflicts"):
        r = await keyed_client.get(path, params={"project_id": "p2"}, headers=project_key)
        assert r.status_code == 403
    assert (await keyed_client.post("/v1/consolidate", headers=admin)).status_code == 200
