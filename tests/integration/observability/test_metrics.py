"""``GET /metrics`` on the app with auth on: series that move with capture,
consolidation and context calls, read with prometheus_client's own parser;
who may scrape; the queue gauges computed at scrape time."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator

import httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from haki.api.app import create_app
from haki.config import load_settings
from haki.errors import DatabaseUnavailable
from haki.observability.metrics import REGISTRY
from haki.providers import Providers
from haki.storage import Database

ADMIN = "admin-key-for-the-metrics-tests-0123456789"
TOKEN = "metrics-token-for-the-tests-0123456789"
PROJECT = "p-metrics"
IN_USE = "haki_db_pool_connections_in_use"
WAITING = "haki_db_pool_requests_waiting"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, keyed by name and sorted labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def value(scraped: dict, name: str, **labels: str) -> float:
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


def total(scraped: dict, name: str, **labels: str) -> float:
    """Sum over every sample of ``name`` whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in scraped.items() if n == name and want <= set(ls))


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
async def api(db_url: str, providers: Providers) -> AsyncIterator[httpx.AsyncClient]:
    settings = load_settings(
        auth="on", admin_key=ADMIN, metrics_token=TOKEN, database_url=None, recall_max_distance=0.0
    )
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c:
            yield c


def turn(i: int, text: str) -> dict[str, object]:
    return {
        "project_id": PROJECT,
        "subject_id": "u1",
        "kind": "conversation.message",
        "occurred_at": f"2026-11-20T10:0{i}:00Z",
        "idempotency_key": f"turn-{i}",
        "payload": {"role": "user", "content": text},
    }


async def scrape(api: httpx.AsyncClient, key: str = TOKEN) -> dict:
    r = await api.get("/metrics", headers=bearer(key))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return samples(r.text)


async def test_series_move_with_capture_consolidate_and_context(api: httpx.AsyncClient) -> None:
    before = await scrape(api)
    events = [turn(1, "I live in Lyon and I work as a baker."), turn(2, "My sister is Ana.")]
    r = await api.post("/v1/capture", json={"events": events}, headers=bearer(ADMIN))
    assert r.status_code == 202, r.text
    # A replay of the first event: deduplicated, not new.
    r = await api.post("/v1/capture", json={"events": events[:1]}, headers=bearer(ADMIN))
    assert r.status_code == 202

    queued = await scrape(api)
    assert value(queued, "haki_jobs_queue_depth", status="pending") >= 1
    assert value(queued, "haki_jobs_oldest_pending_age_seconds") >= 0

    r = await api.post("/v1/consolidate", json={"project_id": PROJECT}, headers=bearer(ADMIN))
    assert r.status_code == 200, r.text
    for query in ("where do I live?", "what is the weather on Mars?"):
        r = await api.post(
            "/v1/context",
            json={"project_id": PROJECT, "subject_id": "u1", "query": query},
            headers=bearer(ADMIN),
        )
        assert r.status_code == 200, r.text
    served_tokens = r.json()["token_count"]
    r = await api.post(
        "/v1/context",
        json={"project_id": PROJECT, "subject_id": "nobody", "query": "anything"},
        headers=bearer(ADMIN),
    )
    assert r.status_code == 200 and r.json()["token_count"] == 0

    after = await scrape(api)

    def moved(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert moved("haki_capture_events_total", result="new") == 2
    assert moved("haki_capture_events_total", result="deduplicated") == 1
    assert moved("haki_jobs_total", outcome="done") >= 1
    assert moved("haki_job_duration_seconds_count", outcome="done") >= 1
    assert value(after, "haki_jobs_queue_depth", status="pending") == 0
    assert moved("haki_context_duration_seconds_count") == 3
    assert moved("haki_context_packets_total", served="facts") >= 1
    assert moved("haki_context_packets_total", served="nothing") == 1
    assert moved("haki_context_tokens_served_total") >= served_tokens > 0
    for stage in ("embed", "candidates", "score", "pack", "multihop", "episodes", "trace"):
        assert moved("haki_context_stage_duration_seconds_count", stage=stage) == 3, stage
    # Requests by route template and status, with their latency.
    assert moved("haki_http_requests_total", route="/v1/capture", status="202") == 2
    assert moved("haki_http_requests_total", route="/v1/context", status="200") == 3
    assert moved("haki_http_request_duration_seconds_count", route="/v1/context") == 3
    # The pool gauges (their moves: test_pool_gauges_follow_lending below).
    assert ("haki_db_pool_connections_in_use", ()) in after
    assert ("haki_db_pool_requests_waiting", ()) in after
    assert ("haki_embedded_restarts_total", ()) in after


async def test_an_unknown_path_is_one_series_not_one_per_path(api: httpx.AsyncClient) -> None:
    before = await scrape(api)
    for i in range(3):
        assert (await api.get(f"/no-such-page-{i}")).status_code == 404
        await api.request(f"BREW{i}", "/v1/capture")
    r = await api.get(
        "/v1/facts/00000000-0000-0000-0000-000000000001",
        params={"project_id": PROJECT},
        headers=bearer(ADMIN),
    )
    assert r.status_code == 404
    after = await scrape(api)
    moved = total(after, "haki_http_requests_total", route="unmatched", status="404") - total(
        before, "haki_http_requests_total", route="unmatched", status="404"
    )
    assert moved == 3
    # The registry is the process's: other tests' calls are in it too, so
    # only what this test moved counts.
    fact_404 = {"route": "/v1/facts/{fact_id}", "status": "404"}
    assert (
        total(after, "haki_http_requests_total", **fact_404)
        - total(before, "haki_http_requests_total", **fact_404)
        == 1
    )
    assert not any("no-such-page" in str(labels) for _, labels in after)
    # Made-up methods share one label value.
    assert not any("BREW" in str(labels) for _, labels in after)
    other = {"method": "other", "route": "/v1/capture"}
    assert (
        total(after, "haki_http_requests_total", **other)
        - total(before, "haki_http_requests_total", **other)
        == 3
    )


async def test_only_the_admin_key_or_the_metrics_token_may_scrape(api: httpx.AsyncClient) -> None:
    r = await api.post("/v1/keys", json={"project_id": PROJECT}, headers=bearer(ADMIN))
    assert r.status_code in (200, 201), r.text
    project_key = r.json()["key"]

    for headers in ({}, bearer("not-a-key"), {"Authorization": "Basic abc"}):
        r = await api.get("/metrics", headers=headers)
        assert r.status_code == 401, headers
        assert r.json()["error"]["type"] == "unauthorized"
    r = await api.get("/metrics", headers=bearer(project_key))
    assert r.status_code == 403
    assert r.json()["error"]["type"] == "forbidden_scope"
    assert (await api.get("/metrics", headers=bearer(ADMIN))).status_code == 200
    assert (await api.get("/metrics", headers=bearer(TOKEN))).status_code == 200
    # Off the public path: not in the OpenAPI document.
    paths = (await api.get("/openapi.json")).json()["paths"]
    assert "/metrics" not in paths


async def test_dev_mode_is_open_unless_a_token_is_set(db_url: str, providers: Providers) -> None:
    for token, status in ((None, 200), (TOKEN, 401)):
        settings = load_settings(auth="off", database_url=None, metrics_token=token)
        app = create_app(settings, database_url=db_url, providers=providers, background=False)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                assert (await c.get("/metrics")).status_code == status
                if token:
                    assert (await c.get("/metrics", headers=bearer(token))).status_code == 200


async def test_metrics_can_be_turned_off(db_url: str, providers: Providers) -> None:
    settings = load_settings(auth="off", database_url=None, metrics_enabled=False)
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            r = await c.get("/metrics")
            assert r.status_code == 404
            assert r.json()["error"]["type"] == "not_found"


async def test_the_oldest_pending_age_counts_from_when_a_job_became_runnable(
    api: httpx.AsyncClient, db_url: str
) -> None:
    r = await api.post("/v1/capture", json={"events": [turn(3, "hello")]}, headers=bearer(ADMIN))
    assert r.status_code == 202
    # The job has been runnable for an hour; one backing off (run_after ahead) is not waiting.
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE jobs SET run_after = now() - interval '1 hour' WHERE status = 'pending'"
        )
    aged = await scrape(api)
    assert 3600 <= value(aged, "haki_jobs_oldest_pending_age_seconds") < 3600 + 600
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE jobs SET run_after = now() + interval '1 hour' WHERE status = 'pending'"
        )
    backing_off = await scrape(api)
    assert value(backing_off, "haki_jobs_oldest_pending_age_seconds") == 0
    assert value(backing_off, "haki_jobs_queue_depth", status="pending") == 1


def gauge(name: str) -> float:
    found = REGISTRY.get_sample_value(name)
    assert found is not None
    return found


async def test_pool_gauges_follow_lending(db_url: str) -> None:
    db = Database(db_url, min_size=1, max_size=1, timeout=5)
    await db.open()
    try:
        in_use, waiting = gauge(IN_USE), gauge(WAITING)
        async with db.transaction(system=True):
            assert gauge(IN_USE) == in_use + 1
            second = asyncio.ensure_future(_one_transaction(db))
            while gauge(WAITING) < waiting + 1:  # the second waits for the only connection
                await asyncio.sleep(0.01)
            assert not second.done()
        await second
        assert (gauge(IN_USE), gauge(WAITING)) == (in_use, waiting)
        # A unit that never got a connection stops waiting too.
        async with db.transaction(system=True):
            with pytest.raises(DatabaseUnavailable):
                async with db.transaction(system=True, wait_s=0.05):
                    pass
        assert (gauge(IN_USE), gauge(WAITING)) == (in_use, waiting)
    finally:
        await db.close()


async def _one_transaction(db: Database) -> None:
    async with db.transaction(system=True) as conn:
        await conn.execute("SELECT 1")


async def test_every_series_the_console_overview_names_is_on_metrics(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/console/sign-in")
    csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', page.text)
    assert csrf is not None
    r = await client.post("/console/sign-in", data={"csrf": csrf.group(1), "project_id": PROJECT})
    assert r.status_code in (200, 303), r.text
    overview = await client.get("/console/overview")
    assert overview.status_code == 200
    named = re.findall(r'<a class="series" href="/metrics"[^>]*>([^<]+)</a>', overview.text)
    assert len(named) >= 7
    scraped = samples((await client.get("/metrics")).text)
    names = {name for name, _ in scraped}
    for series in named:
        bare = html.unescape(series).split("{", 1)[0]
        assert bare in names, series
