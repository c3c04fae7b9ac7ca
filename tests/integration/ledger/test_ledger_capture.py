"""POST /v1/capture: idempotency, limits, typed errors, the consolidation job."""

import asyncio
import json

import httpx
from ledger_helpers import sql_rows as rows

from haki.ledger.planning import MAX_CONTENT_BYTES


def event(i: int = 0, **over) -> dict:
    body = {
        "org_id": "acme",
        "project_id": "p1",
        "subject_id": "u1",
        "kind": "conversation.message",
        "occurred_at": f"2026-01-01T10:00:{i:02d}Z",
        "payload": {"text": f"message {i}"},
    }
    body.update(over)
    return body


async def test_capture_writes_events_and_one_job(client, db_url):
    r = await client.post("/v1/capture", json={"events": [event(0), event(1)]})
    assert r.status_code == 202, r.text
    body = r.json()
    assert body["status"] == "accepted"
    assert [e["deduplicated"] for e in body["events"]] == [False, False]
    ids = [e["id"] for e in body["events"]]
    jobs = rows(db_url, "SELECT id::text, kind, org_id, project_id, subject_id, payload FROM jobs")
    assert len(jobs) == 1
    job_id, kind, org, project, subject, payload = jobs[0]
    assert (job_id, kind, org, project, subject) == (
        body["consolidation_job_id"],
        "consolidate",
        "acme",
        "p1",
        "u1",
    )
    # A job also records its size in bytes (jobs.sizing), which bounds its work.
    assert payload["event_ids"] == ids and payload["bytes"] > 0
    stored = rows(
        db_url,
        "SELECT hash, origin_trust, recorded_at IS NOT NULL FROM events ORDER BY occurred_at",
    )
    assert all(
        h.startswith("sha256:") and len(h) == 71 and t == "trusted" and rec for h, t, rec in stored
    )


async def test_replay_returns_same_ids_flagged_deduplicated(client, db_url):
    batch = {"events": [event(0), event(1), event(2)], "idempotency_key": "batch-1"}
    first = (await client.post("/v1/capture", json=batch)).json()
    second = (await client.post("/v1/capture", json=batch)).json()
    assert [e["id"] for e in second["events"]] == [e["id"] for e in first["events"]]
    assert all(e["deduplicated"] for e in second["events"])
    assert second["consolidation_job_id"] is None
    assert rows(db_url, "SELECT count(*) FROM events")[0][0] == 3
    assert rows(db_url, "SELECT count(*) FROM jobs")[0][0] == 1


async def test_partial_replay_enqueues_only_new_events(client, db_url):
    await client.post("/v1/capture", json={"events": [event(0)], "idempotency_key": "k"})
    r = (
        await client.post(
            "/v1/capture", json={"events": [event(0), event(1)], "idempotency_key": "k"}
        )
    ).json()
    assert [e["deduplicated"] for e in r["events"]] == [True, False]
    payload = rows(db_url, "SELECT payload FROM jobs WHERE id = %s", r["consolidation_job_id"])[0][
        0
    ]
    assert payload["event_ids"] == [r["events"][1]["id"]] and payload["bytes"] > 0


async def test_identical_events_in_one_batch_are_one_event(client, db_url):
    # Same content under one batch key means the same namespaced key: by
    # design the second position is the first event, flagged deduplicated.
    batch = {"events": [event(0), event(1), event(0)], "idempotency_key": "b"}
    r = (await client.post("/v1/capture", json=batch)).json()
    ids = [e["id"] for e in r["events"]]
    assert ids[0] == ids[2] != ids[1]
    assert [e["deduplicated"] for e in r["events"]] == [False, False, True]
    assert rows(db_url, "SELECT count(*) FROM events")[0][0] == 2
    job = rows(db_url, "SELECT payload FROM jobs")[0][0]
    assert job["event_ids"] == [ids[0], ids[1]] and job["bytes"] > 0


async def test_key_precedence_batch_then_event_then_content(client, db_url):
    await client.post(
        "/v1/capture", json={"events": [event(0, idempotency_key="own")], "idempotency_key": "bk"}
    )
    await client.post("/v1/capture", json={"events": [event(1, idempotency_key="own")]})
    await client.post("/v1/capture", json={"events": [event(2)]})
    keys = [r[0] for r in rows(db_url, "SELECT idempotency_key FROM events ORDER BY occurred_at")]
    hashes = rows(db_url, "SELECT hash FROM events ORDER BY occurred_at")
    h0, h2 = hashes[0][0], hashes[2][0]
    assert keys == [f"bk:{h0}", "own", f"{h2}:u1"]
    # Without any key, the same content captured again is the same event.
    again = (await client.post("/v1/capture", json={"events": [event(2)]})).json()
    assert again["events"][0]["deduplicated"] is True


async def test_event_key_repeated_in_one_batch_resolves_to_first(client):
    batch = {"events": [event(0, idempotency_key="x"), event(1, idempotency_key="x")]}
    r = (await client.post("/v1/capture", json=batch)).json()
    assert r["events"][0]["id"] == r["events"][1]["id"]
    assert [e["deduplicated"] for e in r["events"]] == [False, True]


async def test_same_key_in_another_project_is_another_event(client, db_url):
    a = (await client.post("/v1/capture", json={"events": [event(0, idempotency_key="k")]})).json()
    b = (
        await client.post(
            "/v1/capture", json={"events": [event(0, project_id="p2", idempotency_key="k")]}
        )
    ).json()
    assert a["events"][0]["id"] != b["events"][0]["id"]
    assert b["events"][0]["deduplicated"] is False


async def test_concurrent_replays_never_duplicate(client, db_url):
    batch = {"events": [event(i) for i in range(20)], "idempotency_key": "race"}
    app = client.app
    transport = httpx.ASGITransport(app=app)

    async def send() -> dict:
        async with httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c:
            r = await c.post("/v1/capture", json=batch)
            assert r.status_code == 202, r.text
            return r.json()

    results = await asyncio.gather(*(send() for _ in range(8)))
    id_lists = {tuple(e["id"] for e in r["events"]) for r in results}
    assert len(id_lists) == 1
    assert sum(not e["deduplicated"] for r in results for e in r["events"]) == 20
    assert sum(r["consolidation_job_id"] is not None for r in results) >= 1
    assert rows(db_url, "SELECT count(*) FROM events")[0][0] == 20
    # Every event is referenced by exactly one job.
    refs = [e for (p,) in rows(db_url, "SELECT payload FROM jobs") for e in p["event_ids"]]
    assert sorted(refs) == sorted(id_lists.pop())


async def test_missing_subject_names_the_event_index(client, db_url):
    events = [event(i) for i in range(5)]
    del events[3]["subject_id"]
    r = await client.post("/v1/capture", json={"events": events})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["type"] == "missing_scope" and err["field"] == "events[3].subject_id"
    assert "events[3]" in err["message"]
    assert rows(db_url, "SELECT count(*) FROM events")[0][0] == 0
    blank = await client.post("/v1/capture", json={"events": [event(0, subject_id="  ")]})
    assert blank.json()["error"]["field"] == "events[0].subject_id"


async def test_oversize_payload_is_413_and_writes_nothing(client, db_url):
    big = {"text": "x" * MAX_CONTENT_BYTES}
    r = await client.post("/v1/capture", json={"events": [event(0), event(1, payload=big)]})
    assert r.status_code == 413
    assert r.json()["error"] == {
        "type": "payload_too_large",
        "message": r.json()["error"]["message"],
        "field": "events[1].payload",
    }
    # payload and source count together
    half = {"text": "y" * (MAX_CONTENT_BYTES // 2)}
    r = await client.post("/v1/capture", json={"events": [event(0, payload=half, source=half)]})
    assert r.status_code == 413
    assert rows(db_url, "SELECT count(*) FROM events")[0][0] == 0


async def test_too_many_events_is_413(client):
    r = await client.post(
        "/v1/capture", json={"events": [event(i % 60, subject_id=f"s{i}") for i in range(1001)]}
    )
    assert r.status_code == 413 and r.json()["error"]["field"] == "events"


async def test_huge_body_is_refused_before_parsing(client):
    from haki.api.routes.capture import MAX_BODY_BYTES

    r = await client.post(
        "/v1/capture",
        content=b"{" + b" " * MAX_BODY_BYTES + b"}",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["error"]["type"] == "payload_too_large"


async def test_field_limits_and_malformed_input_are_typed_4xx(client, db_url):
    cases = [
        (event(0, actor_id="a" * 129), "events[0].actor_id"),
        (event(0, idempotency_key="k" * 257), "events[0].idempotency_key"),
        (event(0, occurred_at="2026-01-01T10:00:00"), "events[0].occurred_at"),
        (event(0, subject_id="bad\u0000id"), "events[0].subject_id"),
        (event(0, payload={"t": "nul \u0000 inside"}), "events[0].payload"),
        (event(0, payload=["not", "an", "object"]), "events[0].payload"),
        (event(0, kind=""), "events[0].kind"),
        ({k: v for k, v in event(0).items() if k != "occurred_at"}, "events[0].occurred_at"),
    ]
    for bad, field in cases:
        r = await client.post("/v1/capture", json={"events": [event(1), bad]})
        assert r.status_code == 422, (field, r.text)
        got = r.json()["error"]["field"]
        assert got == field.replace("[0]", "[1]"), (field, got)
    r = await client.post("/v1/capture", json={"events": [event(0)], "idempotency_key": "k" * 257})
    assert r.status_code == 422 and r.json()["error"]["field"] == "idempotency_key"
    r = await client.post("/v1/capture", json={"events": []})
    assert r.status_code == 422 and r.json()["error"]["field"] == "events"
    assert rows(db_url, "SELECT count(*) FROM events")[0][0] == 0


async def test_naive_datetime_message_is_clear(client):
    r = await client.post(
        "/v1/capture", json={"events": [event(0, occurred_at="2026-01-01T10:00:00")]}
    )
    assert "timezone" in r.json()["error"]["message"]


async def test_client_hash_is_refused_and_offsets_normalise(client, db_url):
    forged = event(0, occurred_at="2026-01-01T12:00:00+02:00", hash="sha256:forged")
    r = await client.post("/v1/capture", json={"events": [forged]})
    # the server computes the hash; a client-sent one is an unknown field
    assert r.status_code == 422 and r.json()["error"]["field"] == "events[0].hash"
    a = event(0, occurred_at="2026-01-01T12:00:00+02:00")
    b = event(0, occurred_at="2026-01-01T10:00:00Z")
    r = (await client.post("/v1/capture", json={"events": [a, b]})).json()
    # the same instant with another offset is the same content
    assert r["events"][0]["id"] == r["events"][1]["id"]


async def test_one_batch_is_one_project(client, db_url):
    r = await client.post("/v1/capture", json={"events": [event(0), event(1, project_id="p2")]})
    assert r.status_code == 422 and r.json()["error"]["field"] == "events[1].project_id"
    assert rows(db_url, "SELECT count(*) FROM events")[0][0] == 0


async def test_mixed_subjects_enqueue_a_job_without_subject(client, db_url):
    r = (
        await client.post("/v1/capture", json={"events": [event(0), event(1, subject_id="u2")]})
    ).json()
    assert rows(db_url, "SELECT subject_id FROM jobs WHERE id = %s", r["consolidation_job_id"]) == [
        (None,)
    ]


async def test_origin_trust_defaults_and_explicit_values(client, db_url):
    events = [
        event(0),
        event(1, actor_type="agent"),
        event(2, actor_type="tool"),
        event(3, actor_type="user", origin_trust="third_party"),
        event(4, actor_type="agent", origin_trust="trusted"),  # dev mode is a trusted caller
    ]
    await client.post("/v1/capture", json={"events": events})
    trust = [r[0] for r in rows(db_url, "SELECT origin_trust FROM events ORDER BY occurred_at")]
    assert trust == ["trusted", "semi_trusted", "semi_trusted", "third_party", "trusted"]
    r = await client.post("/v1/capture", json={"events": [event(5, origin_trust="bogus")]})
    assert r.status_code == 422


async def test_stored_content_is_what_was_sent(client, db_url):
    e = event(
        0,
        source={"app": "slack", "n": 1.5},
        classification=["customer-data"],
        thread_id="t1",
        payload={"messages": [{"role": "user", "content": "J'aime le café ☕"}]},
    )
    r = (await client.post("/v1/capture", json={"events": [e]})).json()
    got = (
        await client.get(f"/v1/events/{r['events'][0]['id']}", params={"project_id": "p1"})
    ).json()
    assert got["payload"] == e["payload"] and got["source"] == e["source"]
    assert got["classification"] == ["customer-data"] and got["thread_id"] == "t1"
    assert got["org_id"] == "acme" and got["subject_type"] == "user"
    assert json.dumps(got)  # serialisable as returned
