"""Validate a capture batch and plan its rows, with no I/O.

Every rule that can reject a batch lives here, so a batch is rejected
whole before anything touches the database. Errors name the offending
event by its index (``events[3].subject_id``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import InvalidPayload, MissingScope, PayloadTooLarge
from ..types import TRUST_ORDER
from .canonical import canonical_json, content_hash, effective_key
from .types import CaptureBatch, NewEvent

MAX_EVENTS = 1_000
MAX_CONTENT_BYTES = 256 * 1024  # payload + source, serialized, per event
MAX_ID_CHARS = 128
MAX_KEY_CHARS = 256

# Provenance kinds whose word is worth less than the user's own.
MACHINE_ACTORS = frozenset({"agent", "tool", "system"})
# Chat roles that speak for a machine: the payload says who spoke even when
# the caller sets no ``actor_type``.
MACHINE_ROLES = frozenset({"assistant", "agent", "tool", "system", "function"})

ID_FIELDS = (
    "org_id",
    "project_id",
    "subject_type",
    "subject_id",
    "actor_type",
    "actor_id",
    "agent_id",
    "thread_id",
    "run_id",
)

# jsonb refuses the NUL character; an escaped backslash before it is literal text.
_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


@dataclass(frozen=True, slots=True)
class PlannedEvent:
    """A validated event with every column the insert needs."""

    position: int
    key: str
    hash: str
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
    # Seconds east of UTC the instant was given in (timestamptz drops it).
    occurred_offset: int
    payload_json: str
    source_json: str | None
    classification_json: str
    origin_trust: str


@dataclass(frozen=True, slots=True)
class Plan:
    """``rows`` holds the first occurrence of each key, in batch order;
    ``keys`` the effective key of every submitted position."""

    org_id: str
    project_id: str
    rows: tuple[PlannedEvent, ...]
    keys: tuple[str, ...]


def payload_roles(payload: Mapping[str, Any]) -> set[str]:
    """The chat roles a payload names, in any documented spelling."""
    roles: set[str] = set()
    messages = payload.get("messages")
    if isinstance(messages, list):
        roles.update(str(m.get("role") or "user") for m in messages if isinstance(m, Mapping))
    elif isinstance(payload.get("role"), str):
        roles.add(payload["role"])
    roles.update(k for k in ("user", "assistant") if isinstance(payload.get(k), str))
    return {role.lower() for role in roles}


def default_trust(actor_type: str | None, payload: Mapping[str, Any] | None = None) -> str:
    """A machine actor, or (with no actor given) a payload only machines speak in, is semi-trusted."""
    if actor_type is not None:
        return "semi_trusted" if actor_type in MACHINE_ACTORS else "trusted"
    roles = payload_roles(payload or {})
    return "semi_trusted" if roles and roles <= MACHINE_ROLES else "trusted"


def resolve_trust(event: NewEvent, field: str, origin_trust_allowed: bool) -> str:
    """Trusted callers may set any value; others may only lower the default."""
    default = default_trust(event.actor_type, event.payload)
    explicit = event.origin_trust
    if explicit is None:
        return default
    if explicit not in TRUST_ORDER:
        raise InvalidPayload(f"{field}: unknown origin_trust {explicit!r}", field=field)
    if not origin_trust_allowed and TRUST_ORDER[explicit] > TRUST_ORDER[default]:
        raise InvalidPayload(
            f"{field}: a project key may only lower origin_trust (default here: {default})",
            field=field,
        )
    return explicit


def _text(value: str | None, field: str, limit: int) -> None:
    if value is None:
        return
    if len(value) > limit:
        raise InvalidPayload(f"{field}: at most {limit} characters", field=field)
    if "\x00" in value:
        raise InvalidPayload(f"{field}: NUL characters are not allowed", field=field)


def _json(value: Mapping[str, Any] | list[str] | None, field: str) -> str | None:
    if value is None:
        return None
    try:
        text = canonical_json(value)
    except (TypeError, ValueError) as exc:
        raise InvalidPayload(f"{field}: not serializable as JSON ({exc})", field=field) from None
    if _JSON_NUL.search(text):
        raise InvalidPayload(f"{field}: NUL characters are not allowed", field=field)
    return text


def _required(value: str | None, field: str, error: type[InvalidPayload] = InvalidPayload) -> str:
    if value is None or not value.strip():
        raise error(f"{field} is required", field=field)
    return value


def _offset_seconds(moment: datetime) -> int:
    offset = moment.utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def plan_event(
    event: NewEvent, position: int, batch_key: str | None, origin_trust_allowed: bool
) -> PlannedEvent:
    at = f"events[{position}]"
    subject_id = _required(event.subject_id, f"{at}.subject_id", MissingScope)
    project_id = _required(event.project_id, f"{at}.project_id", MissingScope)
    kind = _required(event.kind, f"{at}.kind")
    for name in ID_FIELDS:
        _text(getattr(event, name), f"{at}.{name}", MAX_ID_CHARS)
    _text(kind, f"{at}.kind", MAX_KEY_CHARS)
    _text(event.idempotency_key, f"{at}.idempotency_key", MAX_KEY_CHARS)
    for i, label in enumerate(event.classification):
        _text(label, f"{at}.classification[{i}]", MAX_KEY_CHARS)
    if event.occurred_at.tzinfo is None or event.occurred_at.utcoffset() is None:
        raise InvalidPayload(
            f"{at}.occurred_at must carry a timezone offset, e.g. 2026-01-31T09:00:00Z",
            field=f"{at}.occurred_at",
        )
    payload_json = _json(event.payload, f"{at}.payload")
    source_json = _json(event.source, f"{at}.source")
    assert payload_json is not None
    size = len(payload_json.encode("utf-8")) + len((source_json or "").encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise PayloadTooLarge(
            f"{at}.payload: payload and source serialize to {size} bytes; the limit is {MAX_CONTENT_BYTES}",
            field=f"{at}.payload",
        )
    digest = content_hash(
        org_id=event.org_id,
        project_id=project_id,
        subject_type=event.subject_type,
        subject_id=subject_id,
        kind=kind,
        occurred_at=event.occurred_at,
        payload=event.payload,
    )
    return PlannedEvent(
        position=position,
        key=effective_key(batch_key, event.idempotency_key, digest, subject_id),
        hash=digest,
        org_id=event.org_id,
        project_id=project_id,
        subject_type=event.subject_type,
        subject_id=subject_id,
        actor_type=event.actor_type,
        actor_id=event.actor_id,
        agent_id=event.agent_id,
        thread_id=event.thread_id,
        run_id=event.run_id,
        kind=kind,
        occurred_at=event.occurred_at,
        occurred_offset=_offset_seconds(event.occurred_at),
        payload_json=payload_json,
        source_json=source_json,
        classification_json=canonical_json(list(event.classification)),
        origin_trust=resolve_trust(event, f"{at}.origin_trust", origin_trust_allowed),
    )


def plan_batch(batch: CaptureBatch, *, origin_trust_allowed: bool) -> Plan:
    """Validate the whole batch and fold events sharing an effective key into one.

    Two events of one batch with the same key (identical content under a
    batch key, or a repeated event key) are one event by design: the first
    position is stored, later positions resolve to its id as deduplicated.
    """
    if not batch.events:
        raise InvalidPayload("events: at least one event is required", field="events")
    if len(batch.events) > MAX_EVENTS:
        raise PayloadTooLarge(
            f"events: {len(batch.events)} events in one batch; the limit is {MAX_EVENTS}",
            field="events",
        )
    _text(batch.idempotency_key, "idempotency_key", MAX_KEY_CHARS)
    planned = [
        plan_event(event, i, batch.idempotency_key, origin_trust_allowed)
        for i, event in enumerate(batch.events)
    ]
    first = planned[0]
    for row in planned[1:]:
        if (row.org_id, row.project_id) != (first.org_id, first.project_id):
            field = f"events[{row.position}].project_id"
            raise InvalidPayload(
                f"{field}: every event of a batch belongs to one org and project", field=field
            )
    unique: dict[str, PlannedEvent] = {}
    for row in planned:
        unique.setdefault(row.key, row)
    return Plan(
        org_id=first.org_id,
        project_id=first.project_id,
        rows=tuple(unique.values()),
        keys=tuple(row.key for row in planned),
    )
