"""Wire models of consolidation runs, jobs and conflict sets."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from ...consolidator import Summary


class ConsolidateIn(BaseModel):
    project_id: str | None = Field(default=None, max_length=128)
    max_jobs: int | None = Field(default=None, ge=1, le=100_000)


class ConsolidateOut(BaseModel):
    """Counts over the jobs run: outcomes, events, chunks, candidates, rejections, actions."""

    jobs: dict[str, int]
    events: int
    chunks: int
    candidates: int
    rejected: dict[str, int]
    actions: dict[str, int]

    @classmethod
    def of(cls, summary: Summary) -> ConsolidateOut:
        return cls(**summary.as_json())


class JobOut(BaseModel):
    id: UUID
    kind: str
    status: Literal["pending", "running", "done", "failed"]
    project_id: str
    subject_id: str | None
    attempts: int
    run_after: datetime
    claimed_at: datetime | None
    claimed_by: str | None
    finished_at: datetime | None
    last_error: str | None
    result: dict[str, Any] | None
    created_at: datetime


class JobListOut(BaseModel):
    jobs: list[JobOut]
    counts: dict[str, int]


class ConflictFact(BaseModel):
    id: UUID
    predicate: str
    value: Any
    qualifiers: dict[str, Any]
    status: str
    origin_trust: str
    valid_from: datetime | None
    source_event_ids: list[UUID]


class ConflictOut(BaseModel):
    id: UUID
    project_id: str
    subject_type: str
    subject_id: str
    kind: Literal["contradiction", "quarantine"]
    status: Literal["open", "resolved"]
    reason: str
    fact_ids: list[UUID]
    facts: list[ConflictFact]
    resolution: dict[str, Any] | None
    created_at: datetime
    resolved_at: datetime | None


class ConflictListOut(BaseModel):
    conflicts: list[ConflictOut]


class ResolveIn(BaseModel):
    project_id: str = Field(min_length=1, max_length=128)
    keep_fact_id: UUID


class ResolveOut(BaseModel):
    id: UUID
    status: Literal["resolved"] = "resolved"
    keep_fact_id: UUID
    superseded: list[UUID]
