"""Canonical JSON and the content hash of an event.

The hash covers the business content only (org, project, subject, kind,
occurred_at, payload), never provenance or server-side columns, so the same
statement captured twice hashes the same. ``occurred_at`` is normalised to
UTC first: one instant written with two offsets is one event.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any


def canonical_json(value: Any) -> str:
    """Sorted keys, compact separators, UTF-8 text; NaN and infinities are refused."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def canonical_instant(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def content_hash(
    *,
    org_id: str,
    project_id: str,
    subject_type: str,
    subject_id: str,
    kind: str,
    occurred_at: datetime,
    payload: Mapping[str, Any],
) -> str:
    document = {
        "org_id": org_id,
        "project_id": project_id,
        "subject_type": subject_type,
        "subject_id": subject_id,
        "kind": kind,
        "occurred_at": canonical_instant(occurred_at),
        "payload": payload,
    }
    return "sha256:" + hashlib.sha256(canonical_json(document).encode("utf-8")).hexdigest()


def effective_key(
    batch_key: str | None, event_key: str | None, digest: str, subject_id: str
) -> str:
    """The idempotency key an event is stored under.

    The batch key is namespaced by the content hash so events of one batch
    never collide with each other, only with their own replays.
    """
    if batch_key:
        return f"{batch_key}:{digest}"
    if event_key:
        return event_key
    return f"{digest}:{subject_id}"
