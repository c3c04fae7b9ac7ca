"""The OpenAI-compatible gateway, driven by the official ``openai`` client.

A stub upstream stands in for the model (no network): it records what it
received, so the tests see the injected memory and the credential it was sent.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from faces_helpers import Live, Upstream, free_port

from haki.api.app import create_app
from haki.config import load_settings
from haki.providers import Providers

MODEL = "stub-model"


def remember(live: Live, key: str, project: str, subject: str, text: str) -> None:
    event = {
        "project_id": project,
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": "2026-11-20T10:00:00Z",
        "payload": {"role": "user", "content": text},
    }
    r = httpx.post(
        f"{live.url}/v1/capture",
        json={"events": [event]},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    assert r.status_code == 202, r.text


def turns(live: Live, key: str, project: str, subject: str) -> list[dict[str, Any]]:
    # The turn is captured after the answer is sent: give it a moment.
    for _ in range(50):
        r = httpx.get(
            f"{live.url}/v1/timeline",
            params={"project_id": project, "subject_id": subject},
            headers={"Authorization": f"Bearer {key}"},
        )
        found = [e for e in r.json()["events"] if e["kind"] == "conversation.turn"]
        if found:
            return found
        time.sleep(0.1)
    return []


def client_for(live: Live, key: str, subject: str | None, **headers: str) -> openai.OpenAI:
    extra = {"X-Haki-Subject-Id": subject} if subject else {}
    return openai.OpenAI(
        base_url=f"{live.url}/gateway/v1",
        api_key=key,
        default_headers={**extra, **headers},
        max_retries=0,
    )


def system_text(body: dict[str, Any]) -> str:
    first = body["messages"][0]
    assert first["role"] == "system"
    return str(first["content"])


def test_memory_is_injected_and_the_turn_captured(live: Live, upstream: Upstream) -> None:
    key = live.project_key("gw-plain")
    remember(live, key, "gw-plain", "maya", "I live in Lyon.")
    client = client_for(live, key, "maya", **{"X-Haki-Thread-Id": "t-1"})
    raw = client.chat.completions.with_raw_response.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "Where do I live?"},
        ],
    )
    answer = raw.parse()
    assert answer.choices[0].message.content == upstream.answer
    assert raw.headers["x-haki-memory"] == "active"
    assert raw.headers["x-haki-trace-id"]
    assert float(raw.headers["x-haki-context-ms"]) >= 0
    sent = upstream.requests[-1]
    system = system_text(sent)
    assert system.startswith("<haki_memory") and "Lyon" in system
    assert system.endswith("You are helpful.")
    assert upstream.auth[-1] == "Bearer sk-upstream-secret"  # the Haki key never leaves
    captured = turns(live, key, "gw-plain", "maya")
    assert captured and captured[0]["thread_id"] == "t-1"
    messages = captured[0]["payload"]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[1]["content"] == upstream.answer


def test_streaming_passes_chunks_through_and_captures_the_whole_answer(
    live: Live, upstream: Upstream
) -> None:
    key = live.project_key("gw-stream")
    remember(live, key, "gw-stream", "noor", "My favourite tea is genmaicha.")
    client = client_for(live, key, "noor")
    stream = client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "Which tea should I buy?"}],
        stream=True,
    )
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    assert text == upstream.answer
    assert "genmaicha" in system_text(upstream.requests[-1])  # no system message: one is added
    captured = turns(live, key, "gw-stream", "noor")
    assert captured[0]["payload"]["messages"][1]["content"] == upstream.answer


def test_tools_pass_through_unchanged(live: Live, upstream: Upstream) -> None:
    key = live.project_key("gw-tools")
    tools = [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "Weather in a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ]
    answer = client_for(live, key, "sam").chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Weather?"}], tools=tools
    )
    call = answer.choices[0].message.tool_calls[0]
    assert call.function.name == "weather"
    assert json.loads(call.function.arguments) == {"city": "Lyon"}
    assert upstream.requests[-1]["tools"] == tools


def test_no_subject_means_no_memory_and_upstream_errors_pass_through(
    live: Live, upstream: Upstream
) -> None:
    key = live.project_key("gw-anon")
    raw = client_for(live, key, None).chat.completions.with_raw_response.create(
        model=MODEL, messages=[{"role": "user", "content": "Hi"}]
    )
    assert raw.headers["x-haki-memory"] == "disabled"
    assert upstream.requests[-1]["messages"] == [{"role": "user", "content": "Hi"}]
    with pytest.raises(openai.NotFoundError):
        client_for(live, key, "sam").chat.completions.create(
            model="broken", messages=[{"role": "user", "content": "Hi"}]
        )
    models = client_for(live, key, None).models.list()
    assert [m.id for m in models.data] == ["stub-model"]


def test_the_gateway_needs_a_haki_key(live: Live) -> None:
    with pytest.raises(openai.AuthenticationError):
        client_for(live, "hk_not_a_key", "maya").chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "Hi"}]
        )


async def test_upstream_down_is_502_and_memory_down_still_answers(
    db_url: str, providers: Providers, upstream: Upstream
) -> None:
    down = f"http://127.0.0.1:{free_port()}/v1"
    for base, expect in ((down, 502), (upstream.url, 200)):
        settings = load_settings(auth="off", database_url=None, llm_base_url=base)
        app = create_app(settings, database_url=db_url, providers=providers, background=False)
        async with app.router.lifespan_context(app):
            http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")
            client = openai.AsyncOpenAI(
                base_url="http://t/gateway/v1",
                api_key="unused",
                http_client=http,
                max_retries=0,
                default_headers={"X-Haki-Subject-Id": "maya", "X-Haki-Project-Id": "p"},
            )
            if expect == 502:
                with pytest.raises(openai.APIStatusError) as err:
                    await client.chat.completions.create(
                        model=MODEL, messages=[{"role": "user", "content": "Hi"}]
                    )
                assert err.value.status_code == 502
                assert err.value.response.json()["error"]["type"] == "upstream_unavailable"
                continue
            await app.state.haki.db.close()  # memory is down; the model is not
            raw = await client.chat.completions.with_raw_response.create(
                model=MODEL, messages=[{"role": "user", "content": "Still there?"}]
            )
            assert raw.headers["x-haki-memory"] == "disabled"
            assert raw.parse().choices[0].message.content == upstream.answer
            await http.aclose()


async def test_a_rate_limited_key_is_not_forwarded_and_the_admin_key_is_limited_too(
    db_url: str, providers: Providers, upstream: Upstream
) -> None:
    """Out of calls, a key's chat completion is a 429 with Retry-After, and the
    upstream never sees it; the admin key has its own, higher limit."""
    from datetime import UTC, datetime

    from haki import auth

    admin_key = "admin-key-for-the-gateway-limit-0123456789"
    settings = load_settings(
        auth="on",
        admin_key=admin_key,
        database_url=None,
        llm_base_url=upstream.url,
        rate_limit_per_minute=2,
        admin_rate_limit_per_minute=3,
    )
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        key = await auth.issue(app.state.haki.db, org_id="default", project_id="gw-limit")
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")
        body = {"model": MODEL, "messages": [{"role": "user", "content": "Hi"}]}
        second = datetime.now(UTC).second  # the calls must fall in one counter window
        if second >= 50:
            time.sleep(61 - second)
        for secret, allowed in ((key.secret, 2), (admin_key, 3)):
            before = len(upstream.requests)
            auth_header = {"Authorization": f"Bearer {secret}"}
            answers = [
                await http.post("/gateway/v1/chat/completions", json=body, headers=auth_header)
                for _ in range(allowed + 2)
            ]
            statuses = [r.status_code for r in answers]
            assert statuses == [200] * allowed + [429, 429], statuses
            refused = answers[-1]
            assert refused.json()["error"]["type"] == "rate_limited"
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
            assert len(upstream.requests) - before == allowed  # nothing forwarded past the limit
        await http.aclose()


@pytest.mark.parametrize("depth", [300, 10_000])
async def test_a_deep_chat_body_is_a_typed_422_and_is_not_forwarded(
    db_url: str, providers: Providers, upstream: Upstream, depth: int
) -> None:
    settings = load_settings(auth="off", database_url=None, llm_base_url=upstream.url)
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")
        before = len(upstream.requests)
        deep = "[" * depth + "]" * depth
        raw = f'{{"model": "{MODEL}", "messages": [{{"role": "user", "content": {deep}}}]}}'
        r = await http.post(
            "/gateway/v1/chat/completions",
            content=raw,
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422, r.text
        assert r.json()["error"]["type"] == "invalid_payload"
        assert len(upstream.requests) == before
        await http.aclose()


def test_an_over_long_subject_id_is_one_warning_line_and_an_answer(
    live: Live, upstream: Upstream
) -> None:
    log = Path(live.env["HAKI_DATA_DIR"]) / "serve.log"
    before = log.read_text() if log.exists() else ""
    key = live.project_key("gw-long")
    raw = client_for(live, key, "s" * 600).chat.completions.with_raw_response.create(
        model=MODEL, messages=[{"role": "user", "content": "Hi"}]
    )
    assert raw.headers["x-haki-memory"] == "disabled"
    assert raw.parse().choices[0].message.content == upstream.answer
    added = log.read_text()[len(before) :]
    warned = [line for line in added.splitlines() if "gateway: memory unavailable" in line]
    assert len(warned) == 1, added
    assert "invalid_payload" in warned[0] or "subject" in warned[0], added
    assert "Traceback" not in added, added
