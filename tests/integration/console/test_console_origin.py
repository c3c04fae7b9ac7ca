"""Cross-site requests to the console, and framing of every page the server sends.

A form post carrying a valid CSRF token is still refused when the browser
says it comes from another site (``Sec-Fetch-Site``, ``Origin``); no page the
server sends (Swagger UI, static files, 404s) may be framed by another site.
"""

from __future__ import annotations

import re

import httpx
import pytest


async def _csrf(client: httpx.AsyncClient) -> str:
    page = await client.get("/console/sign-in")
    assert page.status_code == 200
    found = re.search(r'name="csrf" value="([0-9a-f]{64})"', page.text)
    assert found is not None
    return found.group(1)


CROSS_SITE = [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://haki.test"},
]


@pytest.mark.parametrize("headers", CROSS_SITE)
async def test_a_cross_site_sign_in_is_refused_even_with_the_token(client, headers):
    csrf = await _csrf(client)
    r = await client.post(
        "/console/sign-in", data={"csrf": csrf, "project_id": "p"}, headers=headers
    )
    assert r.status_code == 403 and "csrf_failed" in r.text
    assert "haki_console_project" not in r.cookies


@pytest.mark.parametrize(
    "headers",
    [
        {},  # no browser headers: the token alone decides
        {"Origin": "http://haki.test"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://haki.test"},
        {"Origin": "https://console.example", "X-Forwarded-Host": "console.example"},
    ],
)
async def test_a_same_site_sign_in_goes_through(client, headers):
    csrf = await _csrf(client)
    r = await client.post(
        "/console/sign-in", data={"csrf": csrf, "project_id": "p"}, headers=headers
    )
    assert r.status_code == 303, r.text


async def test_a_cross_site_post_of_a_signed_in_page_is_refused(client):
    csrf = await _csrf(client)
    r = await client.post("/console/sign-in", data={"csrf": csrf, "project_id": "p"})
    assert r.status_code == 303
    page = await client.get("/console/keys")
    token = re.search(r'name="csrf" value="([0-9a-f]{64})"', page.text)
    assert token is not None
    form = {"csrf": token.group(1), "label": "forged"}
    r = await client.post("/console/keys", data=form, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403 and "csrf_failed" in r.text
    listed = await client.get("/v1/keys", params={"project_id": "p"})
    assert all(k["label"] != "forged" for k in listed.json()["keys"])


@pytest.mark.parametrize(
    "path",
    [
        "/docs",
        "/docs/assets/swagger-ui.css",
        "/console/static/console.css",
        "/console/no-such-page",
        "/no-such-page",
        "/openapi.json",
        "/health",
    ],
)
async def test_no_page_of_the_server_may_be_framed(client, path):
    r = await client.get(path)
    assert r.headers["x-frame-options"] == "DENY", (path, r.status_code)
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


async def test_console_pages_keep_their_own_full_policy(client):
    r = await client.get("/console/sign-in")
    policy = r.headers.get_list("content-security-policy")
    assert len(policy) == 1 and "default-src 'none'" in policy[0]
