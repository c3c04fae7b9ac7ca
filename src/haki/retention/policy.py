"""A project's retention policy and the receipts its enforcement leaves (migration 0140)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from ..errors import InvalidPayload
from ..storage import Connection

# A century: past it a term is a typo, and ``now - days`` would leave the
# range PostgreSQL's timestamps hold long before that anyway.
MAX_DAYS = 36_500

READ = """
SELECT project_id, events_days, traces_days, updated_at
FROM retention_policies WHERE project_id = %(project_id)s"""

UPSERT = """
INSERT INTO retention_policies (project_id, events_days, traces_days)
VALUES (%(project_id)s, %(events_days)s, %(traces_days)s)
ON CONFLICT (project_id) DO UPDATE
SET events_days = EXCLUDED.events_days, traces_days = EXCLUDED.traces_days, updated_at = now()
RETURNING project_id, events_days, traces_days, updated_at"""

RECEIPTS = """
SELECT id, project_id, events_before, traces_before, counts, created_at
FROM retention_receipts WHERE project_id = %(project_id)s
ORDER BY created_at DESC, id LIMIT %(limit)s"""


@dataclass(frozen=True, slots=True)
class RetentionPolicy:
    """How many days events and traces are kept; None: for ever."""

    project_id: str
    events_days: int | None
    traces_days: int | None
    updated_at: datetime | None


@dataclass(frozen=True, slots=True)
class RetentionReceipt:
    """One enforcement run that deleted rows: the cut-offs it applied and the counts."""

    id: UUID
    project_id: str
    events_before: datetime | None
    traces_before: datetime | None
    counts: dict[str, int]
    created_at: datetime


def _policy(row: dict[str, Any]) -> RetentionPolicy:
    return RetentionPolicy(
        project_id=row["project_id"],
        events_days=row["events_days"],
        traces_days=row["traces_days"],
        updated_at=row["updated_at"],
    )


def receipt_of(row: dict[str, Any]) -> RetentionReceipt:
    return RetentionReceipt(
        id=row["id"],
        project_id=row["project_id"],
        events_before=row["events_before"],
        traces_before=row["traces_before"],
        counts=dict(row["counts"]),
        created_at=row["created_at"],
    )


async def get_policy(conn: Connection, project_id: str) -> RetentionPolicy:
    """The project's policy; keep everything when none was set."""
    cur = await conn.execute(READ, {"project_id": project_id})
    row = await cur.fetchone()
    if row is None:
        return RetentionPolicy(project_id, None, None, None)
    return _policy(row)


def _check_days(value: int | None, field: str) -> None:
    if value is not None and not 1 <= value <= MAX_DAYS:
        raise InvalidPayload(f"{field} must be between 1 and {MAX_DAYS} days, or null", field=field)


async def set_policy(
    conn: Connection, project_id: str, *, events_days: int | None, traces_days: int | None
) -> RetentionPolicy:
    """Store the project's policy (None for a kind: keep it for ever)."""
    _check_days(events_days, "events_days")
    _check_days(traces_days, "traces_days")
    cur = await conn.execute(
        UPSERT, {"project_id": project_id, "events_days": events_days, "traces_days": traces_days}
    )
    row = await cur.fetchone()
    assert row is not None
    return _policy(row)


async def list_receipts(
    conn: Connection, project_id: str, limit: int = 10
) -> list[RetentionReceipt]:
    """The project's latest receipts, newest first."""
    cur = await conn.execute(RECEIPTS, {"project_id": project_id, "limit": limit})
    return [receipt_of(row) for row in await cur.fetchall()]
