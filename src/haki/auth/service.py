"""API keys as a service: issue, list, revoke, and resolve a bearer secret to its project.

Only the sha256 of a key is stored; the secret leaves this module once, in
the ``IssuedKey`` returned by :func:`issue`.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from ..errors import NotFound
from ..storage import Database
from . import store
from .material import generate_key, hash_key, key_prefix, looks_like_key
from .types import ApiKey, IssuedKey, KeyOwner

# last_used_at is a hint for operators, not an audit log: writing it on
# every request would turn each read into a write.
TOUCH_INTERVAL = timedelta(minutes=1)


async def issue(db: Database, *, org_id: str, project_id: str, label: str = "") -> IssuedKey:
    secret = generate_key()
    async with db.transaction() as conn:
        record = await store.insert_key(
            conn,
            org_id=org_id,
            project_id=project_id,
            label=label,
            key_hash=hash_key(secret),
            prefix=key_prefix(secret),
        )
    return IssuedKey(record=record, secret=secret)


async def list_keys(db: Database, project_id: str | None) -> list[ApiKey]:
    """The keys of one project; ``None`` (the admin's listing) is every project's."""
    async with db.transaction() as conn:
        return await store.list_for_project(conn, project_id)


async def revoke(db: Database, key_id: uuid.UUID, *, project_id: str | None) -> ApiKey:
    """Revoke a key (idempotent). ``project_id`` None lets an admin revoke any key;
    otherwise another project's key is ``NotFound`` like a missing one."""
    async with db.transaction() as conn:
        record = await store.revoke(conn, key_id, project_id)
    if record is None:
        raise NotFound("no such API key")
    return record


async def resolve(db: Database, secret: str, *, now: datetime | None = None) -> KeyOwner | None:
    """The active key behind a bearer secret, or None for an unknown or revoked one."""
    if not looks_like_key(secret):
        return None
    now = now or datetime.now(UTC)
    async with db.transaction() as conn:
        owner = await store.find_active_by_hash(conn, hash_key(secret))
        if owner is not None and (
            owner.last_used_at is None or now - owner.last_used_at >= TOUCH_INTERVAL
        ):
            await store.touch(conn, owner.id, TOUCH_INTERVAL.total_seconds())
    return owner
