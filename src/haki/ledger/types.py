"""Typed inputs and outputs of the ledger services."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID


@dataclass(frozen=True, slots=True)
class NewEvent:
    """One event as a caller submits it; the ledger validates it, not the caller.

    ``subject_id`` is optional here on purpose: a missing one is reported by
    the ledger as ``missing_scope`` naming the event's index in the batch.
    """

    project_id: str
    kind: str
    occurred_at: datetime
    payload: Mapping[str, Any]
    subject_id: str | None = None
    org_id: str = "default"
    subject_type: str = "user"
    actor_type: str | None = None
    actor_id: str | None = None
    agent_id: str | None = None
    thread_id: str | None = None
    run_id: str | None = None
    source: Mapping[str, Any] | None = None
    classification: tuple[str, ...] = ()
    idempotency_key: str | None = None
    origin_trust: str | None = None


@dataclass(frozen=True, slots=True)
class CaptureBatch:
    events: tuple[NewEvent, ...]
    idempotency_key: str | None = None


@dataclass(frozen=True, slots=True)
class CapturedEvent:
    id: UUID
    deduplicated: bool


@dataclass(frozen=True, slots=True)
class CaptureResult:
    """One entry per submitted event, in batch order."""

    events: tuple[CapturedEvent, ...]
    # The jobs queued for the new events, in run order: one, or several when
    # the batch is over a job's size bounds (``jobs.sizing``).
    consolidation_job_ids: tuple[UUID, ...] = ()
    new_event_ids: tuple[UUID, ...] = ()

    @property
    def consolidation_job_id(self) -> UUID | None:
        """The first job queued for the new events (the one the API names)."""
        return self.consolidation_job_ids[0] if self.consolidation_job_ids else None


@dataclass(frozen=True, slots=True)
class Page:
    """One page of rows in a total order; ``next_cursor`` is None on the last page."""

    items: list[dict[str, Any]]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class FactQuery:
    project_id: str
    subject_id: str
    status: str | None = None
    as_of: datetime | None = None
    known_at: datetime | None = None
    limit: int = 100
    cursor: str | None = None
