"""One scenario through the four ways in: Python SDK, TypeScript SDK, MCP, gateway.

Capture a few turns, consolidate, ask for context: each face must serve the
same memory. Read side: one subject, read through all four, gives the same
``<haki_memory>`` block to the character (the MCP tool's ``memory``, and the
block the gateway put in front of the model's messages). Write side: the
same turns captured through the Python SDK, the TypeScript SDK and the
gateway (each on a subject of its own) consolidate to the same facts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import openai
import pytest
from faces_helpers import Upstream
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from haki.client import HakiClient, render
from haki.client.types import ContextResult

PROJECT = "parity"
BUDGET = 900  # the gateway's default budget, asked of every face
QUERY = "Where does the user live, what do they drink, and who starts school?"
TURNS = [
    ("I moved to Lyon last spring.", "Lyon is a lovely city."),
    ("I only drink green tea, never coffee.", "Green tea it is."),
    ("My daughter Ines starts school in September.", "Good luck to Ines."),
]
MESSAGES = [
    {"role": role, "content": text}
    for user, assistant in TURNS
    for role, text in (("user", user), ("assistant", assistant))
]
SDK = Path(__file__).resolve().parents[3] / "sdk" / "typescript"
HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def typescript_sdk() -> Path:
    npm = shutil.which("npm")
    assert npm, "npm is not on PATH"
    subprocess.run([npm, "run", "build", "--silent"], cwd=SDK, check=True, timeout=300)
    return SDK / "dist" / "index.js"


def through_typescript(haki_url: str, subject: str, *, capture: bool) -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "node is not on PATH"
    request = {
        "url": haki_url,
        "project": PROJECT,
        "subject": subject,
        "query": QUERY,
        "budget": BUDGET,
        "messages": MESSAGES if capture else None,
    }
    run = subprocess.run(
        [node, str(HERE / "parity.mjs"), json.dumps(request)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return dict(json.loads(run.stdout))


async def through_mcp(haki_url: str, subject: str) -> dict[str, Any]:
    headers = {"X-Haki-Subject-Id": subject, "X-Haki-Project-Id": PROJECT}
    http = create_mcp_http_client(headers=headers)
    async with http, Client(streamable_http_client(f"{haki_url}/mcp", http_client=http)) as c:
        result = await c.call_tool("haki_context", {"query": QUERY, "budget_tokens": BUDGET})
    assert not result.is_error, result.content
    out = result.structured_content or json.loads(result.content[0].text)
    return dict(out.get("result", out))


def gateway(haki_url: str, subject: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=f"{haki_url}/gateway/v1",
        api_key="unused-in-dev-mode",
        default_headers={"X-Haki-Subject-Id": subject, "X-Haki-Project-Id": PROJECT},
        max_retries=0,
    )


def injected_block(body: dict[str, Any]) -> str:
    first = body["messages"][0]
    assert first["role"] == "system", body["messages"]
    return str(first["content"])


def facts_of(packet: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["predicate"], json.dumps(f["value"], sort_keys=True)) for f in packet["facts"])


def wait_for_turns(client: HakiClient, subject: str, count: int) -> None:
    # The gateway captures a turn after its answer is sent.
    for _ in range(100):
        turns = [e for e in client.iter_timeline(subject) if e.kind == "conversation.turn"]
        if len(turns) >= count:
            return
        time.sleep(0.1)
    raise AssertionError(f"the gateway captured {len(turns)} of {count} turns")


async def test_one_subject_reads_the_same_through_every_face(
    haki_url: str, upstream: Upstream, typescript_sdk: Path
) -> None:
    subject = f"parity-read-{uuid.uuid4().hex[:8]}"
    with HakiClient(haki_url, project_id=PROJECT) as client:
        client.add(MESSAGES, subject_id=subject, thread_id="parity")
        client.consolidate_subject(subject_id=subject)
        python: ContextResult = client.context(subject, QUERY, budget_tokens=BUDGET)
    python_block = render(python, subject_id=subject)
    for word in ("Lyon", "green tea", "Ines"):
        assert word in python_block, python_block

    typescript = through_typescript(haki_url, subject, capture=False)
    mcp = await through_mcp(haki_url, subject)

    upstream.requests.clear()
    upstream.script = [{"content": "Lyon, green tea, and Ines."}]
    answer = gateway(haki_url, subject).chat.completions.create(
        model="stub-model", messages=[{"role": "user", "content": QUERY}]
    )
    assert answer.choices[0].message.content == "Lyon, green tea, and Ines."
    gateway_block = injected_block(upstream.requests[-1])

    assert typescript["block"] == python_block
    assert mcp["memory"] == python_block
    assert gateway_block == python_block
    # The packets behind the blocks are the same items, not just the same text.
    assert (
        facts_of(typescript["packet"]) == facts_of(mcp["packet"]) == facts_of(python.raw["packet"])
    )
    episodes = [e["id"] for e in python.raw["packet"]["episodes"]]
    assert [e["id"] for e in typescript["packet"]["episodes"]] == episodes
    assert [e["id"] for e in mcp["packet"]["episodes"]] == episodes


def test_the_same_turns_captured_through_each_sdk_and_the_gateway_give_the_same_facts(
    haki_url: str, upstream: Upstream, typescript_sdk: Path
) -> None:
    tag = uuid.uuid4().hex[:8]
    by_python, by_ts, by_gateway = (f"parity-{face}-{tag}" for face in ("py", "ts", "gw"))
    with HakiClient(haki_url, project_id=PROJECT) as client:
        client.add(MESSAGES, subject_id=by_python, thread_id="parity")
        client.consolidate_subject(subject_id=by_python)
        python = client.context(by_python, QUERY, budget_tokens=BUDGET).raw["packet"]

        typescript = through_typescript(haki_url, by_ts, capture=True)["packet"]

        chat = gateway(haki_url, by_gateway)
        upstream.script = [{"content": assistant} for _, assistant in TURNS]
        history: list[dict[str, str]] = []
        for user, assistant in TURNS:
            history.append({"role": "user", "content": user})
            out = chat.chat.completions.create(
                model="stub-model", messages=history, extra_headers={"X-Haki-Thread-Id": "parity"}
            )
            assert out.choices[0].message.content == assistant
            history.append({"role": "assistant", "content": assistant})
        wait_for_turns(client, by_gateway, len(TURNS))
        client.consolidate_subject(subject_id=by_gateway)
        through_gateway = client.context(by_gateway, QUERY, budget_tokens=BUDGET).raw["packet"]

    assert facts_of(python), "the scenario should leave facts to compare"
    assert facts_of(typescript) == facts_of(python)
    assert facts_of(through_gateway) == facts_of(python)
    said = {e["excerpt"] for e in python["episodes"]}
    assert {e["excerpt"] for e in typescript["episodes"]} == said
    assert {e["excerpt"] for e in through_gateway["episodes"]} == said
