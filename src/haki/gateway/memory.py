"""The gateway's memory: one subject's context and capture, through the SDK."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime

from ..client import AsyncHakiClient, render
from .proxy import Recalled


@dataclass(slots=True)
class ClientMemory:
    """Memory of ``subject_id`` as one chat completion sees it (headers fix every field)."""

    client: AsyncHakiClient
    project_id: str | None
    subject_id: str
    budget_tokens: int
    thread_id: str | None = None
    run_id: str | None = None
    purpose: str | None = None
    idempotency_key: str | None = None

    async def recall(self, query: str) -> Recalled:
        result = await self.client.context(
            self.subject_id,
            query,
            self.project_id,
            purpose=self.purpose or "gateway",
            budget_tokens=self.budget_tokens,
        )
        degraded = result.packet.status != "ok"
        return Recalled(render(result, subject_id=self.subject_id), result.trace_id, degraded)

    async def remember(self, user_text: str, assistant_text: str) -> None:
        """The turn as one event, so who said what travels with it."""
        payload = {
            "messages": [
                {"role": "user", "content": user_text},
                {"role": "assistant", "content": assistant_text},
            ]
        }
        event: dict[str, object] = {
            "subject_id": self.subject_id,
            "kind": "conversation.turn",
            "actor_type": "user",
            "occurred_at": datetime.now(UTC).isoformat(),
            "payload": payload,
        }
        if self.project_id is not None:
            event["project_id"] = self.project_id
        for name in ("thread_id", "run_id"):
            value = getattr(self, name)
            if value:
                event[name] = value
        key = self.idempotency_key
        if key is None:
            # A client retrying the same turn in the same thread stores it once.
            digest = hashlib.sha256(
                f"{self.thread_id}\x00{user_text}\x00{assistant_text}".encode()
            ).hexdigest()[:40]
            key = f"gateway:{digest}"
        await self.client.capture([event], idempotency_key=key)
