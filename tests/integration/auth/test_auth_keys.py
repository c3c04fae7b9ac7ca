"""Keys over HTTP: who may create, list and revoke; every refusal is the same 401."""

from datetime import UTC, datetime, timedelta

import psycopg
from auth_helpers import ADMIN, ADMIN_KEY, bearer

UNAUTHORIZED = {
    "error": {"type": "unauthorized", "message": "missing or invalid API key", "field": None}
}


async def test_admin_creates_a_key_shown_once_and_stored_as_hash(authed_client, db_url):
    r = await authed_client.post("/v1/keys", json={"project_id": "A", "label": "ci"}, headers=ADMIN)
    assert r.status_code == 201, r.text
    body = r.json()
    secret = body["key"]
    assert secret.startswith("hk_") and body["prefix"] == secret[:8]
    assert body["project_id"] == "A" and body["org_id"] == "default" and body["label"] == "ci"
    with psycopg.connect(db_url) as conn:
        stored = conn.execute("SELECT row_to_json(k)::text FROM api_keys k").fetchone()[0]
    assert secret not in stored and secret[8:] not in stored

    listed = await authed_client.get("/v1/keys", params={"project_id": "A"}, headers=ADMIN)
    assert listed.status_code == 200
    [key] = listed.json()["keys"]
    assert key["id"] == body["id"] and "key" not in key and secret not in listed.text

    r = await authed_client.get("/v1/keys", headers=bearer(secret))
    assert r.status_code == 200 and [k["id"] for k in r.json()["keys"]] == [body["id"]]


async def test_no_first_key_is_free(authed_client):
    r = await authed_client.post("/v1/keys", json={"project_id": "A"})
    assert r.status_code == 401 and r.json() == UNAUTHORIZED
    r = await authed_client.post("/v1/keys", json={"project_id": "A"}, headers=bearer("hk_guess"))
    assert r.status_code == 401 and r.json() == UNAUTHORIZED


async def test_every_refusal_is_the_same_401(authed_client, mint):
    revoked = await mint("A")
    r = await authed_client.delete(f"/v1/keys/{revoked.record.id}", headers=ADMIN)
    assert r.status_code == 200 and r.json()["revoked_at"]
    attempts = [
        {},
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": f"Token {ADMIN_KEY}"},
        bearer("not-a-key"),
        bearer("hk_" + "x" * 43),  # well formed, unknown
        bearer("hk_" + "x" * 400),  # oversized
        bearer(ADMIN_KEY + "x"),
        bearer(ADMIN_KEY[:-1]),
        bearer(revoked.secret),
    ]
    for headers in attempts:
        r = await authed_client.get("/v1/keys", params={"project_id": "A"}, headers=headers)
        assert (r.status_code, r.json()) == (401, UNAUTHORIZED), headers


async def test_a_project_key_manages_its_own_project_only(authed_client, mint):
    a, b = await mint("A"), await mint("B")
    hdr = bearer(a.secret)

    r = await authed_client.post("/v1/keys", json={"project_id": "A", "label": "more"}, headers=hdr)
    assert r.status_code == 201 and r.json()["project_id"] == "A"
    second = r.json()

    for call in (
        authed_client.post("/v1/keys", json={"project_id": "B"}, headers=hdr),
        authed_client.post(
            "/v1/keys", json={"project_id": "A", "org_id": "other-org"}, headers=hdr
        ),
        authed_client.get("/v1/keys", params={"project_id": "B"}, headers=hdr),
    ):
        r = await call
        assert r.status_code == 403 and r.json()["error"]["type"] == "forbidden_scope"
        assert "B" not in r.json()["error"]["message"]

    # Another project's key answers exactly like a missing one.
    missing = await authed_client.delete(
        "/v1/keys/00000000-0000-0000-0000-000000000000", headers=hdr
    )
    foreign = await authed_client.delete(f"/v1/keys/{b.record.id}", headers=hdr)
    malformed = await authed_client.delete("/v1/keys/not-a-uuid", headers=hdr)
    assert missing.status_code == foreign.status_code == malformed.status_code == 404
    assert missing.json() == foreign.json() == malformed.json()
    r = await authed_client.get("/v1/keys", params={"project_id": "B"}, headers=bearer(b.secret))
    assert r.status_code == 200 and r.json()["keys"][0]["revoked_at"] is None

    r = await authed_client.delete(f"/v1/keys/{second['id']}", headers=hdr)
    assert r.status_code == 200
    again = await authed_client.delete(f"/v1/keys/{second['id']}", headers=hdr)
    assert again.status_code == 200 and again.json()["revoked_at"] == r.json()["revoked_at"]


async def test_admin_lists_every_project_unless_it_names_one(authed_client, mint):
    a, b = await mint("A"), await mint("B")
    r = await authed_client.get("/v1/keys", headers=ADMIN)
    assert r.status_code == 200
    assert {k["id"] for k in r.json()["keys"]} >= {str(a.record.id), str(b.record.id)}
    r = await authed_client.get("/v1/keys", params={"project_id": "B"}, headers=ADMIN)
    assert [k["id"] for k in r.json()["keys"]] == [str(b.record.id)]
    r = await authed_client.get("/v1/keys", headers=bearer(a.secret))
    assert [k["id"] for k in r.json()["keys"]] == [str(a.record.id)]


async def test_revocation_takes_effect_on_the_next_request(authed_client, mint):
    key = await mint("A")
    assert (await authed_client.get("/v1/keys", headers=bearer(key.secret))).status_code == 200
    r = await authed_client.delete(f"/v1/keys/{key.record.id}", headers=bearer(key.secret))
    assert r.status_code == 200
    assert (await authed_client.get("/v1/keys", headers=bearer(key.secret))).status_code == 401


async def test_last_used_is_written_at_most_once_a_minute(authed_client, mint, db_url):
    key = await mint("A")

    def last_used():
        with psycopg.connect(db_url) as conn:
            return conn.execute(
                "SELECT last_used_at FROM api_keys WHERE id = %s", (key.record.id,)
            ).fetchone()[0]

    assert last_used() is None
    await authed_client.get("/v1/keys", headers=bearer(key.secret))
    first = last_used()
    assert first is not None
    for _ in range(3):
        await authed_client.get("/v1/keys", headers=bearer(key.secret))
    assert last_used() == first
    stale = datetime.now(UTC) - timedelta(minutes=5)
    with psycopg.connect(db_url) as conn:
        conn.execute("UPDATE api_keys SET last_used_at = %s WHERE id = %s", (stale, key.record.id))
    await authed_client.get("/v1/keys", headers=bearer(key.secret))
    assert last_used() > stale + timedelta(minutes=4)


async def test_health_stays_open(authed_client):
    assert (await authed_client.get("/health")).status_code == 200


async def test_dev_mode_needs_no_key(client):
    r = await client.post("/v1/keys", json={"project_id": "A"})
    assert r.status_code == 201
    assert (await client.get("/v1/keys", params={"project_id": "A"})).status_code == 200


async def test_a_v1_route_that_forgets_the_principal_still_needs_a_key(
    db_url, auth_settings, providers
):
    import httpx
    from fastapi import APIRouter

    from haki.api.app import create_app

    app = create_app(auth_settings, database_url=db_url, providers=providers, background=False)
    forgetful = APIRouter()

    @forgetful.get("/v1/forgetful")
    async def open_door() -> dict:
        return {"ok": True}

    app.include_router(forgetful)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
    ):
        r = await c.get("/v1/forgetful")
        assert (r.status_code, r.json()) == (401, UNAUTHORIZED)
        assert (await c.get("/v1/forgetful", headers=ADMIN)).status_code == 200


async def test_a_route_that_forgets_its_scope_check_still_cannot_name_another_project(
    db_url, auth_settings, providers
):
    import httpx
    from fastapi import APIRouter

    from haki import auth
    from haki.api.app import create_app
    from haki.api.auth import PrincipalDep
    from haki.api.deps import DbDep

    app = create_app(auth_settings, database_url=db_url, providers=providers, background=False)
    buggy = APIRouter()

    @buggy.get("/v1/buggy")
    async def count_facts(principal: PrincipalDep, db: DbDep, project_id: str) -> dict:
        async with db.transaction(project_id=project_id) as conn:  # no principal.require: the bug
            row = await (await conn.execute("SELECT count(*) AS n FROM facts")).fetchone()
        return {"n": row["n"]}

    app.include_router(buggy)
    async with app.router.lifespan_context(app):
        key = await auth.issue(app.state.haki.db, org_id="default", project_id="A")
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://t"
        ) as c:
            r = await c.get("/v1/buggy", params={"project_id": "B"}, headers=bearer(key.secret))
            assert r.status_code == 403 and r.json()["error"]["type"] == "forbidden_scope"
            assert (
                await c.get("/v1/buggy", params={"project_id": "A"}, headers=bearer(key.secret))
            ).status_code == 200
            assert (
                await c.get("/v1/buggy", params={"project_id": "B"}, headers=ADMIN)
            ).status_code == 200
        # The binding ends with the request.
        async with app.state.haki.db.transaction(project_id="B"):
            pass


async def test_dev_mode_says_so_loudly(client, caplog):
    warnings = [r for r in caplog.get_records("setup") if r.levelname == "WARNING"]
    assert any("AUTH IS OFF" in r.getMessage() for r in warnings)
