"""Wire models of fact reads and of the versioned status mutation."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, Field

from ...ledger import Page


class FactOut(BaseModel):
    id: UUID
    org_id: str
    project_id: str
    subject_type: str
    subject_id: str
    predicate: str
    value: Any
    qualifiers: dict[str, Any]
    status: str
    confidence: float
    version: int
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_from: datetime
    recorded_to: datetime | None
    supersedes_id: UUID | None
    source_event_ids: list[UUID]
    fact_kind: str
    volatility: str
    reinforcement_count: int
    last_reinforced_at: datetime | None
    origin_trust: str
    evidence_span: str | None
    updated_at: datetime


class FactListOut(BaseModel):
    facts: list[FactOut]
    next_cursor: str | None

    @classmethod
    def of(cls, page: Page) -> FactListOut:
        return cls(
            facts=[FactOut.model_validate(row) for row in page.items], next_cursor=page.next_cursor
        )


class StatusIn(BaseModel):
    """``status`` is free text here so an unknown target is reported as an
    illegal transition by the lifecycle table, like any other."""

    project_id: str
    status: str = Field(max_length=32)
    expected_version: int | None = Field(default=None, ge=1)
    reason: str | None = Field(default=None, max_length=1000)
