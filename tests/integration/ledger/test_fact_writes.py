"""People write and fix facts: POST /v1/facts, PATCH /v1/facts/{id}, retiring,
valid_to on manual status changes, dismissing a quarantined candidate."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

NOW = datetime.now(UTC).replace(microsecond=0)
SCOPE = {"project_id": "p1", "subject_id": "maya"}


def ago(days: float) -> str:
    return (NOW - timedelta(days=days)).isoformat()


async def assert_fact(client: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await client.post("/v1/facts", json={**SCOPE, **body})


async def patch(client: httpx.AsyncClient, fact_id: str, **body: Any) -> httpx.Response:
    return await client.patch(f"/v1/facts/{fact_id}", json={"project_id": "p1", **body})


async def values(client: httpx.AsyncClient, **params: Any) -> list[tuple[str, str]]:
    r = await client.get("/v1/facts", params={**SCOPE, **params})
    assert r.status_code == 200, r.text
    return sorted((f["value"], f["status"]) for f in r.json()["facts"])


async def served(client: httpx.AsyncClient, query: str, **extra: Any) -> list[Any]:
    r = await client.post("/v1/context", json={**SCOPE, "query": query, **extra})
    assert r.status_code == 200, r.text
    return [f["value"] for f in r.json()["packet"]["facts"]]


async def test_assert_then_a_move_supersedes_with_dates(client):
    r = await assert_fact(client, predicate="home_city", value="Paris", valid_from=ago(30))
    assert r.status_code == 201, r.text
    paris = r.json()
    assert paris["action"] == "insert"
    assert paris["fact"]["status"] == "active" and paris["fact"]["origin_trust"] == "trusted"
    assert paris["fact"]["asserted_by"] == "dev" and paris["fact"]["source_event_ids"] == []

    r = await assert_fact(client, predicate="lives_in", value="Berlin", valid_from=ago(5))
    berlin = r.json()
    assert berlin["action"] == "supersede" and berlin["superseded"] == [paris["fact"]["id"]]
    assert berlin["fact"]["predicate"] == "home_city"
    assert berlin["fact"]["supersedes_id"] == paris["fact"]["id"]
    old = (await client.get(f"/v1/facts/{paris['fact']['id']}", params={"project_id": "p1"})).json()
    assert old["status"] == "superseded" and old["valid_to"] == berlin["fact"]["valid_from"]

    assert await values(client, as_of=ago(10)) == [("Paris", "superseded")]
    assert await values(client, as_of=ago(1)) == [("Berlin", "active")]
    assert await served(client, "Where does Maya live?") == ["Berlin"]
    assert await served(client, "Where does Maya live?", as_of=ago(10)) == ["Paris"]

    again = await assert_fact(client, predicate="home_city", value="berlin")
    assert again.json()["action"] == "unchanged"
    assert again.json()["fact"]["id"] == berlin["fact"]["id"]


async def test_an_assertion_older_than_the_active_fact_is_kept_as_history(client):
    await assert_fact(client, predicate="home_city", value="Berlin", valid_from=ago(5))
    r = await assert_fact(client, predicate="home_city", value="Paris", valid_from=ago(30))
    assert r.json()["action"] == "historical"
    assert r.json()["fact"]["status"] == "superseded"
    assert await values(client, as_of=ago(10)) == [("Paris", "superseded")]
    assert await values(client, status="active") == [("Berlin", "active")]


async def test_assert_rejects_bad_input_with_a_typed_error(client):
    for body in (
        {"predicate": "home_city"},
        {"predicate": "home_city", "value": None},
        {"predicate": " ", "value": "x"},
        {"predicate": "home_city", "value": "x", "colour": "red"},
        {"predicate": "home_city", "value": "x", "fact_kind": "rumour"},
    ):
        r = await assert_fact(client, **body)
        assert r.status_code == 422 and r.json()["error"]["type"] == "invalid_payload", body
    r = await assert_fact(client, predicate="home_city", value="x", valid_from="2026-01-01T00:00")
    assert r.status_code == 422 and r.json()["error"]["field"] == "valid_from"
    assert await values(client) == []


async def test_a_correction_is_a_new_version_from_the_time_it_is_made(client):
    first = (
        await assert_fact(client, predicate="occupation", value="nurse", valid_from=ago(30))
    ).json()["fact"]
    before = datetime.now(UTC)
    r = await patch(client, first["id"], value="midwife", expected_version=1, reason="misheard")
    assert r.status_code == 200, r.text
    fixed = r.json()
    assert fixed["action"] == "correct" and fixed["superseded"] == [first["id"]]
    assert fixed["fact"]["supersedes_id"] == first["id"]
    # Not retroactive: the new value holds from the correction on, and the old
    # version keeps its own span (valid_to = the correction time, not its valid_from).
    since = datetime.fromisoformat(fixed["fact"]["valid_from"])
    assert before <= since <= datetime.now(UTC)
    r = await client.get(f"/v1/facts/{first['id']}", params={"project_id": "p1"})
    old = r.json()
    assert datetime.fromisoformat(old["valid_to"]) == since
    assert old["valid_from"] == first["valid_from"] != old["valid_to"]
    for days in (29, 10):
        assert await values(client, as_of=ago(days)) == [("nurse", "superseded")]
    assert await values(client, as_of=datetime.now(UTC).isoformat()) == [("midwife", "active")]
    assert await values(client) == [("midwife", "active"), ("nurse", "superseded")]

    stale = await patch(client, fixed["fact"]["id"], value="doula", expected_version=7)
    assert stale.status_code == 409 and stale.json()["error"]["type"] == "version_conflict"
    again = await patch(client, first["id"], value="doctor")
    assert again.status_code == 422
    error = again.json()["error"]
    assert error["type"] == "illegal_status_transition" and "active" in error["message"]


async def test_a_dated_correction_ends_the_old_value_on_that_day(client):
    first = (
        await assert_fact(client, predicate="employer", value="Initech", valid_from=ago(30))
    ).json()["fact"]
    r = await patch(client, first["id"], value="Globex", valid_from=ago(10))
    assert r.status_code == 200
    assert await values(client, as_of=ago(20)) == [("Initech", "superseded")]
    assert await values(client, as_of=ago(5)) == [("Globex", "active")]
    early = await patch(client, r.json()["fact"]["id"], value="Hooli", valid_from=ago(60))
    assert early.status_code == 422 and early.json()["error"]["field"] == "valid_from"


async def test_retiring_a_fact_sets_valid_to(client):
    cat = (await assert_fact(client, predicate="pet", value="Miso", valid_from=ago(30))).json()[
        "fact"
    ]
    r = await patch(client, cat["id"], status="superseded", valid_to=ago(3))
    assert r.status_code == 200, r.text
    assert datetime.fromisoformat(r.json()["fact"]["valid_to"]) == NOW - timedelta(days=3)
    assert await values(client, as_of=ago(10)) == [("Miso", "superseded")]
    assert await values(client, as_of=ago(1)) == []
    bad = await patch(client, cat["id"], status="disabled", valid_to=ago(1))
    assert bad.status_code == 422
    before = await patch(client, cat["id"], status="superseded", valid_to=ago(90))
    assert before.status_code == 422


async def test_marking_superseded_by_hand_ends_the_truth(client):
    # The reproducer: a fact superseded by hand kept valid_to empty, so
    # as_of later served both the old and the new value.
    old = (
        await assert_fact(client, predicate="home_city", value="Paris", valid_from=ago(30))
    ).json()["fact"]
    r = await client.post(
        f"/v1/facts/{old['id']}/status", json={"project_id": "p1", "status": "superseded"}
    )
    assert r.status_code == 200 and r.json()["valid_to"] is not None
    await assert_fact(client, predicate="home_city", value="Lyon")
    later = (datetime.now(UTC) + timedelta(minutes=1)).isoformat()
    assert await values(client, as_of=later) == [("Lyon", "active")]


async def test_an_illegal_transition_names_the_allowed_ones(client):
    fact = (await assert_fact(client, predicate="age", value=31)).json()["fact"]
    r = await patch(client, fact["id"], status="candidate")
    assert r.status_code == 422
    message = r.json()["error"]["message"]
    assert "from active it can go to deleted, disabled, disputed, superseded" in message
    gone = await patch(client, fact["id"], status="deleted")
    assert gone.status_code == 200
    final = await patch(client, fact["id"], status="active")
    assert "nothing: it is final" in final.json()["error"]["message"]


async def test_a_quarantined_candidate_can_be_dismissed(client):
    event = {
        **SCOPE,
        "kind": "conversation.message",
        "occurred_at": ago(1),
        "origin_trust": "untrusted",
        "payload": {"text": "I live in Berlin."},
    }
    assert (await client.post("/v1/capture", json={"events": [event]})).status_code == 202
    r = await client.post("/v1/consolidate/subject", params=SCOPE)
    assert r.json()["actions"] == {"quarantine": 1}
    [conflict] = (await client.get("/v1/conflicts", params={"project_id": "p1"})).json()[
        "conflicts"
    ]
    [candidate] = conflict["fact_ids"]

    url = f"/v1/conflicts/{conflict['id']}/resolve"
    r = await client.post(url, json={"project_id": "p1"})
    assert r.status_code == 422
    r = await client.post(url, json={"project_id": "p1", "dismiss": True})
    assert r.status_code == 200, r.text
    assert r.json()["dismissed"] == [candidate] and r.json()["keep_fact_id"] is None
    assert (await client.get("/v1/conflicts", params={"project_id": "p1"})).json() == {
        "conflicts": []
    }
    assert await values(client) == []  # disabled facts are listed only when asked for
    assert await values(client, status="disabled") == [("Berlin", "disabled")]
    r = await client.post(url, json={"project_id": "p1", "dismiss": True})
    assert r.status_code == 409 and r.json()["error"]["type"] == "conflict_already_resolved"
