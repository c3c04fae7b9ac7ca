"""Listings of subjects and of context traces."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from pydantic import BaseModel, Field


class SubjectOut(BaseModel):
    subject_id: str
    events: int
    active_facts: int
    open_conflicts: int = Field(description="Open conflict sets of the subject")
    last_activity: datetime | None = Field(
        description="Latest event recorded or fact written for the subject"
    )


class SubjectPageOut(BaseModel):
    subjects: list[SubjectOut] = Field(description="This page, in subject_id order")
    next_cursor: str | None


class TraceSummaryOut(BaseModel):
    trace_id: UUID
    subject_id: str
    query: str
    purpose: str | None
    as_of: datetime | None
    token_count: int
    facts_served: int
    duration_ms: float
    created_at: datetime


class TracePageOut(BaseModel):
    traces: list[TraceSummaryOut] = Field(description="This page, newest first")
    next_cursor: str | None
