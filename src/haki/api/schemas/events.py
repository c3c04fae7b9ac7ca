"""Wire models of event reads: ``GET /v1/events/{id}`` and ``GET /v1/timeline``."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel

from ...ledger import Page


class EventOut(BaseModel):
    id: UUID
    org_id: str
    project_id: str
    subject_type: str
    subject_id: str
    actor_type: str | None
    actor_id: str | None
    agent_id: str | None
    thread_id: str | None
    run_id: str | None
    kind: str
    occurred_at: datetime
    recorded_at: datetime
    payload: dict[str, Any]
    source: Any
    classification: list[str]
    hash: str
    idempotency_key: str
    origin_trust: str


class TimelineOut(BaseModel):
    """Events in ``(occurred_at, recorded_at, id)`` order; ``next_cursor`` is null on the last page."""

    events: list[EventOut]
    next_cursor: str | None

    @classmethod
    def of(cls, page: Page) -> TimelineOut:
        return cls(
            events=[EventOut.model_validate(row) for row in page.items],
            next_cursor=page.next_cursor,
        )
