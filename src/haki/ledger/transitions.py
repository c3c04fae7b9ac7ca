"""The fact status lifecycle: which transitions are legal, and applying one.

Every transition bumps ``version`` and is recorded in ``fact_transitions``
with the caller's reason; a caller may pass the version it saw (optimistic
concurrency). ``deleted`` is terminal and closes ``recorded_to``
(system time: from now on we no longer hold this fact as knowledge).

Business time follows the status: ``superseded`` ends the fact's truth, so
it sets ``valid_to`` (the caller's, else the one already set, else now) and
``as_of`` stops serving it from then on; ``active`` makes it true now, so it
reopens ``valid_to`` unless the caller gives one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from ..errors import IllegalStatusTransition, InvalidPayload, NotFound, VersionConflict
from ..storage import Connection
from .facts import FACT_COLUMNS

ALLOWED: dict[str, frozenset[str]] = {
    "candidate": frozenset({"active", "superseded", "disputed", "disabled", "deleted"}),
    "active": frozenset({"superseded", "disputed", "disabled", "deleted"}),
    # A superseded fact is still served for an as_of inside its validity:
    # disabling takes it out of service (a forget in mode disable).
    "superseded": frozenset({"disputed", "disabled", "deleted"}),
    "disputed": frozenset({"active", "superseded", "disabled", "deleted"}),
    "disabled": frozenset({"active", "deleted"}),
    "deleted": frozenset(),
}

LOCK_FACT = """
SELECT id, status, version, valid_from FROM facts
WHERE id = %(id)s AND project_id = %(project_id)s
FOR UPDATE"""

# The update and its audit row go in one statement; RETURNING leaves out the
# embedding, which callers never need.
APPLY = f"""
WITH updated AS (
    UPDATE facts SET
        status = %(status)s,
        version = version + 1,
        recorded_to = CASE WHEN %(status)s = 'deleted' THEN now() ELSE recorded_to END,
        valid_to = CASE
            WHEN %(status)s = 'superseded'
                THEN coalesce(%(valid_to)s::timestamptz, valid_to, greatest(now(), valid_from))
            WHEN %(status)s = 'active' THEN %(valid_to)s::timestamptz
            ELSE coalesce(%(valid_to)s::timestamptz, valid_to) END,
        updated_at = now()
    WHERE id = %(id)s AND project_id = %(project_id)s
    RETURNING {FACT_COLUMNS}
), logged AS (
    INSERT INTO fact_transitions (org_id, project_id, subject_id, fact_id, from_status, to_status, version, reason)
    SELECT org_id, project_id, subject_id, id, %(from_status)s, status, version, %(reason)s FROM updated
)
SELECT * FROM updated"""


def check_transition(current: str, target: str) -> None:
    allowed = ALLOWED.get(current, frozenset())
    if target not in allowed:
        choices = ", ".join(sorted(allowed)) if allowed else "nothing: it is final"
        raise IllegalStatusTransition(
            f"a fact cannot go from {current} to {target}; from {current} it can go to {choices}",
            field="status",
        )


async def set_status(
    conn: Connection,
    *,
    project_id: str,
    fact_id: UUID | str,
    status: str,
    expected_version: int | None = None,
    valid_to: datetime | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """Apply one transition under a row lock; return the updated row."""
    cur = await conn.execute(LOCK_FACT, {"id": fact_id, "project_id": project_id})
    row = await cur.fetchone()
    if row is None:
        raise NotFound("fact not found")
    if expected_version is not None and row["version"] != expected_version:
        raise VersionConflict(
            f"fact is at version {row['version']}, not {expected_version}", field="expected_version"
        )
    check_transition(row["status"], status)
    if valid_to is not None:
        if valid_to.utcoffset() is None:
            raise InvalidPayload("valid_to must carry a timezone offset", field="valid_to")
        if row["valid_from"] is not None and valid_to < row["valid_from"]:
            raise InvalidPayload(
                f"valid_to must not precede the fact's valid_from ({row['valid_from'].isoformat()})",
                field="valid_to",
            )
    params = {
        "id": fact_id,
        "project_id": project_id,
        "status": status,
        "valid_to": valid_to,
        "from_status": row["status"],
        "reason": reason,
    }
    cur = await conn.execute(APPLY, params)
    updated = await cur.fetchone()
    assert updated is not None
    return updated
