"""What each SDK method sends, and how its answer is read, shared by both clients.

A ``Call`` is a plain description of one HTTP request; the sync and async
clients only differ in how they execute it. Bodies never carry a key whose
value is ``None``: the server rejects fields it does not know, and an
absent optional field means the same as a null one.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

from .types import (
    ApiKey,
    CaptureResult,
    ConflictList,
    ConsolidateResult,
    ContextResult,
    DeviceCode,
    DeviceLogin,
    Event,
    FactPage,
    FeedbackReceipt,
    ForgetReceipt,
    Health,
    Job,
    JobList,
    KeyList,
    Resolution,
    Result,
    RevokedKey,
    Stats,
    SubjectPage,
    Timeline,
    Trace,
    TracePage,
    from_json,
)
from .types import Fact as FactResult

T = TypeVar("T")
R = TypeVar("R", bound=Result)

# OpenAI roles mapped to the actor that speaks: an assistant's words are the
# agent's statements, stored with the lower trust the server gives agents.
ROLE_ACTORS = {"user": "user", "assistant": "agent", "system": "system", "tool": "tool"}


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    read: Callable[[Any], T]
    params: dict[str, Any] | None = None
    body: dict[str, Any] | None = None
    # Safe to send again after a transport failure: reads, and writes the
    # server deduplicates (capture with idempotency keys).
    replayable: bool = False


def _compact(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _wire(v) for k, v in values.items() if v is not None}


def _wire(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def _reader(cls: type[R]) -> Callable[[Any], R]:
    return lambda data: from_json(cls, data)


def _fact_written(data: dict[str, Any]) -> FactResult:
    """A write answers ``{"fact": ..., ...}``; the fact is what callers use."""
    return from_json(FactResult, data.get("fact", data))


def _consolidated(data: dict[str, Any]) -> ConsolidateResult:
    data = dict(data)
    data.setdefault("processed", sum((data.get("jobs") or {}).values()))
    return from_json(ConsolidateResult, data)


def with_event_keys(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The events with an idempotency key on each one that has none.

    The key is made once per ``capture`` call and reused by every retry of
    it, so a request resent after a lost answer lands on the same rows.
    """
    keyed = []
    for event in events:
        item = dict(event)
        if not item.get("idempotency_key"):
            item["idempotency_key"] = f"sdk-{uuid.uuid4().hex}"
        keyed.append(_compact(item))
    return keyed


def message_events(
    messages: Sequence[Mapping[str, Any]],
    *,
    project_id: str,
    subject_id: str,
    thread_id: str | None,
    occurred_at: datetime | None,
    org_id: str | None,
    agent_id: str | None,
    run_id: str | None,
    kind: str,
) -> list[dict[str, Any]]:
    """One event per chat message, its payload the message as given.

    Messages of one call are a microsecond apart so the timeline keeps their
    order; the role decides the actor (and so the trust) of each event.
    """
    base = occurred_at or datetime.now(UTC)
    events = []
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping) or "role" not in message:
            raise ValueError(f"messages[{i}] must be a mapping with a 'role'")
        role = str(message["role"])
        events.append(
            {
                "org_id": org_id,
                "project_id": project_id,
                "subject_id": subject_id,
                "thread_id": thread_id,
                "agent_id": agent_id,
                "run_id": run_id,
                "actor_type": ROLE_ACTORS.get(role, "agent"),
                "kind": kind,
                "occurred_at": base + timedelta(microseconds=i),
                "payload": dict(message),
            }
        )
    return events


class Calls:
    """Request builders; ``project_id`` defaults to the client's own."""

    def __init__(self, project_id: str | None) -> None:
        self.project_id = project_id

    def _project(self, project_id: str | None) -> str:
        project = project_id or self.project_id
        if not project:
            raise ValueError("project_id is required (pass it, or give the client a project_id)")
        return project

    def health(self) -> Call[Health]:
        return Call("GET", "/health", _reader(Health), replayable=True)

    def capture(
        self, events: Sequence[Mapping[str, Any]], idempotency_key: str | None
    ) -> Call[CaptureResult]:
        stamped = [{"occurred_at": datetime.now(UTC), **e} for e in events]
        keyed = [_compact(e) for e in stamped] if idempotency_key else with_event_keys(stamped)
        for event in keyed:
            event.setdefault("project_id", self.project_id)
            if event["project_id"] is None:
                raise ValueError("every event needs a project_id")
        body = _compact({"events": keyed, "idempotency_key": idempotency_key})
        return Call("POST", "/v1/capture", _reader(CaptureResult), body=body, replayable=True)

    def context(
        self,
        subject_id: str,
        query: str,
        project_id: str | None,
        purpose: str | None,
        budget_tokens: int | None,
        as_of: datetime | None,
    ) -> Call[ContextResult]:
        body = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "query": query,
                "purpose": purpose,
                "budget_tokens": budget_tokens,
                "as_of": as_of,
            }
        )
        return Call("POST", "/v1/context", _reader(ContextResult), body=body, replayable=True)

    def inspect(self, trace_id: str, project_id: str | None, subject_id: str) -> Call[Trace]:
        params = {"project_id": self._project(project_id), "subject_id": subject_id}
        return Call("GET", f"/v1/inspect/{trace_id}", _reader(Trace), params, replayable=True)

    def timeline(
        self, subject_id: str, project_id: str | None, limit: int | None, cursor: str | None
    ) -> Call[Timeline]:
        params = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "limit": limit,
                "cursor": cursor,
            }
        )
        return Call("GET", "/v1/timeline", _reader(Timeline), params, replayable=True)

    def event(self, event_id: str, project_id: str | None) -> Call[Event]:
        params = {"project_id": self._project(project_id)}
        return Call("GET", f"/v1/events/{event_id}", _reader(Event), params, replayable=True)

    def consolidate(self, project_id: str | None, max_jobs: int | None) -> Call[ConsolidateResult]:
        body = _compact({"project_id": project_id, "max_jobs": max_jobs}) or None
        return Call("POST", "/v1/consolidate", _consolidated, body=body)

    def consolidate_subject(
        self, project_id: str | None, subject_id: str
    ) -> Call[ConsolidateResult]:
        params = {"project_id": self._project(project_id), "subject_id": subject_id}
        return Call("POST", "/v1/consolidate/subject", _consolidated, params=params)

    def facts(
        self,
        project_id: str | None,
        subject_id: str,
        status: str | None,
        as_of: datetime | None,
        known_at: datetime | None,
        limit: int | None,
        cursor: str | None,
    ) -> Call[FactPage]:
        params = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "status": status,
                "as_of": as_of,
                "known_at": known_at,
                "limit": limit,
                "cursor": cursor,
            }
        )
        return Call("GET", "/v1/facts", _reader(FactPage), params, replayable=True)

    def fact(self, fact_id: str, project_id: str | None) -> Call[FactResult]:
        params = {"project_id": self._project(project_id)}
        return Call("GET", f"/v1/facts/{fact_id}", _reader(FactResult), params, replayable=True)

    def set_fact_status(
        self,
        fact_id: str,
        status: str,
        project_id: str | None,
        expected_version: int | None,
        reason: str | None,
    ) -> Call[FactResult]:
        body = _compact(
            {
                "project_id": self._project(project_id),
                "status": status,
                "expected_version": expected_version,
                "reason": reason,
            }
        )
        return Call("POST", f"/v1/facts/{fact_id}/status", _reader(FactResult), body=body)

    def forget(
        self, project_id: str | None, mode: str, subject_id: str | None, fact_id: str | None
    ) -> Call[ForgetReceipt]:
        body = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "fact_id": fact_id,
                "mode": mode,
            }
        )
        return Call("POST", "/v1/forget", _reader(ForgetReceipt), body=body)

    def feedback(
        self,
        project_id: str | None,
        rating: str,
        trace_id: str | None,
        fact_id: str | None,
        comment: str | None,
        subject_id: str | None,
    ) -> Call[FeedbackReceipt]:
        body = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "trace_id": trace_id,
                "fact_id": fact_id,
                "rating": rating,
                "comment": comment,
            }
        )
        return Call("POST", "/v1/feedback", _reader(FeedbackReceipt), body=body)

    def conflicts(
        self, project_id: str | None, subject_id: str | None, status: str | None, limit: int | None
    ) -> Call[ConflictList]:
        params = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "status": status,
                "limit": limit,
            }
        )
        return Call("GET", "/v1/conflicts", _reader(ConflictList), params, replayable=True)

    def resolve_conflict(
        self, conflict_id: str, project_id: str | None, keep_fact_id: str
    ) -> Call[Resolution]:
        body = {"project_id": self._project(project_id), "keep_fact_id": str(keep_fact_id)}
        return Call("POST", f"/v1/conflicts/{conflict_id}/resolve", _reader(Resolution), body=body)

    def jobs(self, project_id: str | None, status: str | None, limit: int | None) -> Call[JobList]:
        params = _compact(
            {"project_id": self._project(project_id), "status": status, "limit": limit}
        )
        return Call("GET", "/v1/jobs", _reader(JobList), params, replayable=True)

    def stats(self, project_id: str | None) -> Call[Stats]:
        params = {"project_id": self._project(project_id)}
        return Call("GET", "/v1/stats/overview", _reader(Stats), params, replayable=True)

    def create_key(
        self, project_id: str | None, org_id: str | None, label: str | None
    ) -> Call[ApiKey]:
        body = _compact({"project_id": self._project(project_id), "org_id": org_id, "label": label})
        return Call("POST", "/v1/keys", _reader(ApiKey), body=body)

    def list_keys(self, project_id: str | None) -> Call[KeyList]:
        params = _compact({"project_id": project_id})
        return Call("GET", "/v1/keys", _reader(KeyList), params, replayable=True)

    def revoke_key(self, key_id: str) -> Call[RevokedKey]:
        return Call("DELETE", f"/v1/keys/{key_id}", _reader(RevokedKey), replayable=True)

    def subjects(
        self, project_id: str | None, prefix: str | None, limit: int | None, cursor: str | None
    ) -> Call[SubjectPage]:
        params = _compact(
            {
                "project_id": self._project(project_id),
                "prefix": prefix,
                "limit": limit,
                "cursor": cursor,
            }
        )
        return Call("GET", "/v1/subjects", _reader(SubjectPage), params, replayable=True)

    def traces(
        self, project_id: str | None, subject_id: str | None, limit: int | None, cursor: str | None
    ) -> Call[TracePage]:
        params = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "limit": limit,
                "cursor": cursor,
            }
        )
        return Call("GET", "/v1/traces", _reader(TracePage), params, replayable=True)

    def create_fact(
        self,
        subject_id: str,
        predicate: str,
        value: Any,
        project_id: str | None,
        options: Mapping[str, Any],
    ) -> Call[FactResult]:
        body = _compact(
            {
                "project_id": self._project(project_id),
                "subject_id": subject_id,
                "predicate": predicate,
                **options,
            }
        )
        body["value"] = value
        return Call("POST", "/v1/facts", _fact_written, body=body)

    def correct_fact(
        self,
        fact_id: str,
        value: Any,
        project_id: str | None,
        expected_version: int | None,
        reason: str | None,
    ) -> Call[FactResult]:
        body = _compact(
            {
                "project_id": self._project(project_id),
                "expected_version": expected_version,
                "reason": reason,
            }
        )
        body["value"] = value
        return Call("PATCH", f"/v1/facts/{fact_id}", _fact_written, body=body)

    def dismiss_conflict(
        self, conflict_id: str, project_id: str | None, reason: str | None
    ) -> Call[Resolution]:
        body = _compact(
            {"project_id": self._project(project_id), "dismiss": True, "reason": reason}
        )
        return Call("POST", f"/v1/conflicts/{conflict_id}/resolve", _reader(Resolution), body=body)

    def cli_device_start(self) -> Call[DeviceCode]:
        return Call("POST", "/v1/cli/device/start", _reader(DeviceCode))

    def cli_device_poll(self, device_code: str) -> Call[DeviceLogin]:
        body = {"device_code": device_code}
        return Call("POST", "/v1/cli/device/poll", _reader(DeviceLogin), body=body)

    def approve_device(
        self, user_code: str, project_id: str | None, label: str | None
    ) -> Call[dict[str, Any]]:
        body = _compact(
            {"user_code": user_code, "project_id": self._project(project_id), "label": label}
        )
        return Call("POST", "/v1/cli/device/approve", dict, body=body)

    def retry_job(self, job_id: str, project_id: str | None) -> Call[Job]:
        body = {"project_id": self._project(project_id)}
        return Call("POST", f"/v1/jobs/{job_id}/retry", _reader(Job), body=body)
