"""Keys never reach a log record or an error message."""

import logging

from auth_helpers import ADMIN, ADMIN_KEY, bearer


async def test_no_key_appears_in_logs_or_error_bodies(authed_client, mint, caplog):
    caplog.set_level(logging.DEBUG)  # root: every logger, every level
    valid = await mint("A")
    revoked = await mint("A")
    await authed_client.delete(f"/v1/keys/{revoked.record.id}", headers=ADMIN)
    unknown = "hk_" + "Z" * 43
    secrets = [valid.secret, revoked.secret, unknown, ADMIN_KEY]

    bodies = []
    for headers in (
        bearer(valid.secret),
        bearer(revoked.secret),
        bearer(unknown),
        ADMIN,
        bearer(ADMIN_KEY + "!"),
    ):
        for method, path, kwargs in (
            ("GET", "/v1/keys", {"params": {"project_id": "A"}}),
            ("POST", "/v1/keys", {"json": {"project_id": "B", "label": "x"}}),
            ("DELETE", "/v1/keys/not-an-id", {}),
            ("GET", "/v1/nowhere", {}),
        ):
            r = await authed_client.request(method, path, headers=headers, **kwargs)
            bodies.append(r.text)
    # A key smuggled in a query string or header value is not logged either.
    r = await authed_client.get(
        "/v1/keys", params={"api_key": valid.secret}, headers={"X-Api-Key": valid.secret}
    )
    bodies.append(r.text)
    created = await authed_client.post(
        "/v1/keys", json={"project_id": "A"}, headers=bearer(valid.secret)
    )
    assert created.status_code == 201
    secrets.append(created.json()["key"])

    # The test's own HTTP client logs the URLs it sends; only the server's records count.
    server = [rec for rec in caplog.records if not rec.name.startswith(("httpx", "httpcore"))]
    logged = "\n".join(rec.getMessage() + repr(rec.args) + (rec.exc_text or "") for rec in server)
    assert "GET /v1/keys 401" in logged, "the access log should have recorded the requests"
    for secret in secrets:
        assert secret not in logged
        assert secret[8:] not in logged
        assert all(secret not in body for body in bodies)
