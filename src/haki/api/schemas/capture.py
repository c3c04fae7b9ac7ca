"""Wire models of ``POST /v1/capture``.

``subject_id`` is optional here on purpose: the ledger validates it, so the
error is ``missing_scope`` naming the event's index. A client-sent ``hash``
is ignored (the server computes it), like any unknown field.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict

from ...ledger import CaptureBatch, CaptureResult, NewEvent
from ...types import OriginTrust


class EventIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    org_id: str = "default"
    project_id: str
    subject_type: str = "user"
    subject_id: str | None = None
    actor_type: str | None = None
    actor_id: str | None = None
    agent_id: str | None = None
    thread_id: str | None = None
    run_id: str | None = None
    kind: str
    occurred_at: datetime
    payload: dict[str, Any]
    source: dict[str, Any] | None = None
    classification: list[str] = []
    idempotency_key: str | None = None
    origin_trust: OriginTrust | None = None

    def to_ledger(self) -> NewEvent:
        return NewEvent(
            org_id=self.org_id,
            project_id=self.project_id,
            subject_type=self.subject_type,
            subject_id=self.subject_id,
            actor_type=self.actor_type,
            actor_id=self.actor_id,
            agent_id=self.agent_id,
            thread_id=self.thread_id,
            run_id=self.run_id,
            kind=self.kind,
            occurred_at=self.occurred_at,
            payload=self.payload,
            source=self.source,
            classification=tuple(self.classification),
            idempotency_key=self.idempotency_key,
            origin_trust=self.origin_trust,
        )


class CaptureIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    events: list[EventIn]
    idempotency_key: str | None = None

    def to_ledger(self) -> CaptureBatch:
        return CaptureBatch(
            events=tuple(e.to_ledger() for e in self.events), idempotency_key=self.idempotency_key
        )


class CapturedOut(BaseModel):
    id: UUID
    deduplicated: bool


class CaptureOut(BaseModel):
    status: Literal["accepted"] = "accepted"
    events: list[CapturedOut]
    consolidation_job_id: UUID | None

    @classmethod
    def of(cls, result: CaptureResult) -> CaptureOut:
        return cls(
            events=[CapturedOut(id=e.id, deduplicated=e.deduplicated) for e in result.events],
            consolidation_job_id=result.consolidation_job_id,
        )


def _example(payload: dict[str, Any], **extra: Any) -> dict[str, Any]:
    event = {
        "project_id": "demo",
        "subject_id": "alice",
        "thread_id": "t-1",
        "kind": "conversation.message",
        "occurred_at": "2026-03-02T10:00:00Z",
        "payload": payload,
        **extra,
    }
    return {"events": [event]}


# One example per payload shape of docs/events.md; each keeps its speaker.
CAPTURE_EXAMPLES: dict[str, Any] = {
    "message": {
        "summary": "One chat message (OpenAI style)",
        "value": _example(
            {"role": "user", "content": "I moved to Lyon last month."},
            idempotency_key="chat-42:msg-7",
        ),
    },
    "assistant": {
        "summary": "An assistant's message: the agent's words, stored semi_trusted",
        "value": _example({"role": "assistant", "content": "Noted, Lyon it is."}),
    },
    "transcript": {
        "summary": "A transcript: one episode per message",
        "value": _example(
            {
                "messages": [
                    {"role": "user", "content": "I prefer tea to coffee."},
                    {"role": "assistant", "content": "Tea it is."},
                ]
            },
            kind="conversation.turn",
        ),
    },
    "speaker": {
        "summary": "A named speaker's turn",
        "value": _example({"speaker": "Caroline", "text": "I adopted a dog named Rex."}),
    },
    "text": {
        "summary": "Free text from a tool, with its actor",
        "value": _example({"text": "Order #1234 shipped to Lyon."}, kind="note", actor_type="tool"),
    },
}
