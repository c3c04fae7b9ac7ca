"""Typed results of the SDK: frozen dataclasses built from the server's JSON.

Every result keeps the JSON it was read from in ``raw``, and fields a newer
server adds that this client does not know yet in ``extra``: a client is
never broken by an additive change on the server. Identifiers stay strings
(what the wire carries, and what the next call takes); timestamps become
aware ``datetime`` objects.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar, Union

R = TypeVar("R", bound="Result")


def _parse_time(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value
    return value


def _convert(hint: Any, value: Any) -> Any:
    """Convert one JSON value to ``hint``: datetimes, nested results, lists of them."""
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        for arg in typing.get_args(hint):
            if arg is not type(None):
                return _convert(arg, value)
    if origin is list and isinstance(value, list):
        (item,) = typing.get_args(hint)
        return [_convert(item, v) for v in value]
    if hint is datetime:
        return _parse_time(value)
    if isinstance(hint, type) and issubclass(hint, Result) and isinstance(value, dict):
        return from_json(hint, value)
    return value


_FIELDS: dict[type, tuple[tuple[str, Any, bool], ...]] = {}


def _fields(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    """(name, type, required) of each modelled field, computed once per class."""
    if cls in _FIELDS:
        return _FIELDS[cls]
    hints = typing.get_type_hints(cls)
    _FIELDS[cls] = tuple(
        (
            f.name,
            hints[f.name],
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
        if f.name not in ("raw", "extra")
    )
    return _FIELDS[cls]


def from_json(cls: type[R], data: dict[str, Any]) -> R:
    """Build ``cls`` from a JSON object; a field the server left out takes its default."""
    known: dict[str, Any] = {}
    for name, hint, required in _fields(cls):
        if name in data:
            known[name] = _convert(hint, data[name])
        elif required:
            known[name] = None
    names = {name for name, _, _ in _fields(cls)}
    extra = {k: v for k, v in data.items() if k not in names}
    return cls(**known, raw=data, extra=extra)


@dataclass(frozen=True)
class Result:
    """``raw``: the JSON as received; ``extra``: its fields this client does not model."""

    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, kw_only=True)
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, kw_only=True)


@dataclass(frozen=True)
class Health(Result):
    status: str
    database: str
    embedder: dict[str, Any] | None = None


@dataclass(frozen=True)
class CapturedEvent(Result):
    id: str
    deduplicated: bool


@dataclass(frozen=True)
class CaptureResult(Result):
    status: str
    events: list[CapturedEvent]
    consolidation_job_id: str | None = None

    @property
    def event_ids(self) -> list[str]:
        return [e.id for e in self.events]


@dataclass(frozen=True)
class PacketFact(Result):
    """A fact as served in a packet; ``extra`` holds marks such as ``contested``."""

    id: str
    predicate: str
    value: Any
    valid_from: datetime | None = None
    source_event_ids: list[str] = field(default_factory=list)
    confidence: float | None = None
    fact_kind: str | None = None
    volatility: str | None = None
    text: str | None = None
    # How finely the words that dated the fact placed ``valid_from``: "day",
    # "week", "month" or "year"; ``None`` when no time words dated it.
    valid_from_grain: str | None = None


@dataclass(frozen=True)
class PacketEpisode(Result):
    """A dated excerpt of an event, as served in a packet."""

    id: str
    event_id: str
    occurred_at: datetime
    excerpt: str
    kind: str | None = None
    speaker: str | None = None
    text: str | None = None
    ordinal: int = 0  # position in its event: messages of one event share occurred_at


@dataclass(frozen=True)
class Packet(Result):
    facts: list[PacketFact] = field(default_factory=list)
    episodes: list[PacketEpisode] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    status: str = "ok"
    empty_reason: str | None = None


@dataclass(frozen=True)
class ContextResult(Result):
    """``client.context(...)``: the packet, what it costs, and the trace to inspect it."""

    packet: Packet
    token_count: int
    trace_id: str


@dataclass(frozen=True)
class Decision(Result):
    kind: str
    id: str
    action: str
    reason_code: str
    rank: int | None = None
    score: dict[str, float] | None = None
    tokens: int | None = None


@dataclass(frozen=True)
class Trace(Result):
    trace_id: str
    project_id: str
    subject_id: str
    query: str
    packet: Packet
    decisions: list[Decision]
    token_count: int
    purpose: str | None = None
    as_of: datetime | None = None
    created_at: datetime | None = None


@dataclass(frozen=True)
class Event(Result):
    id: str
    project_id: str
    subject_id: str
    kind: str
    occurred_at: datetime
    payload: dict[str, Any]
    org_id: str | None = None
    subject_type: str | None = None
    actor_type: str | None = None
    actor_id: str | None = None
    agent_id: str | None = None
    thread_id: str | None = None
    run_id: str | None = None
    recorded_at: datetime | None = None
    idempotency_key: str | None = None
    origin_trust: str | None = None


@dataclass(frozen=True)
class Timeline(Result):
    events: list[Event]
    next_cursor: str | None = None


@dataclass(frozen=True)
class Fact(Result):
    id: str
    project_id: str
    subject_id: str
    predicate: str
    value: Any
    status: str
    qualifiers: dict[str, Any] = field(default_factory=dict)
    confidence: float | None = None
    version: int | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_from: datetime | None = None
    recorded_to: datetime | None = None
    supersedes_id: str | None = None
    source_event_ids: list[str] = field(default_factory=list)
    fact_kind: str | None = None
    volatility: str | None = None
    origin_trust: str | None = None
    evidence_span: str | None = None
    # See ``PacketFact.valid_from_grain``.
    valid_from_grain: str | None = None


@dataclass(frozen=True)
class FactPage(Result):
    facts: list[Fact]
    next_cursor: str | None = None


@dataclass(frozen=True)
class ConsolidateResult(Result):
    """Counts over the jobs a consolidation call ran; ``processed`` is the number of jobs."""

    processed: int
    jobs: dict[str, int] = field(default_factory=dict)
    events: int = 0
    chunks: int = 0
    candidates: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)
    # processed == 0 because the server's worker already did the work (``note`` says how).
    already_consolidated: bool = False
    note: str | None = None


@dataclass(frozen=True)
class Job(Result):
    id: str
    kind: str
    status: str
    project_id: str
    attempts: int
    subject_id: str | None = None
    last_error: str | None = None
    result: dict[str, Any] | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


@dataclass(frozen=True)
class JobList(Result):
    jobs: list[Job]
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Conflict(Result):
    id: str
    project_id: str
    subject_id: str
    kind: str
    status: str
    reason: str
    fact_ids: list[str]
    facts: list[Fact] = field(default_factory=list)
    resolution: dict[str, Any] | None = None
    created_at: datetime | None = None
    resolved_at: datetime | None = None


@dataclass(frozen=True)
class ConflictList(Result):
    conflicts: list[Conflict]


@dataclass(frozen=True)
class Resolution(Result):
    """A resolved conflict set: the fact kept (None when candidates were dismissed)."""

    id: str
    status: str
    keep_fact_id: str | None
    superseded: list[str]
    dismissed: list[str] = field(default_factory=list)
    resolved_at: datetime | None = None


@dataclass(frozen=True)
class ForgetReceipt(Result):
    forget_id: str
    mode: str
    status: str
    created_at: datetime | None = None
    facts_disabled: int = 0
    facts_deleted: int = 0
    events_deleted: int = 0
    chunks_deleted: int = 0
    traces_deleted: int = 0
    conflict_sets_deleted: int = 0


@dataclass(frozen=True)
class FeedbackReceipt(Result):
    id: str
    status: str
    fact_status: str | None = None


@dataclass(frozen=True)
class ApiKey(Result):
    id: str
    project_id: str
    prefix: str
    org_id: str | None = None
    label: str | None = None
    created_at: datetime | None = None
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None
    key: str | None = None  # the secret: only in the creation response, once


@dataclass(frozen=True)
class KeyList(Result):
    keys: list[ApiKey]


@dataclass(frozen=True)
class RevokedKey(Result):
    id: str
    revoked_at: datetime | None = None
    status: str = "revoked"


@dataclass(frozen=True)
class DayCount(Result):
    day: str  # ISO date
    events: int = 0
    context_calls: int = 0


@dataclass(frozen=True)
class Stats(Result):
    project_id: str
    active_facts: int
    events_this_week: int
    recall_count: int
    context_tokens_served: int
    recall_p50_ms: float | None = None
    recall_p99_ms: float | None = None
    injection_rate: float | None = None
    per_day: list[DayCount] = field(default_factory=list)


@dataclass(frozen=True)
class Subject(Result):
    subject_id: str
    events: int
    active_facts: int
    open_conflicts: int
    last_activity: datetime | None = None


@dataclass(frozen=True)
class SubjectPage(Result):
    subjects: list[Subject]
    next_cursor: str | None = None


@dataclass(frozen=True)
class TraceSummary(Result):
    """One context call in a listing; ``inspect(trace_id, ...)`` reads it whole."""

    trace_id: str
    subject_id: str
    query: str
    token_count: int
    facts_served: int
    duration_ms: float
    purpose: str | None = None
    as_of: datetime | None = None
    created_at: datetime | None = None


@dataclass(frozen=True)
class TracePage(Result):
    traces: list[TraceSummary]
    next_cursor: str | None = None


@dataclass(frozen=True)
class DeviceCode(Result):
    """``cli_device_start()``: show ``user_code``, open ``verification_uri_complete``, then poll."""

    device_code: str
    user_code: str
    verification_uri: str
    expires_in: int
    interval: int
    verification_uri_complete: str | None = None


@dataclass(frozen=True)
class DeviceLogin(Result):
    """``cli_device_poll()``: ``pending``, ``expired``, or ``approved`` with the key (once)."""

    status: str
    api_key: str | None = None
    org_id: str | None = None
    project_id: str | None = None
