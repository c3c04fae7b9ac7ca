"""Hostile identifiers and text get a typed 4xx naming the field, never a 500.

Each case here answered 500 (psycopg DataError, UnicodeEncodeError,
OverflowError, an RLS refusal) or was accepted inconsistently before the
shared field types (``haki.api.schemas.fields``) checked them.
"""

from __future__ import annotations

import json
import uuid

import pytest
from api_helpers import EVENT

TRACE = str(uuid.uuid4())

# (method, path, where the scope goes: "query" or "body", extra body fields)
SCOPED_ROUTES = [
    ("GET", "/v1/timeline", "query", {}),
    ("GET", "/v1/facts", "query", {}),
    ("GET", f"/v1/facts/{TRACE}", "query", {}),
    ("GET", "/v1/jobs", "query", {}),
    ("GET", "/v1/conflicts", "query", {}),
    ("GET", "/v1/stats/overview", "query", {}),
    ("GET", "/v1/keys", "query", {}),
    ("GET", f"/v1/events/{TRACE}", "query", {}),
    ("GET", f"/v1/inspect/{TRACE}", "query", {}),
    ("POST", "/v1/consolidate/subject", "query", {}),
    ("POST", "/v1/context", "body", {"query": "where?"}),
    ("POST", "/v1/forget", "body", {}),
    ("POST", "/v1/feedback", "body", {"rating": "useful"}),
    ("POST", "/v1/keys", "body", {}),
    ("POST", "/v1/consolidate", "body", {}),
    ("POST", f"/v1/facts/{TRACE}/status", "body", {"status": "disputed"}),
    ("POST", f"/v1/conflicts/{TRACE}/resolve", "body", {"keep_fact_id": TRACE}),
]
SUBJECT_ROUTES = {
    "/v1/timeline",
    "/v1/facts",
    f"/v1/inspect/{TRACE}",
    "/v1/consolidate/subject",
    "/v1/context",
    "/v1/forget",
}


async def _call(client, method, path, where, extra, scope):
    if where == "query":
        return await client.request(method, path, params=scope)
    return await client.request(method, path, json={**extra, **scope})


def _scope(path: str, project: str, subject: str = "s") -> dict[str, str]:
    return {"project_id": project, **({"subject_id": subject} if path in SUBJECT_ROUTES else {})}


# One test per rule, looping over every route on one database: the rule is
# the same everywhere, and a database per case would cost minutes.


async def test_bad_project_id_is_invalid_payload_on_every_route(client):
    for method, path, where, extra in SCOPED_ROUTES:
        for bad in ["b\x00ad", "tab\there", "x" * 129, "\x7f", "a\x85b"]:
            r = await _call(client, method, path, where, extra, _scope(path, bad))
            assert r.status_code == 422, (path, bad, r.text)
            err = r.json()["error"]
            assert (err["type"], err["field"]) == ("invalid_payload", "project_id"), (path, err)


async def test_blank_project_id_is_missing_scope_on_every_route(client):
    for method, path, where, extra in SCOPED_ROUTES:
        for blank in ["", "  ", "\u3000"]:
            r = await _call(client, method, path, where, extra, _scope(path, blank))
            assert r.status_code == 422, (path, blank, r.text)
            err = r.json()["error"]
            assert (err["type"], err["field"]) == ("missing_scope", "project_id"), (path, err)


async def test_bad_subject_id_is_refused_on_every_route(client):
    for method, path, where, extra in SCOPED_ROUTES:
        if path not in SUBJECT_ROUTES:
            continue
        for bad, kind in [
            ("s\x00", "invalid_payload"),
            ("  ", "missing_scope"),
            ("\n", "missing_scope"),
        ]:
            r = await _call(client, method, path, where, extra, _scope(path, "p", bad))
            assert r.status_code == 422, (path, bad, r.text)
            err = r.json()["error"]
            assert (err["type"], err["field"]) == (kind, "subject_id"), (path, bad, err)


async def test_missing_subject_id_is_missing_scope(client):
    for method, path, where, extra in SCOPED_ROUTES:
        if path not in SUBJECT_ROUTES:
            continue
        r = await _call(client, method, path, where, extra, {"project_id": "p"})
        assert r.status_code == 422, (path, r.text)
        if path == "/v1/forget":  # forget takes a subject or a fact
            assert r.json()["error"]["field"] == "subject_id"
            continue
        assert r.json()["error"] == {
            "type": "missing_scope",
            "message": "subject_id is required",
            "field": "subject_id",
        }, path


async def test_forget_with_empty_project_is_refused_not_an_rls_500(client):
    r = await client.post("/v1/forget", json={"project_id": "", "subject_id": "s"})
    assert r.status_code == 422 and r.json()["error"]["type"] == "missing_scope"


def _raw_capture(event_json: str) -> bytes:
    return ('{"events": [' + event_json + "]}").encode()


@pytest.mark.parametrize(
    ("replace", "field"),
    [
        (('"I live', '"I \\ud800live'), "events[0].payload"),
        (('"subject_id": "s"', '"subject_id": "s\\udc00"'), "events[0].subject_id"),
        (('"project_id": "p"', '"project_id": "\\ud800"'), "events[0].project_id"),
        (('"content"', '"con\\udfff"'), "events[0].payload"),
        (('"I live', '"I \\u0000live'), "events[0].payload"),
        (('"kind": "message"', '"kind": "m\\u0000"'), "events[0].kind"),
    ],
)
async def test_lone_surrogates_and_nul_in_capture_are_refused(client, replace, field):
    body = json.dumps(EVENT).replace(*replace)
    r = await client.post(
        "/v1/capture", content=_raw_capture(body), headers={"content-type": "application/json"}
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"]["type"] == "invalid_payload"
    assert r.json()["error"]["field"] == field
    r = await client.get("/v1/timeline", params={"project_id": "p", "subject_id": "s"})
    assert r.json()["events"] == []


@pytest.mark.parametrize("when", ["9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+05:00"])
async def test_occurred_at_out_of_range_in_utc_is_refused(client, when):
    r = await client.post("/v1/capture", json={"events": [EVENT | {"occurred_at": when}]})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == "events[0].occurred_at"
    assert "out of range" in r.json()["error"]["message"]


@pytest.mark.parametrize("when", [1767171600, 1767171600.5, "1767171600"])
async def test_unix_number_occurred_at_is_refused(client, when):
    r = await client.post("/v1/capture", json={"events": [EVENT | {"occurred_at": when}]})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == "events[0].occurred_at"
    assert "ISO 8601" in r.json()["error"]["message"]


async def test_as_of_out_of_range_is_refused(client):
    r = await client.get(
        "/v1/facts",
        params={"project_id": "p", "subject_id": "s", "as_of": "0001-01-01T00:00:00+05:00"},
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "as_of"


async def test_nul_in_purpose_is_refused_before_a_trace_is_promised(client):
    r = await client.post(
        "/v1/context",
        json={"project_id": "p", "subject_id": "s", "query": "x", "purpose": "a\x00b"},
    )
    assert r.status_code == 422
    assert r.json()["error"] | {"message": None} == {
        "type": "invalid_payload",
        "message": None,
        "field": "purpose",
    }


async def test_nul_in_feedback_comment_is_refused(client):
    r = await client.post(
        "/v1/feedback",
        json={"project_id": "p", "subject_id": "s", "rating": "useful", "comment": "x\x00"},
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "comment"


async def test_text_keeps_newlines_and_tabs(client):
    r = await client.post(
        "/v1/context",
        json={"project_id": "p", "subject_id": "s", "query": "line\nnext\tcol"},
    )
    assert r.status_code == 200, r.text
