"""Mistakes people make are caught and named: unknown fields, wrong types,
broken JSON, oversized bodies, wrong methods, typos in a scope."""

from __future__ import annotations

import time

import httpx
import pytest
from api_helpers import EVENT

from haki.api.app import create_app

CTX = {"project_id": "p", "subject_id": "s", "query": "where does she live?"}


async def test_unknown_body_field_is_named(client):
    r = await client.post("/v1/context", json=CTX | {"budget": 20})
    assert r.status_code == 422
    assert r.json()["error"] == {
        "type": "invalid_payload",
        "message": "budget: unknown field",
        "field": "budget",
    }


async def test_unknown_field_inside_an_event_is_named_with_its_index(client):
    r = await client.post("/v1/capture", json={"events": [EVENT, EVENT | {"hash": "x"}]})
    assert r.status_code == 422 and r.json()["error"]["field"] == "events[1].hash"


async def test_missing_field_is_named(client):
    r = await client.post("/v1/context", json={"project_id": "p", "subject_id": "s"})
    assert r.status_code == 422
    assert r.json()["error"] == {
        "type": "invalid_payload",
        "message": "query is required",
        "field": "query",
    }


async def test_missing_body_says_so(client):
    r = await client.post("/v1/context")
    assert r.status_code == 422
    assert r.json()["error"]["type"] == "invalid_payload"
    assert "body is required" in r.json()["error"]["message"]


@pytest.mark.parametrize("budget", ["500", True, 12.5, [1]])
async def test_budget_of_the_wrong_type_is_invalid_payload(client, budget):
    r = await client.post("/v1/context", json=CTX | {"budget_tokens": budget})
    assert r.status_code == 422
    assert r.json()["error"]["type"] == "invalid_payload"
    assert r.json()["error"]["field"] == "budget_tokens"


async def test_boolean_is_not_a_number(client):
    r = await client.post("/v1/consolidate", json={"max_jobs": True})
    assert r.status_code == 422 and r.json()["error"]["field"] == "max_jobs"
    r = await client.post(
        "/v1/facts/0193b0a4-5c6e-7d8f-9a0b-1c2d3e4f5a6b/status",
        json={"project_id": "p", "status": "disputed", "expected_version": True},
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "expected_version"


async def test_broken_json_says_where_in_words(client):
    r = await client.post(
        "/v1/context",
        content=b'{"project_id": "p",\n  "query": oops}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["type"] == "invalid_payload" and err["field"] is None
    assert "not valid JSON" in err["message"] and "line 2, column 12" in err["message"]


async def test_wrong_method_is_405_with_allow(client):
    r = await client.get("/v1/context")
    assert r.status_code == 405
    assert r.headers["allow"] == "POST"
    assert r.json()["error"]["type"] == "method_not_allowed"


@pytest.mark.parametrize("path", ["/v1/forget", "/v1/context", "/v1/keys", "/v1/feedback"])
async def test_every_route_caps_its_body(client, path):
    big = b'{"x": "' + b"a" * (2 * 1024 * 1024) + b'"}'
    r = await client.post(path, content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text
    assert r.json()["error"]["type"] == "payload_too_large"
    assert r.headers["x-request-id"]


async def test_a_chunked_body_is_capped_too(client):
    async def chunks():
        for _ in range(40):
            yield b"a" * 65_536

    r = await client.post(
        "/v1/forget", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413


async def test_a_huge_batch_is_refused_before_its_events_are_validated(client):
    events = [EVENT | {"idempotency_key": str(i)} for i in range(100_000)]
    start = time.perf_counter()
    r = await client.post("/v1/capture", json={"events": events})
    assert r.status_code == 413, r.text
    assert r.json()["error"]["field"] == "events"
    assert "100000 events" in r.json()["error"]["message"]
    # Not a timing assertion on the machine's speed: validating 100,000
    # models would take seconds; this only guards against the order changing.
    assert time.perf_counter() - start < 30


async def test_context_on_an_unknown_subject_says_so(client):
    r = await client.post("/v1/capture", json={"events": [EVENT]})
    assert r.status_code == 202
    r = await client.post("/v1/context", json=CTX | {"subject_id": "s-typo"})
    assert r.status_code == 200
    assert r.json()["packet"]["empty_reason"] == "unknown_subject"
    r = await client.post("/v1/context", json=CTX | {"project_id": "demo-agnet"})
    assert r.json()["packet"]["empty_reason"] == "unknown_subject"


async def test_context_on_a_known_subject_is_not_unknown(client):
    r = await client.post("/v1/capture", json={"events": [EVENT]})
    assert r.status_code == 202
    r = await client.post("/v1/context", json=CTX)
    assert r.json()["packet"]["empty_reason"] != "unknown_subject"


async def test_forget_that_finds_nothing_says_so(client):
    r = await client.post("/v1/capture", json={"events": [EVENT]})
    r = await client.post("/v1/forget", json={"project_id": "p", "subject_id": "s-typo"})
    assert r.status_code == 200 and r.json()["nothing_found"] is True
    r = await client.post(
        "/v1/forget", json={"project_id": "p", "subject_id": "s", "mode": "delete"}
    )
    assert r.status_code == 200 and r.json()["nothing_found"] is False


async def test_a_500_carries_its_request_id(db_url, settings, providers):
    app = create_app(settings, database_url=db_url, providers=providers, background=False)

    @app.get("/boom")
    async def boom() -> dict[str, str]:
        raise RuntimeError("boom")

    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
            base_url="http://t",
        ) as c,
    ):
        r = await c.get("/boom", headers={"x-request-id": "req-42"})
        assert r.status_code == 500
        assert r.headers["x-request-id"] == "req-42"
        assert r.json()["error"]["type"] == "internal"
        assert "req-42" in r.json()["error"]["message"]
        r = await c.get("/boom")
        rid = r.headers["x-request-id"]
        assert rid and rid in r.json()["error"]["message"]
