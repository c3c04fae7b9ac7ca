"""Per-key rate limit on /v1/context and /v1/capture: 429 rate_limited with Retry-After."""

import asyncio
from datetime import UTC, datetime

import pytest
from auth_helpers import bearer

from haki.config import load_settings


@pytest.mark.parametrize("path", ["/v1/capture", "/v1/context"])
async def test_rate_limit_is_per_key_and_per_route_family(make_client, path, auth_settings):
    limited = load_settings(**{**auth_settings.model_dump(), "rate_limit_per_minute": 2})
    async with make_client(limited) as c:
        from haki import auth

        db = c.app.state.haki.db
        a = await auth.issue(db, org_id="default", project_id="A")
        other = await auth.issue(db, org_id="default", project_id="A")

        # The calls must fall in one minute window of the shared counter.
        second = datetime.now(UTC).second
        if second >= 50:
            await asyncio.sleep(61 - second)
        # The limit is taken before the body is read, so an empty body is enough.
        statuses = [
            (await c.post(path, json={}, headers=bearer(a.secret))).status_code for _ in range(2)
        ]
        assert 429 not in statuses and 401 not in statuses and 404 not in statuses
        r = await c.post(path, json={}, headers=bearer(a.secret))
        assert r.status_code == 429 and r.json()["error"]["type"] == "rate_limited"
        assert 1 <= int(r.headers["Retry-After"]) <= 60  # the rest of the window

        # Another key has its own counter; other routes are not limited.
        assert (await c.post(path, json={}, headers=bearer(other.secret))).status_code != 429
        for _ in range(5):
            assert (await c.get("/v1/keys", headers=bearer(a.secret))).status_code == 200


async def test_zero_disables_the_limit(make_client, auth_settings):
    unlimited = load_settings(**{**auth_settings.model_dump(), "rate_limit_per_minute": 0})
    async with make_client(unlimited) as c:
        from haki import auth

        a = await auth.issue(c.app.state.haki.db, org_id="default", project_id="A")
        statuses = {
            (await c.post("/v1/capture", json={}, headers=bearer(a.secret))).status_code
            for _ in range(20)
        }
        assert 429 not in statuses
