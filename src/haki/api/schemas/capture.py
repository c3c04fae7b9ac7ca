"""Wire models of ``POST /v1/capture``.

Fields are checked here with the shared field types (no NUL, no lone
surrogate, no unix-number dates); the ledger then applies the batch rules
(sizes, idempotency) and reports them with the event's index. An unknown
field is refused; a client-sent ``hash`` is one (the server computes it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ...errors import MissingScope, PayloadTooLarge
from ...ledger import CaptureBatch, CaptureResult, NewEvent
from ...ledger.planning import MAX_EVENTS, MAX_KEY_CHARS
from ...types import OriginTrust
from .fields import (
    Identifier,
    JsonObject,
    ProjectScope,
    RequestBody,
    SaidAt,
    SubjectId,
    Text,
)

Key = Annotated[Text, Field(min_length=1, max_length=MAX_KEY_CHARS)]


def _bounded_batch(value: Any) -> Any:
    # Refused before a single event model is built: a 100,000-event batch
    # costs one JSON parse, not 100,000 validations.
    if isinstance(value, list) and len(value) > MAX_EVENTS:
        raise PayloadTooLarge(
            f"events: {len(value)} events in one batch; the limit is {MAX_EVENTS}",
            field="events",
        )
    return value


class EventIn(RequestBody):
    org_id: Identifier = Field(default="default", description="Organisation of the project.")
    project_id: ProjectScope = None
    subject_type: Identifier = Field(
        default="user", description="What the subject is: user, agent, account, ..."
    )
    subject_id: SubjectId
    actor_type: Identifier | None = Field(
        default=None, description="Who produced the event: user, assistant, tool, system, ..."
    )
    actor_id: Identifier | None = Field(default=None, description="Which actor, when known.")
    agent_id: Identifier | None = Field(default=None, description="The agent involved.")
    thread_id: Identifier | None = Field(default=None, description="Conversation or thread.")
    run_id: Identifier | None = Field(default=None, description="Agent run or session.")
    kind: Key = Field(description="Event kind, e.g. message, tool_call, note.")
    occurred_at: SaidAt = Field(
        description="When it happened, ISO 8601 with an offset (no zone is assumed)."
    )
    payload: JsonObject = Field(
        description="The event content; messages carry their text in `content`."
    )
    source: JsonObject | None = Field(default=None, description="Where the event came from.")
    classification: list[Key] = Field(
        default_factory=list, description="Labels such as pii or secret."
    )
    idempotency_key: Key | None = Field(
        default=None, description="Replays with the same key are deduplicated."
    )
    origin_trust: OriginTrust | None = Field(
        default=None,
        description="How far the content is trusted; only the admin key or dev mode may set it.",
    )

    def to_ledger(self, project_id: str) -> NewEvent:
        return NewEvent(
            org_id=self.org_id,
            project_id=project_id,
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


class CaptureIn(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "events": [
                        {
                            "project_id": "demo",
                            "subject_id": "user-alice",
                            "kind": "message",
                            "actor_type": "user",
                            "occurred_at": "2026-01-31T09:00:00Z",
                            "payload": {"role": "user", "content": "I moved to Lyon last week."},
                        }
                    ]
                }
            ]
        }
    )

    events: Annotated[list[EventIn], BeforeValidator(_bounded_batch)] = Field(
        description=f"1 to {MAX_EVENTS} events, written all or nothing."
    )
    idempotency_key: Key | None = Field(
        default=None, description="A replayed batch with the same key writes nothing new."
    )

    def to_ledger(self, project_of: Callable[[str | None], str]) -> CaptureBatch:
        """``project_of`` maps an event's ``project_id`` (or None) to the project it acts on."""
        events = []
        for i, event in enumerate(self.events):
            try:
                project = project_of(event.project_id)
            except MissingScope:
                where = f"events[{i}].project_id"
                raise MissingScope(f"{where} is required", field=where) from None
            events.append(event.to_ledger(project))
        return CaptureBatch(events=tuple(events), idempotency_key=self.idempotency_key)


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
