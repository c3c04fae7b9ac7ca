"""Timeline, single reads and the fact listing on both time axes."""

import psycopg
from ledger_helpers import sql_rows
from psycopg import sql


def ev(i: int, subject: str = "u1", **over) -> dict:
    body = {
        "project_id": "p1",
        "subject_id": subject,
        "kind": "note",
        "occurred_at": f"2026-01-01T10:00:{i:02d}Z",
        "payload": {"i": i},
    }
    body.update(over)
    return body


async def test_timeline_orders_by_business_time_and_paginates(client):
    # captured out of order, in three requests
    for batch in ([ev(5), ev(1)], [ev(3), ev(2, subject="other")], [ev(4), ev(0)]):
        assert (await client.post("/v1/capture", json={"events": batch})).status_code == 202
    seen, cursor = [], None
    while True:
        params = {"project_id": "p1", "subject_id": "u1", "limit": 2}
        if cursor:
            params["cursor"] = cursor
        r = await client.get("/v1/timeline", params=params)
        assert r.status_code == 200, r.text
        page = r.json()
        seen += [e["payload"]["i"] for e in page["events"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [0, 1, 3, 4, 5]


async def test_equal_instants_keep_a_total_order(client):
    same = [ev(0, payload={"n": n}) for n in range(5)]
    await client.post("/v1/capture", json={"events": same})
    full = (
        await client.get("/v1/timeline", params={"project_id": "p1", "subject_id": "u1"})
    ).json()["events"]
    paged, cursor = [], None
    for _ in range(5):
        params = {
            "project_id": "p1",
            "subject_id": "u1",
            "limit": 1,
            **({"cursor": cursor} if cursor else {}),
        }
        page = (await client.get("/v1/timeline", params=params)).json()
        paged += page["events"]
        cursor = page["next_cursor"]
    assert cursor is None
    assert [e["id"] for e in paged] == [e["id"] for e in full] == sorted(e["id"] for e in full)


async def test_timeline_requires_both_scope_parameters(client):
    for params, field in (
        ({"project_id": "p1"}, "subject_id"),
        ({"subject_id": "u1"}, "project_id"),
    ):
        r = await client.get("/v1/timeline", params=params)
        assert r.status_code == 422
        assert r.json()["error"] == {
            "type": "missing_scope",
            "message": f"{field} is required",
            "field": field,
        }


async def test_bad_cursor_and_limit_are_422(client):
    base = {"project_id": "p1", "subject_id": "u1"}
    for params in (
        {**base, "cursor": "garbage!"},
        {**base, "cursor": "WyJmYWN0cyIsIngiLCJ5Il0"},
        {**base, "limit": 0},
    ):
        r = await client.get("/v1/timeline", params=params)
        assert r.status_code == 422 and r.json()["error"]["type"] == "invalid_payload", params


async def test_event_read_is_scoped_to_its_project(client):
    r = (await client.post("/v1/capture", json={"events": [ev(0)]})).json()
    event_id = r["events"][0]["id"]
    ok = await client.get(f"/v1/events/{event_id}", params={"project_id": "p1"})
    assert (
        ok.status_code == 200
        and ok.json()["id"] == event_id
        and ok.json()["hash"].startswith("sha256:")
    )
    other = await client.get(f"/v1/events/{event_id}", params={"project_id": "p2"})
    missing = await client.get(
        "/v1/events/00000000-0000-0000-0000-000000000001", params={"project_id": "p1"}
    )
    assert other.status_code == missing.status_code == 404
    assert other.json() == missing.json()
    assert (await client.get(f"/v1/events/{event_id}")).json()["error"]["type"] == "missing_scope"


async def test_fact_read_and_cross_project_404(client, facts_in):
    fact_id = facts_in(source_event_ids="{00000000-0000-0000-0000-00000000000a}")
    r = await client.get(f"/v1/facts/{fact_id}", params={"project_id": "p1"})
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "active" and body["version"] == 1 and body["value"] == "Lyon"
    assert (
        body["source_event_ids"] == ["00000000-0000-0000-0000-00000000000a"]
        and "embedding" not in body
    )
    assert (
        await client.get(f"/v1/facts/{fact_id}", params={"project_id": "p2"})
    ).status_code == 404


async def test_list_facts_with_lineage_and_status_filter(client, facts_in):
    old = facts_in(
        value='"Paris"', status="superseded", valid_from="2025-01-01Z", valid_to="2026-01-01Z"
    )
    new = facts_in(value='"Lyon"', status="active", valid_from="2026-01-01Z", supersedes_id=old)
    gone = facts_in(value='"Nice"', status="deleted", recorded_to="2026-02-01Z")
    facts_in(subject_id="u2")
    r = await client.get("/v1/facts", params={"project_id": "p1", "subject_id": "u1"})
    listed = {f["id"]: f for f in r.json()["facts"]}
    assert set(listed) == {old, new}  # current knowledge: the deleted one is gone
    assert listed[new]["supersedes_id"] == old
    r = await client.get(
        "/v1/facts", params={"project_id": "p1", "subject_id": "u1", "status": "active"}
    )
    assert [f["id"] for f in r.json()["facts"]] == [new]
    r = await client.get(
        "/v1/facts", params={"project_id": "p1", "subject_id": "u1", "status": "bogus"}
    )
    assert r.status_code == 422
    assert gone


async def test_as_of_answers_what_was_true_then(client, facts_in):
    old = facts_in(
        value='"Paris"', status="superseded", valid_from="2025-01-01Z", valid_to="2026-01-01Z"
    )
    new = facts_in(value='"Lyon"', status="active", valid_from="2026-01-01Z", supersedes_id=old)
    base = {"project_id": "p1", "subject_id": "u1"}
    then = (await client.get("/v1/facts", params={**base, "as_of": "2025-06-01T00:00:00Z"})).json()[
        "facts"
    ]
    now = (await client.get("/v1/facts", params={**base, "as_of": "2026-06-01T00:00:00Z"})).json()[
        "facts"
    ]
    edge = (await client.get("/v1/facts", params={**base, "as_of": "2026-01-01T00:00:00Z"})).json()[
        "facts"
    ]
    assert [f["id"] for f in then] == [old]
    assert [f["id"] for f in now] == [new]
    assert [f["id"] for f in edge] == [new]  # valid_to is exclusive
    naive = await client.get("/v1/facts", params={**base, "as_of": "2025-06-01T00:00:00"})
    assert naive.status_code == 422 and naive.json()["error"]["field"] == "as_of"
    active_then = (
        await client.get(
            "/v1/facts", params={**base, "as_of": "2025-06-01T00:00:00Z", "status": "active"}
        )
    ).json()["facts"]
    assert active_then == []


async def test_known_at_answers_what_we_knew_then(client, facts_in):
    learned = facts_in(recorded_from="2026-01-10Z")
    forgotten = facts_in(
        value='"Nice"', status="deleted", recorded_from="2026-01-01Z", recorded_to="2026-01-20Z"
    )
    base = {"project_id": "p1", "subject_id": "u1"}

    async def known(at: str) -> list[str]:
        return [
            f["id"]
            for f in (await client.get("/v1/facts", params={**base, "known_at": at})).json()[
                "facts"
            ]
        ]

    assert await known("2025-12-31T00:00:00Z") == []
    assert await known("2026-01-05T00:00:00Z") == [forgotten]
    assert await known("2026-01-15T00:00:00Z") == [forgotten, learned]
    assert await known("2026-01-25T00:00:00Z") == [learned]


async def test_fact_listing_paginates_in_a_total_order(client, facts_in):
    made = sorted(facts_in(predicate=f"p{i}", recorded_from="2026-01-01Z") for i in range(7))
    got, cursor = [], None
    while True:
        params = {
            "project_id": "p1",
            "subject_id": "u1",
            "limit": 3,
            **({"cursor": cursor} if cursor else {}),
        }
        page = (await client.get("/v1/facts", params=params)).json()
        got += [f["id"] for f in page["facts"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert got == made
    timeline_cursor = (
        await client.get("/v1/timeline", params={"project_id": "p1", "subject_id": "u1"})
    ).json()
    assert timeline_cursor["next_cursor"] is None


async def test_database_outage_is_503_in_the_envelope(client, db_url, pg_maintenance_url):
    name = psycopg.conninfo.conninfo_to_dict(db_url)["dbname"]

    def allow(on: bool) -> None:
        with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
            stmt = sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}")
            conn.execute(stmt.format(sql.Identifier(name), sql.Literal(on)))
            if not on:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                    (name,),
                )

    allow(False)
    try:
        r = await client.get("/v1/timeline", params={"project_id": "p1", "subject_id": "u1"})
        assert r.status_code == 503
        assert r.json()["error"]["type"] == "database_unavailable"
        assert int(r.headers["retry-after"]) >= 1
        r = await client.post("/v1/capture", json={"events": [ev(0)]})
        assert r.status_code == 503 and "retry-after" in r.headers
    finally:
        allow(True)
    r = await client.get("/v1/timeline", params={"project_id": "p1", "subject_id": "u1"})
    assert r.status_code == 200
    assert sql_rows(db_url, "SELECT count(*) FROM events") == [(0,)]
