"""POST /v1/facts/{id}/status: the lifecycle table, versions, row locks."""

import asyncio

import httpx
import pytest
from ledger_helpers import sql_rows

from haki.ledger import ALLOWED

STATUSES = list(ALLOWED)


async def move(client, fact_id: str, status: str, **extra):
    return await client.post(
        f"/v1/facts/{fact_id}/status", json={"project_id": "p1", "status": status, **extra}
    )


@pytest.mark.parametrize("start", STATUSES)
async def test_every_pair_follows_the_table(client, facts_in, start):
    for target in STATUSES:
        fact_id = facts_in(status=start)
        r = await move(client, fact_id, target)
        if target in ALLOWED[start]:
            assert r.status_code == 200, (start, target, r.text)
            assert r.json()["status"] == target and r.json()["version"] == 2
        else:
            assert r.status_code == 422, (start, target)
            assert r.json()["error"]["type"] == "illegal_status_transition"


async def test_unknown_status_is_an_illegal_transition(client, facts_in):
    r = await move(client, facts_in(), "archived")
    assert r.status_code == 422 and r.json()["error"]["type"] == "illegal_status_transition"


async def test_versions_bump_and_stale_version_conflicts(client, facts_in, db_url):
    fact_id = facts_in(status="candidate")
    assert (await move(client, fact_id, "active", expected_version=1, reason="confirmed")).json()[
        "version"
    ] == 2
    stale = await move(client, fact_id, "disabled", expected_version=1)
    assert stale.status_code == 409 and stale.json()["error"]["type"] == "version_conflict"
    assert stale.json()["error"]["field"] == "expected_version"
    assert (await move(client, fact_id, "disabled", expected_version=2)).json()["version"] == 3
    log = sql_rows(
        db_url,
        "SELECT from_status, to_status, version, reason FROM fact_transitions "
        "WHERE fact_id = %s ORDER BY version",
        fact_id,
    )
    assert log == [("candidate", "active", 2, "confirmed"), ("active", "disabled", 3, None)]


async def test_deleted_is_terminal_and_closes_recorded_to(client, facts_in):
    fact_id = facts_in()
    body = (await move(client, fact_id, "deleted")).json()
    assert body["status"] == "deleted" and body["recorded_to"] is not None
    again = await move(client, fact_id, "active")
    assert again.status_code == 422


async def test_other_project_and_missing_fact_are_404(client, facts_in):
    fact_id = facts_in()
    r = await client.post(
        f"/v1/facts/{fact_id}/status", json={"project_id": "p2", "status": "disabled"}
    )
    assert r.status_code == 404
    r = await move(client, "00000000-0000-0000-0000-000000000001", "disabled")
    assert r.status_code == 404


async def test_concurrent_mutations_with_the_same_version_one_wins(client, facts_in):
    fact_id = facts_in(status="active")
    transport = httpx.ASGITransport(app=client.app)

    async def attempt(target: str) -> int:
        async with httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c:
            r = await c.post(
                f"/v1/facts/{fact_id}/status",
                json={"project_id": "p1", "status": target, "expected_version": 1},
            )
            return r.status_code

    codes = await asyncio.gather(
        *(attempt(t) for t in ["disputed", "disabled", "superseded", "disputed"])
    )
    assert sorted(codes) == [200, 409, 409, 409]
    final = (await client.get(f"/v1/facts/{fact_id}", params={"project_id": "p1"})).json()
    assert final["version"] == 2
