"""The HTTP shell: health, the error envelope, database outages."""

import asyncio

import psycopg
from psycopg import sql
from pydantic import BaseModel

from haki.api.app import create_app


async def test_health_reports_database_and_embedder(client):
    r = await client.get("/health")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert body["embedder"]["status"] == "ok" and body["embedder"]["dim"] == 384
    assert r.headers["x-request-id"]


async def test_unknown_route_uses_the_envelope(client):
    r = await client.get("/v1/nothing-here")
    assert r.status_code == 404
    assert r.json() == {"error": {"type": "not_found", "message": "Not Found", "field": None}}


async def test_openapi_is_served(client):
    r = await client.get("/openapi.json")
    assert r.status_code == 200 and r.json()["info"]["title"] == "Haki"


async def test_validation_error_is_422_with_dotted_field(db_url, settings, providers):
    import httpx

    class Item(BaseModel):
        name: str

    class Body(BaseModel):
        items: list[Item]

    app = create_app(settings, database_url=db_url, providers=providers, background=False)

    @app.post("/echo")
    async def echo(body: Body) -> dict:
        return {"n": len(body.items)}

    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
    ):
        r = await c.post("/echo", json={"items": [{"name": "a"}, {"nom": "b"}]})
        assert r.status_code == 422
        err = r.json()["error"]
        assert err["type"] == "invalid_payload" and err["field"] == "items[1].name"
        r = await c.post(
            "/echo", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert r.status_code == 422 and r.json()["error"]["type"] == "invalid_payload"


async def test_a_statement_past_a_database_limit_is_413_not_an_outage(db_url, settings, providers):
    """PostgreSQL raises program_limit_exceeded (an OperationalError by class)
    for a statement that asks too much: the database is up, so not 503 but
    the caller's 413."""
    import httpx

    app = create_app(settings, database_url=db_url, providers=providers, background=False)

    @app.get("/too-much")
    async def too_much() -> dict:
        db = app.state.haki.db
        async with db.transaction() as conn:
            await conn.execute("SELECT array_fill(1, ARRAY[200000000])")
        return {}

    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
    ):
        r = await c.get("/too-much")
        assert r.status_code == 413, r.text
        assert r.json()["error"]["type"] == "payload_too_large"
        r = await c.get("/health")
        assert r.status_code == 200


async def test_database_outage_is_503_then_recovers(client, db_url, pg_maintenance_url):
    name = psycopg.conninfo.conninfo_to_dict(db_url)["dbname"]

    def set_allowed(allowed: bool) -> None:
        with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(
                    sql.Identifier(name), sql.Literal(allowed)
                )
            )
            if not allowed:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                    (name,),
                )

    set_allowed(False)
    try:
        r = await client.get("/health")
        assert r.status_code == 503
        assert r.json()["database"] == "unavailable"
    finally:
        set_allowed(True)
    # /health waits at most its 2 s ping for a pooled connection; on a loaded
    # machine the pool's reconnect can take longer than one call, so recovery
    # is asked of a bounded number of calls, not of the first one.
    for _ in range(15):
        r = await client.get("/health")
        if r.status_code == 200:
            break
        await asyncio.sleep(1)
    assert r.status_code == 200 and r.json()["database"] == "ok"


async def test_a_served_app_freezes_what_start_up_left(db_url, settings, providers):
    """``haki serve`` freezes start-up's objects, so no full collection walks
    them in the middle of a call, and its calls run no collection at all;
    the test client's apps leave the heap alone."""
    import gc

    import httpx

    frozen, threshold = gc.get_freeze_count(), gc.get_threshold()
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    try:
        app = create_app(settings, database_url=db_url, providers=providers, background=False)
        async with app.router.lifespan_context(app):
            assert gc.get_freeze_count() == frozen
            assert gc.get_threshold() == threshold
        app = create_app(
            settings, database_url=db_url, providers=providers, background=False, freeze_heap=True
        )
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
        ):
            assert gc.get_freeze_count() > frozen
            scope = {"project_id": "p-gc", "subject_id": "maya"}
            events = [
                {
                    **scope,
                    "kind": "conversation.message",
                    "occurred_at": f"2026-11-{day:02d}T10:00:00Z",
                    "payload": {
                        "role": "user",
                        "content": f"Day {day}: I moved to Lyon, I love tea.",
                    },
                }
                for day in range(1, 21)
            ]
            assert (await c.post("/v1/capture", json={"events": events})).status_code == 202
            r = await c.post("/v1/consolidate/subject", params=scope)
            assert r.status_code == 200, r.text
            gc.collect()  # start from a count of zero
            gc.callbacks.append(count)
            for query in ("Where does Maya live?", "What does she drink?", "Lyon tea"):
                r = await c.post("/v1/context", json={**scope, "query": query})
                assert r.status_code == 200 and r.json()["packet"]["episodes"]
            assert collections == [], "a context call ran the collector"
    finally:
        if count in gc.callbacks:
            gc.callbacks.remove(count)
        gc.set_threshold(*threshold)
        gc.unfreeze()
