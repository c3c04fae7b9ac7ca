"""``HakiSession`` and the memory filter/tool, driven by the real ``openai-agents``.

The agent runs against the scripted OpenAI-compatible stub on loopback (no
network, tracing off); its memory comes from a live Haki server.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator

import pytest
from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner, set_tracing_disabled
from agents.memory import Session, SessionSettings
from faces_helpers import Upstream
from openai import AsyncOpenAI

from haki.client import AsyncHakiClient, HakiClient
from haki.integrations.openai_agents import HakiSession, memory_input_filter, memory_tool

set_tracing_disabled(True)


def tool_call(name: str, arguments: dict[str, str]) -> dict[str, object]:
    call = {"name": name, "arguments": json.dumps(arguments)}
    return {
        "tool_calls": [{"id": f"call_{uuid.uuid4().hex[:6]}", "type": "function", "function": call}]
    }


@pytest.fixture
async def aclient(haki_url: str) -> AsyncIterator[AsyncHakiClient]:
    async with AsyncHakiClient(haki_url, project_id="agents") as client:
        yield client


def model_for(upstream: Upstream) -> OpenAIChatCompletionsModel:
    openai = AsyncOpenAI(base_url=upstream.url, api_key="sk-local", max_retries=0)
    return OpenAIChatCompletionsModel(model="stub-model", openai_client=openai)


async def test_an_agent_remembers_through_the_session_filter_and_tool(
    haki_url: str, aclient: AsyncHakiClient, upstream: Upstream
) -> None:
    ava = f"ava-{uuid.uuid4().hex[:8]}"
    with HakiClient(haki_url, project_id="agents") as sync:
        sync.add(
            [{"role": "user", "content": "I am vegetarian and I live in Lyon."}],
            subject_id=ava,
            thread_id="onboarding",
        )
        sync.consolidate_subject(subject_id=ava)

    agent = Agent(
        name="cook",
        instructions="You suggest recipes.",
        model=model_for(upstream),
        tools=[memory_tool(aclient, subject_id=ava)],
    )
    session = HakiSession("chat-1", client=aclient, subject_id=ava)
    assert isinstance(session, Session)
    config = RunConfig(call_model_input_filter=memory_input_filter(aclient, subject_id=ava))

    upstream.requests.clear()
    upstream.script = [
        tool_call("recall_memory", {"query": "the user's diet"}),
        {"content": "A mushroom risotto, since you are vegetarian."},
    ]
    result = await Runner.run(
        agent, "What should I cook tonight?", session=session, run_config=config
    )
    assert result.final_output == "A mushroom risotto, since you are vegetarian."

    first, second = upstream.requests
    system = first["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("You suggest recipes.")
    assert "<haki_memory>" in system["content"] and "vegetarian" in system["content"]
    tool_out = [m for m in second["messages"] if m["role"] == "tool"]
    assert tool_out and "<haki_memory>" in tool_out[0]["content"]
    assert "vegetarian" in tool_out[0]["content"]

    items = await session.get_items()
    kinds = [item.get("role") or item.get("type") for item in items]
    assert kinds == ["user", "function_call", "function_call_output", "assistant"]
    assert items[0]["content"] == "What should I cook tonight?"

    # The next turn reads the history back from Haki: a new session object will do.
    again = HakiSession("chat-1", client=aclient, subject_id=ava)
    upstream.requests.clear()
    upstream.script = [{"content": "A lemon tart."}]
    result = await Runner.run(agent, "And for dessert?", session=again, run_config=config)
    assert result.final_output == "A lemon tart."
    sent = [m for m in upstream.requests[0]["messages"] if m["role"] == "user"]
    assert [m["content"] for m in sent] == ["What should I cook tonight?", "And for dessert?"]

    timeline = [e async for e in aclient.iter_timeline(ava) if e.thread_id == "chat-1"]
    assert [e.actor_type for e in timeline] == [
        "user",
        "agent",
        "tool",
        "agent",
        "user",
        "agent",
    ]


async def test_pop_clear_and_limits(aclient: AsyncHakiClient) -> None:
    subject = f"pop-{uuid.uuid4().hex[:8]}"
    session = HakiSession("s-1", client=aclient, subject_id=subject)
    assert await session.get_items() == [] and await session.pop_item() is None
    items = [
        {"role": "user", "content": "one"},
        {"role": "assistant", "content": "two"},
        {"role": "user", "content": "three"},
    ]
    await session.add_items(items)  # type: ignore[arg-type]
    other = HakiSession("s-2", client=aclient, subject_id=subject)
    await other.add_items([{"role": "user", "content": "elsewhere"}])  # type: ignore[list-item]

    assert await session.get_items() == items
    assert await session.get_items(limit=2) == items[1:]
    limited = HakiSession(
        "s-1", client=aclient, subject_id=subject, session_settings=SessionSettings(limit=1)
    )
    assert await limited.get_items() == items[2:]

    assert await session.pop_item() == items[2]
    assert await session.get_items() == items[:2]
    await session.clear_session()
    assert await session.get_items() == []
    await session.add_items([{"role": "user", "content": "four"}])  # type: ignore[list-item]
    assert await session.get_items() == [{"role": "user", "content": "four"}]
    assert await other.get_items() == [{"role": "user", "content": "elsewhere"}]
