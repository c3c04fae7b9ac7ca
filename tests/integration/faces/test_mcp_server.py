"""The MCP server as hosts use it: Streamable HTTP at /mcp, and ``haki mcp`` over stdio.

Each transport goes through the official MCP client against a live server.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TextIO

import httpx
import pytest
from faces_helpers import ADMIN_KEY, Live
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client as stdio_client_transport
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOOLS = {
    "haki_capture",
    "haki_context",
    "haki_correct",
    "haki_facts",
    "haki_forget",
    "haki_inspect",
    "haki_timeline",
}


@asynccontextmanager
async def http_client(live: Live, headers: dict[str, str]) -> AsyncIterator[Client]:
    http = create_mcp_http_client(headers=headers)
    async with http, Client(streamable_http_client(f"{live.url}/mcp", http_client=http)) as c:
        yield c


@asynccontextmanager
async def stdio_client(
    live: Live, key: str, subject: str, errlog: TextIO = sys.stderr, **extra: str
) -> AsyncIterator[Client]:
    # What `haki mcp --help` and the install hint ask for: the key and the subject.
    env = {"HAKI_URL": live.url, "HAKI_API_KEY": key, "HAKI_SUBJECT_ID": subject, **extra}
    params = StdioServerParameters(command=sys.executable, args=["-m", "haki.cli", "mcp"], env=env)
    async with Client(stdio_client_transport(params, errlog=errlog)) as c:
        yield c


def data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        out = result.structured_content
        return out.get("result", out) if set(out) == {"result"} else out
    return json.loads(result.content[0].text)


def error_text(result: Any) -> str:
    assert result.is_error
    text = result.content[0].text
    assert "Traceback" not in text
    return text


async def exercise(c: Client, subject: str) -> None:
    """Call every tool once, the way an agent would, and check what comes back."""
    tools = (await c.list_tools()).tools
    assert {t.name for t in tools} == TOOLS
    assert all(len(t.description or "") > 80 for t in tools)

    first = data(await c.call_tool("haki_capture", {"content": "I live in Lyon."}))
    assert first["events"][0]["deduplicated"] is False
    again = data(await c.call_tool("haki_capture", {"content": "I live in Lyon."}))
    assert again["events"] == [{"id": first["events"][0]["id"], "deduplicated": True}]
    turn = data(
        await c.call_tool(
            "haki_capture",
            {"messages": [{"role": "user", "content": "My favourite tea is genmaicha."}]},
        )
    )
    assert len(turn["events"]) == 1

    ctx = data(await c.call_tool("haki_context", {"query": "Where does the user live?"}))
    assert ctx["memory"].startswith("<haki_memory")
    assert "Lyon" in ctx["memory"]
    assert ctx["trace_id"]

    trace = data(await c.call_tool("haki_inspect", {"trace_id": ctx["trace_id"]}))
    assert trace["decisions"]

    timeline = data(await c.call_tool("haki_timeline", {"limit": 10}))
    texts = json.dumps(timeline["events"])
    assert "Lyon" in texts and "genmaicha" in texts

    facts = data(await c.call_tool("haki_facts", {"status": "active"}))["facts"]
    lyon = next(f for f in facts if f["value"] == "Lyon")
    corrected = data(
        await c.call_tool(
            "haki_correct", {"fact_id": lyon["id"], "status": "disputed", "comment": "moved"}
        )
    )
    assert corrected["fact"]["status"] == "disputed"
    rated = data(await c.call_tool("haki_correct", {"fact_id": lyon["id"], "rating": "irrelevant"}))
    assert rated["feedback"]

    refused = error_text(await c.call_tool("haki_forget", {}))
    assert "confirm_subject" in refused
    forgot = data(await c.call_tool("haki_forget", {"fact_id": lyon["id"]}))
    assert forgot

    missing = error_text(
        await c.call_tool("haki_inspect", {"trace_id": "00000000-0000-0000-0000-000000000000"})
    )
    # The text docs/mcp.md shows: the SDK's prefix, then the API's type and message.
    assert missing == "Error executing tool haki_inspect: not_found: trace not found", missing
    bad = error_text(await c.call_tool("haki_context", {"query": "x", "budget_tokens": 0}))
    assert "budget_tokens" in bad


async def test_every_tool_over_streamable_http(live: Live) -> None:
    key = live.project_key("mcp-http")
    headers = {"Authorization": f"Bearer {key}", "X-Haki-Subject-Id": "maya"}
    async with http_client(live, headers) as c:
        await exercise(c, "maya")


async def test_every_tool_over_stdio(live: Live, tmp_path: Path) -> None:
    # HAKI_API_KEY + HAKI_SUBJECT_ID alone: the project key fixes the project.
    key = live.project_key("mcp-stdio")
    with (tmp_path / "stderr").open("w") as errlog:
        async with stdio_client(live, key, "noor", errlog) as c:
            await exercise(c, "noor")
    with live.admin() as admin:
        r = admin.get("/v1/timeline", params={"project_id": "mcp-stdio", "subject_id": "noor"})
        assert "genmaicha" in r.text  # written in the key's own project
    # Quiet by default: no line per HTTP request on the host's stderr.
    logged = (tmp_path / "stderr").read_text()
    assert "HTTP Request" not in logged and "Processing request" not in logged, logged


async def test_stdio_without_a_project_says_how_to_name_one(live: Live, tmp_path: Path) -> None:
    # The admin key fixes no project: a typed message naming the setting, not a guess.
    with (tmp_path / "stderr").open("w") as errlog:
        async with stdio_client(live, ADMIN_KEY, "noor", errlog) as c:
            text = error_text(await c.call_tool("haki_context", {"query": "anything"}))
            assert "haki_context: missing_scope: " in text and "HAKI_PROJECT_ID" in text
        async with stdio_client(live, ADMIN_KEY, "noor", errlog, HAKI_PROJECT_ID="mcp-admin") as c:
            assert data(await c.call_tool("haki_timeline", {}))["events"] == []
        async with stdio_client(live, key_of(live), "noor", errlog, HAKI_MCP_VERBOSE="1") as c:
            await c.call_tool("haki_timeline", {})
    assert "HTTP Request" in (tmp_path / "stderr").read_text()  # verbose on demand


def key_of(live: Live) -> str:
    return live.project_key("mcp-verbose")


async def test_subject_is_fixed_by_the_connection(live: Live) -> None:
    key = live.project_key("mcp-fixed")
    headers = {"Authorization": f"Bearer {key}", "X-Haki-Subject-Id": "maya"}
    async with http_client(live, headers) as c:
        text = error_text(
            await c.call_tool("haki_context", {"query": "anything", "subject_id": "someone-else"})
        )
        assert "fixed by this connection" in text
    async with http_client(live, {"Authorization": f"Bearer {key}"}) as c:
        assert "no subject" in error_text(await c.call_tool("haki_context", {"query": "q"}))
        ok = data(await c.call_tool("haki_context", {"query": "q", "subject_id": "maya"}))
        assert ok["memory"] == ""  # nothing known yet in this project: no block at all


async def test_a_key_reaches_its_own_project_only(live: Live) -> None:
    key_a, key_b = live.project_key("mcp-a"), live.project_key("mcp-b")
    async with http_client(
        live, {"Authorization": f"Bearer {key_a}", "X-Haki-Subject-Id": "s"}
    ) as c:
        await c.call_tool("haki_capture", {"content": "My passport number is in the blue drawer."})
    async with http_client(
        live, {"Authorization": f"Bearer {key_b}", "X-Haki-Subject-Id": "s"}
    ) as c:
        timeline = data(await c.call_tool("haki_timeline", {}))
        assert timeline["events"] == []
        ctx = data(await c.call_tool("haki_context", {"query": "passport drawer"}))
        assert "drawer" not in json.dumps(ctx)


async def test_a_pinned_subject_cannot_reach_another_subjects_fact(live: Live) -> None:
    """Connected as ``attacker``, a tool given the id of ``victim``'s fact answers
    not found, says nothing of it, and changes nothing."""
    key = live.project_key("mcp-pin")
    bearer = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=live.url, headers=bearer, timeout=30) as http:
        r = http.post(
            "/v1/facts",
            json={"subject_id": "victim", "predicate": "home_city", "value": "Secretville"},
        )
        assert r.status_code == 201, r.text
        fact_id = r.json()["fact"]["id"]
    calls = [
        ("haki_correct", {"fact_id": fact_id, "status": "disabled"}),
        ("haki_correct", {"fact_id": fact_id, "status": "disputed", "comment": "x"}),
        ("haki_correct", {"fact_id": fact_id, "rating": "incorrect"}),
        ("haki_forget", {"fact_id": fact_id}),
    ]
    async with http_client(live, {**bearer, "X-Haki-Subject-Id": "attacker"}) as c:
        for tool, args in calls:
            text = error_text(await c.call_tool(tool, args))
            assert "not_found: fact not found" in text, (tool, text)
            assert "Secretville" not in text and "victim" not in text
        # An unknown id and a malformed one read the same.
        unknown = error_text(
            await c.call_tool("haki_forget", {"fact_id": "00000000-0000-0000-0000-000000000000"})
        )
        malformed = error_text(
            await c.call_tool("haki_correct", {"fact_id": "x", "rating": "useful"})
        )
        said = {t.split(": ", 1)[1] for t in (unknown, malformed, text)}
        assert said == {"not_found: fact not found (field fact_id)"}
    with httpx.Client(base_url=live.url, headers=bearer, timeout=30) as http:
        fact = http.get(f"/v1/facts/{fact_id}").json()
        assert fact["status"] == "active" and fact["value"] == "Secretville"
        feedback = http.get("/v1/facts", params={"subject_id": "victim"}).json()["facts"]
        assert [f["status"] for f in feedback] == ["active"]
    # The victim's own connection still acts on it.
    async with http_client(live, {**bearer, "X-Haki-Subject-Id": "victim"}) as c:
        done = data(await c.call_tool("haki_correct", {"fact_id": fact_id, "status": "disputed"}))
        assert done["fact"]["status"] == "disputed"


def test_http_endpoint_refuses_missing_keys_and_foreign_hosts(live: Live) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        },
    }
    accept = {"Accept": "application/json, text/event-stream"}
    r = httpx.post(f"{live.url}/mcp", json=init, headers=accept)
    assert r.status_code == 401
    assert r.json()["error"]["type"] == "unauthorized"
    key = live.project_key("mcp-hosts")
    evil = {**accept, "Authorization": f"Bearer {key}", "Host": "evil.example"}
    r = httpx.post(f"{live.url}/mcp", json=init, headers=evil)
    assert r.status_code in (403, 421)
    ok = {**accept, "Authorization": f"Bearer {key}"}
    r = httpx.post(f"{live.url}/mcp", json=init, headers=ok)
    assert r.status_code == 200, r.text


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
