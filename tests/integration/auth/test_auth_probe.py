"""Auth-on cases of the adversarial probe (issue 42), kept as tests.

Listings that refused a project key without ``project_id`` and let hostile
identifiers through; device login that 1,000 keyless starts from one address
locked for everyone; the admin key that no limit applied to.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import httpx
import pytest
from auth_helpers import ADMIN, bearer

from haki.config import load_settings


async def _one_window() -> None:
    # Calls counted per minute must fall in one window of the shared counter.
    second = datetime.now(UTC).second
    if second >= 50:
        await asyncio.sleep(61 - second)


@asynccontextmanager
async def from_address(app, host: str) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, client=(host, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c:
        yield c


# --- /v1/subjects and /v1/traces -------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/subjects", "/v1/traces"])
async def test_listings_use_the_keys_project_when_none_is_named(authed_client, mint, path):
    key = await mint("alpha")
    r = await authed_client.post(
        "/v1/facts",
        json={"subject_id": "maya", "predicate": "home_city", "value": "Lyon"},
        headers=bearer(key.secret),
    )
    assert r.status_code == 201, r.text
    r = await authed_client.get(path, headers=bearer(key.secret))
    assert r.status_code == 200, r.text
    if path == "/v1/subjects":
        assert [s["subject_id"] for s in r.json()["subjects"]] == ["maya"]
    # Naming another project is still refused; the admin key must name one.
    other = await authed_client.get(path, params={"project_id": "beta"}, headers=bearer(key.secret))
    assert other.status_code == 403 and other.json()["error"]["type"] == "forbidden_scope"
    admin = await authed_client.get(path, headers=ADMIN)
    assert admin.status_code == 422 and admin.json()["error"]["type"] == "missing_scope"


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/v1/subjects", {"project_id": "al\x07pha"}, "project_id"),
        ("/v1/subjects", {"project_id": "alpha", "prefix": "a\x00b"}, "prefix"),
        ("/v1/subjects", {"project_id": "alpha", "cursor": "c\x00"}, "cursor"),
        ("/v1/traces", {"project_id": "al\x07pha"}, "project_id"),
        ("/v1/traces", {"project_id": "alpha", "subject_id": "s\x00"}, "subject_id"),
        ("/v1/traces", {"project_id": "alpha", "subject_id": "s\x01"}, "subject_id"),
        ("/v1/traces", {"project_id": "alpha", "cursor": "c\x00"}, "cursor"),
    ],
)
async def test_listings_refuse_hostile_identifiers_by_name(authed_client, path, params, field):
    r = await authed_client.get(path, params=params, headers=ADMIN)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert (err["type"], err["field"]) == ("invalid_payload", field)


# --- device login ----------------------------------------------------------------------


async def test_a_thousand_keyless_starts_from_one_address_lock_out_only_that_address(
    authed_client,
):
    app = authed_client.app
    await _one_window()
    async with from_address(app, "203.0.113.7") as noisy:
        answers = [(await noisy.post("/v1/cli/device/start")).status_code for _ in range(1000)]
        refused = await noisy.post("/v1/cli/device/start")
    # A few logins from that address, never more than it may have pending.
    assert 1 <= answers.count(200) <= 10 and set(answers) == {200, 429}
    assert refused.status_code == 429 and refused.json()["error"]["type"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    async with from_address(app, "198.51.100.23") as other:
        r = await other.post("/v1/cli/device/start")
        assert r.status_code == 200, r.text
        poll = await other.post(
            "/v1/cli/device/poll", json={"device_code": r.json()["device_code"]}
        )
        assert poll.status_code == 200 and poll.json()["status"] == "pending"


async def test_pending_logins_are_capped_per_address_even_without_a_call_limit(
    make_client, auth_settings
):
    unlimited = load_settings(**{**auth_settings.model_dump(), "device_start_per_minute": 0})
    async with make_client(unlimited) as c:
        async with from_address(c.app, "203.0.113.8") as noisy:
            answers = [(await noisy.post("/v1/cli/device/start")).status_code for _ in range(15)]
        assert answers == [200] * 10 + [429] * 5
        async with from_address(c.app, "198.51.100.24") as other:
            assert (await other.post("/v1/cli/device/start")).status_code == 200


async def test_polls_are_limited_per_address(make_client, auth_settings):
    limited = load_settings(**{**auth_settings.model_dump(), "device_poll_per_minute": 5})
    async with make_client(limited) as c:
        await _one_window()
        body = {"device_code": "not-a-real-code"}
        async with from_address(c.app, "203.0.113.9") as noisy:
            answers = [
                (await noisy.post("/v1/cli/device/poll", json=body)).status_code for _ in range(8)
            ]
        assert answers == [200] * 5 + [429] * 3
        async with from_address(c.app, "198.51.100.25") as other:
            assert (await other.post("/v1/cli/device/poll", json=body)).status_code == 200
