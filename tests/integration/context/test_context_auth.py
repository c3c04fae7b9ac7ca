"""Every context route checks the project it names against the caller's key."""

import pytest
from fastapi import Request

from haki.api.auth import Principal, get_principal

CALLS = [
    ("post", "/v1/context", {"json": {"project_id": "other", "subject_id": "s", "query": "x"}}),
    (
        "get",
        "/v1/inspect/00000000-0000-0000-0000-000000000001",
        {"params": {"project_id": "other", "subject_id": "s"}},
    ),
    ("get", "/v1/stats/overview", {"params": {"project_id": "other"}}),
    (
        "post",
        "/v1/feedback",
        {
            "json": {
                "project_id": "other",
                "rating": "useful",
                "trace_id": "00000000-0000-0000-0000-000000000001",
            }
        },
    ),
]


@pytest.mark.parametrize(("method", "path", "kwargs"), CALLS, ids=[c[1] for c in CALLS])
async def test_a_key_of_another_project_is_forbidden(client, method, path, kwargs):
    key = Principal(project_id="proj", key_id="k1")

    async def as_key(request: Request) -> Principal:
        request.state.haki_principal = key
        return key

    client.app.dependency_overrides[get_principal] = as_key
    try:
        r = await getattr(client, method)(path, **kwargs)
    finally:
        client.app.dependency_overrides.clear()
    assert r.status_code == 403 and r.json()["error"]["type"] == "forbidden_scope"
