"""Wire models of consolidation runs, jobs and conflict sets."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...consolidator import Summary, Waited
from .fields import Count, ProjectId, ProjectScope, RequestBody, Text


class ConsolidateIn(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"project_id": "demo", "max_jobs": 10}]}
    )

    project_id: ProjectId | None = Field(
        default=None, description="Only this project's jobs; every project's when left out."
    )
    max_jobs: Count | None = Field(
        default=None, ge=1, le=100_000, description="Stop after this many jobs."
    )


class WaitedOut(BaseModel):
    """The jobs this call answered for: every one is finished when the call returns."""

    jobs: list[UUID] = Field(description="jobs of the scope pending or running when the call began")
    held_elsewhere: list[UUID] = Field(
        description="of those, the ones another worker was running; the call waited for them"
    )
    failed: list[UUID] = Field(description="of those, the ones that failed for good")
    waited_ms: float


class ConsolidateOut(BaseModel):
    """Counts over the jobs this call ran (outcomes, events, chunks, candidates,
    rejections, actions), and the jobs it waited for."""

    processed: int = Field(description="Jobs run, whatever their outcome (the sum of ``jobs``)")
    jobs: dict[str, int]
    events: int
    chunks: int
    candidates: int
    rejected: dict[str, int]
    actions: dict[str, int]
    waited: WaitedOut | None = Field(
        default=None, description="absent when the run was bounded by max_jobs"
    )
    already_consolidated: bool = Field(
        default=False,
        description="True when this call ran no job because another worker (the server's "
        "own, a `haki worker`) had already done, or finished while it waited, every job of "
        "the scope queued before it: `processed` is 0 and the facts are there",
    )
    note: str | None = Field(
        default=None, description="Why `processed` is 0, in words; absent when jobs ran here"
    )

    @classmethod
    def of(cls, summary: Summary, waited: Waited | None = None) -> ConsolidateOut:
        counts = summary.as_json()
        processed = sum(counts["jobs"].values())
        done_elsewhere = processed == 0 and waited is not None and not waited.failed
        return cls(
            processed=processed,
            **counts,
            waited=WaitedOut.model_validate(waited.as_json()) if waited else None,
            already_consolidated=done_elsewhere,
            note=_note(processed, waited),
        )


def _note(processed: int, waited: Waited | None) -> str | None:
    if processed:
        return None
    if waited is None:
        return "no job was ready to run"
    if waited.failed:
        return f"{len(waited.failed)} job(s) of this scope failed for good; see GET /v1/jobs"
    if waited.held_elsewhere:
        return (
            f"already consolidated: another worker ran the {len(waited.held_elsewhere)} "
            "pending job(s) and this call waited for them"
        )
    return "already consolidated: nothing of this scope was pending (the worker got there first)"


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
    started_at: datetime | None
    finished_at: datetime | None
    last_error: str | None
    result: dict[str, Any] | None
    created_at: datetime


class JobRetryIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"project_id": "demo"}]}
    )
    project_id: str = Field(min_length=1, max_length=128, description="The job's project")


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
    kind: Literal["contradiction", "quarantine", "doubt"]
    status: Literal["open", "resolved"]
    reason: str
    fact_ids: list[UUID]
    facts: list[ConflictFact]
    resolution: dict[str, Any] | None
    created_at: datetime
    resolved_at: datetime | None


class ConflictListOut(BaseModel):
    conflicts: list[ConflictOut]


class ResolveIn(RequestBody):
    """Either keep one member (``keep_fact_id``) or dismiss the candidates (``dismiss: true``)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"project_id": "demo", "keep_fact_id": "0193b0a4-5c6e-7d8f-9a0b-1c2d3e4f5a6b"}
            ]
        }
    )

    project_id: ProjectScope = None
    keep_fact_id: UUID | None = Field(
        default=None, description="The member fact that stays active."
    )
    dismiss: bool = Field(
        default=False,
        description="disable every candidate member (e.g. a quarantined one) and close the set",
    )
    reason: Annotated[Text, Field(max_length=1000)] | None = Field(
        default=None, description="Why, kept with the resolution."
    )

    @model_validator(mode="after")
    def _one_decision(self) -> ResolveIn:
        if (self.keep_fact_id is None) == (not self.dismiss):
            raise ValueError("give exactly one of keep_fact_id and dismiss: true")
        return self


class ResolveOut(BaseModel):
    """``conflict_id``, ``kept_fact_id`` and ``superseded_fact_ids`` repeat ``id``,
    ``keep_fact_id`` and ``superseded`` under the names older clients read."""

    id: UUID
    status: Literal["resolved"] = "resolved"
    keep_fact_id: UUID | None
    superseded: list[UUID]
    dismissed: list[UUID] = Field(default_factory=list)
    resolved_at: datetime
    conflict_id: UUID
    kept_fact_id: UUID | None
    superseded_fact_ids: list[UUID]

    @classmethod
    def of(
        cls, conflict_id: UUID, keep_fact_id: UUID | None, resolution: dict[str, Any]
    ) -> ResolveOut:
        superseded = [UUID(f) for f in resolution.get("superseded", [])]
        return cls(
            id=conflict_id,
            keep_fact_id=keep_fact_id,
            superseded=superseded,
            dismissed=[UUID(f) for f in resolution.get("dismissed", [])],
            resolved_at=resolution["resolved_at"],
            conflict_id=conflict_id,
            kept_fact_id=keep_fact_id,
            superseded_fact_ids=superseded,
        )
