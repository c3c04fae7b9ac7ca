"""The OpenAI Agents SDK on Haki: a ``Session`` and two ways to inject memory.

``HakiSession`` implements the SDK's ``Session`` protocol
(``agents.memory.session.Session``) over the HTTP API, through
``haki.client`` only:

- a session is one Haki thread (``thread_id = session_id``) of one subject;
- ``add_items`` captures each item as an event of that thread, the item
  itself as the payload (a chat message is read as speech by consolidation;
  tool calls and outputs are kept as they are), with the speaker's actor
  type, so an assistant's words keep an agent's trust;
- ``get_items`` reads the thread back from the subject's timeline, oldest
  first, the item exactly as it was added;
- the ledger is append-only: ``pop_item`` and ``clear_session`` write a
  marker event that hides items from the session's history. The words stay
  in the subject's long-term memory (that is what a memory layer is for);
  ``HakiClient.forget`` erases them.

Memory reaches the model two ways: ``memory_input_filter`` (a
``RunConfig.call_model_input_filter``) adds the ``<haki_memory>`` block for
the latest user message to the instructions of every model call, and
``memory_tool`` is a function tool the model may call with a query of its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from agents import FunctionTool, function_tool
from agents.items import TResponseInputItem
from agents.memory import SessionABC, SessionSettings
from agents.run_config import CallModelData, ModelInputData

from haki.client import AsyncHakiClient, render

ITEM_KIND = "agents.item"
MARK_KIND = "agents.session"
ACTORS = {"user": "user", "assistant": "agent", "system": "system", "developer": "system"}


def _actor(item: dict[str, Any]) -> str:
    role = item.get("role")
    if isinstance(role, str):
        return ACTORS.get(role, "agent")
    # Tool calls, their outputs and reasoning are the agent's doing.
    return "tool" if str(item.get("type", "")).endswith("_output") else "agent"


class HakiSession(SessionABC):
    """Conversation history of one agent session, kept as a Haki thread."""

    def __init__(
        self,
        session_id: str,
        *,
        client: AsyncHakiClient,
        subject_id: str,
        session_settings: SessionSettings | None = None,
    ) -> None:
        self.session_id = session_id
        self.client = client
        self.subject_id = subject_id
        self.session_settings = session_settings

    async def _history(self) -> list[tuple[str, TResponseInputItem]]:
        """(event id, item) of the session, oldest first, after pops and clears."""
        items: list[tuple[str, TResponseInputItem]] = []
        async for event in self.client.iter_timeline(self.subject_id):
            if event.thread_id != self.session_id:
                continue
            if event.kind == ITEM_KIND and isinstance(event.payload, dict):
                items.append((event.id, event.payload))  # type: ignore[arg-type]
            elif event.kind == MARK_KIND:
                mark = event.payload
                if mark.get("clear"):
                    items = []
                elif isinstance(mark.get("pop"), str):
                    items = [(i, item) for i, item in items if i != mark["pop"]]
        return items

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        items = [item for _, item in await self._history()]
        if limit is None:
            return items
        return items[-limit:] if limit > 0 else []

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        if not items:
            return
        base = datetime.now(UTC)
        events = []
        for i, item in enumerate(items):
            payload = dict(item)
            events.append(
                {
                    "subject_id": self.subject_id,
                    "thread_id": self.session_id,
                    "kind": ITEM_KIND,
                    "actor_type": _actor(payload),
                    # A microsecond apart, so the timeline keeps the order.
                    "occurred_at": base + timedelta(microseconds=i),
                    "payload": payload,
                }
            )
        await self.client.capture(events)

    async def _mark(self, mark: dict[str, Any]) -> None:
        event = {
            "subject_id": self.subject_id,
            "thread_id": self.session_id,
            "kind": MARK_KIND,
            "actor_type": "system",
            "idempotency_key": f"agents-session:{uuid.uuid4().hex}",
            "payload": mark,
        }
        await self.client.capture([event])

    async def pop_item(self) -> TResponseInputItem | None:
        history = await self._history()
        if not history:
            return None
        event_id, item = history[-1]
        await self._mark({"pop": event_id})
        return item

    async def clear_session(self) -> None:
        await self._mark({"clear": True})


def _last_user_text(items: list[TResponseInputItem]) -> str | None:
    for item in reversed(items):
        data: dict[str, Any] = dict(item)
        if data.get("role") != "user":
            continue
        content = data.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            texts = [p.get("text", "") for p in content if isinstance(p, dict)]
            return " ".join(t for t in texts if t) or None
    return None


def memory_input_filter(
    client: AsyncHakiClient, *, subject_id: str, purpose: str | None = None
) -> Callable[[CallModelData[Any]], Awaitable[ModelInputData]]:
    """A ``call_model_input_filter`` adding the memory block for the latest user message."""

    async def add_memory(data: CallModelData[Any]) -> ModelInputData:
        query = _last_user_text(data.model_data.input)
        if not query:
            return data.model_data
        result = await client.context(subject_id, query, purpose=purpose)
        block = render(result, subject_id=subject_id)
        if not block:
            return data.model_data
        instructions = data.model_data.instructions
        joined = f"{instructions}\n\n{block}" if instructions else block
        return ModelInputData(input=data.model_data.input, instructions=joined)

    return add_memory


def memory_tool(
    client: AsyncHakiClient, *, subject_id: str, name: str = "recall_memory"
) -> FunctionTool:
    """A function tool the model calls to read what Haki remembers about the subject."""

    async def recall_memory(query: str) -> str:
        """Look up what is remembered about the user: facts and past conversations.

        Args:
            query: What to look for, in words (e.g. "the user's diet").
        """
        result = await client.context(subject_id, query)
        return render(result, subject_id=subject_id) or "Nothing remembered about that."

    return function_tool(recall_memory, name_override=name)
