"""The hostile inputs of the adversarial probe (issue 42), kept as tests.

Each case answered 500, wrote what it refused, or made a subject unreadable
before its fix: JSON nested past what the serializer handles (a stored value
then broke every read of its subject), a predicate used as a format string,
a 405 naming one method of several.
"""

from __future__ import annotations

import json
import time

import psycopg
import pytest
from api_helpers import EVENT, SCOPE
from psycopg import sql

from haki.text.nesting import MAX_JSON_DEPTH


def nested(depth: int, leaf: object = 1) -> object:
    """A value of ``depth`` nested arrays (objects every other level)."""
    value = leaf
    for level in range(depth):
        value = {"k": value} if level % 2 else [value]
    return value


def deep_text(depth: int) -> str:
    # Built as text: json.dumps itself recurses and stops near 1,000 levels.
    return "[" * depth + "1" + "]" * depth


FACT = {**SCOPE, "predicate": "favorite_color", "value": "blue"}


def _count(db_url: str, table: str) -> int:
    with psycopg.connect(db_url) as conn:
        row = conn.execute(
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
        ).fetchone()
    assert row is not None
    return int(row[0])


def _assert_too_deep(r) -> None:
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["type"] == "invalid_payload" and f"{MAX_JSON_DEPTH} levels" in err["message"]


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH, 254, 300, 1_000, 10_000])
async def test_a_deep_fact_value_is_refused_and_nothing_is_written(client, db_url, depth):
    body = json.dumps(FACT | {"value": "@"}).replace('"@"', deep_text(depth))
    r = await client.post("/v1/facts", content=body, headers={"content-type": "application/json"})
    _assert_too_deep(r)
    assert _count(db_url, "facts") == 0
    # The subject stays readable.
    r = await client.get("/v1/facts", params=SCOPE)
    assert r.status_code == 200 and r.json()["facts"] == []


async def test_a_value_just_under_the_limit_is_stored_and_read_back(client):
    # The body object and "value" take two levels: the value itself may nest 62 more.
    value = nested(MAX_JSON_DEPTH - 2)
    r = await client.post("/v1/facts", json=FACT | {"value": value})
    assert r.status_code == 201, r.text
    listed = await client.get("/v1/facts", params=SCOPE)
    assert listed.status_code == 200 and listed.json()["facts"][0]["value"] == value
    ctx = await client.post("/v1/context", json=SCOPE | {"query": "favorite color?"})
    assert ctx.status_code == 200


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/capture", {"events": [EVENT | {"payload": {"content": "x", "deep": "@"}}]}),
        ("/v1/context", SCOPE | {"query": "q", "filters": "@"}),
        ("/v1/forget", SCOPE | {"mode": "@"}),
        ("/gateway/v1/chat/completions", {"model": "m", "messages": "@"}),
        ("/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": "@"}),
    ],
)
@pytest.mark.parametrize("depth", [300, 10_000])
async def test_every_json_body_has_the_same_depth_limit(client, db_url, path, body, depth):
    raw = json.dumps(body).replace('"@"', deep_text(depth))
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    r = await client.post(path, content=raw, headers=headers)
    _assert_too_deep(r)
    assert _count(db_url, "events") == 0


async def test_brackets_inside_strings_do_not_count(client):
    text = "[{" * 5_000
    r = await client.post("/v1/facts", json=FACT | {"value": text})
    assert r.status_code == 201, r.text
    assert r.json()["fact"]["value"] == text


async def test_a_subject_with_a_row_already_too_deep_stays_readable(client, db_url):
    """A row written before the limit (here forced in SQL) no longer breaks reads."""
    r = await client.post("/v1/facts", json=FACT)
    assert r.status_code == 201
    r = await client.post("/v1/capture", json={"events": [EVENT]})
    assert r.status_code in (200, 201, 202), r.text
    with psycopg.connect(db_url) as conn:
        conn.execute("UPDATE facts SET value = %s::jsonb", (deep_text(300),))
        conn.execute(
            "UPDATE events SET payload = jsonb_build_object('content', 'hi', 'deep', %s::jsonb)",
            (deep_text(300),),
        )
    facts = await client.get("/v1/facts", params=SCOPE)
    assert facts.status_code == 200, facts.text
    # Read back whole: the levels past the limit as their JSON text.
    value, levels = facts.json()["facts"][0]["value"], 0
    while isinstance(value, list):
        value, levels = value[0], levels + 1
    assert levels < MAX_JSON_DEPTH and json.loads(value) == json.loads(deep_text(300 - levels))
    timeline = await client.get("/v1/timeline", params=SCOPE)
    assert timeline.status_code == 200, timeline.text
    ctx = await client.post("/v1/context", json=SCOPE | {"query": "favorite color?"})
    assert ctx.status_code == 200, ctx.text


@pytest.mark.parametrize("predicate", ["x{}", "x{0}", "{v:>5000000}", "a}b{", "{s!r}", "%s{"])
async def test_a_predicate_is_data_not_a_format_string(client, predicate):
    started = time.perf_counter()
    r = await client.post("/v1/facts", json=FACT | {"predicate": predicate})
    elapsed = time.perf_counter() - started
    assert r.status_code == 201, r.text
    fact = r.json()["fact"]
    assert fact["predicate"] == predicate
    # The sentence holds the predicate's characters as written, and nothing amplified.
    listed = await client.get("/v1/facts", params=SCOPE)
    assert listed.status_code == 200
    ctx = await client.post("/v1/context", json=SCOPE | {"query": "blue"})
    assert ctx.status_code == 200, ctx.text
    assert elapsed < 30  # a generous net: the amplified case burned seconds per call


async def test_search_text_of_a_format_predicate_stays_small(client, db_url):
    r = await client.post("/v1/facts", json=FACT | {"predicate": "{v:>5000000}"})
    assert r.status_code == 201, r.text
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT search_text FROM facts").fetchone()
    assert row is not None and len(row[0]) < 200 and "{v:>5000000}" in row[0]


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/v1/facts", {"GET", "POST"}),
        ("PUT", "/v1/facts/00000000-0000-0000-0000-000000000000", {"GET", "PATCH"}),
        ("GET", "/v1/capture", {"POST"}),
        ("PATCH", "/v1/keys", {"GET", "POST"}),
    ],
)
async def test_a_405_allows_every_method_of_its_path(client, method, path, allowed):
    r = await client.request(method, path)
    assert r.status_code == 405
    assert r.json()["error"]["type"] == "method_not_allowed"
    assert {m.strip() for m in r.headers["allow"].split(",")} == allowed
