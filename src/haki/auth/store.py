"""SQL on ``api_keys``. The table has no row-level security (a key is looked
up before its project is known), so every query here filters on project
explicitly where a project applies."""

from __future__ import annotations

import uuid

from psycopg.rows import class_row

from ..storage import Connection
from .types import ApiKey, KeyOwner

INSERT_KEY = """
INSERT INTO api_keys (org_id, project_id, label, key_hash, prefix)
VALUES (%(org_id)s, %(project_id)s, %(label)s, %(key_hash)s, %(prefix)s)
RETURNING id, org_id, project_id, label, prefix, created_at, last_used_at, revoked_at"""

LIST_FOR_PROJECT = """
SELECT id, org_id, project_id, label, prefix, created_at, last_used_at, revoked_at FROM api_keys
WHERE %(project_id)s::text IS NULL OR project_id = %(project_id)s
ORDER BY created_at, id"""

# project_id NULL means "any project" (admin); otherwise another project's
# key is not found, exactly like a missing one.
REVOKE = """
UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
WHERE id = %(id)s AND (%(project_id)s::text IS NULL OR project_id = %(project_id)s)
RETURNING id, org_id, project_id, label, prefix, created_at, last_used_at, revoked_at"""

FIND_ACTIVE_BY_HASH = """
SELECT id, org_id, project_id, last_used_at FROM api_keys
WHERE key_hash = %(key_hash)s AND revoked_at IS NULL"""

# The condition repeats the caller's freshness check so concurrent requests
# write at most once per interval.
TOUCH = """
UPDATE api_keys SET last_used_at = now()
WHERE id = %(id)s
  AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => %(interval_s)s))"""


async def insert_key(
    conn: Connection, *, org_id: str, project_id: str, label: str, key_hash: str, prefix: str
) -> ApiKey:
    async with conn.cursor(row_factory=class_row(ApiKey)) as cur:
        await cur.execute(
            INSERT_KEY,
            {
                "org_id": org_id,
                "project_id": project_id,
                "label": label,
                "key_hash": key_hash,
                "prefix": prefix,
            },
        )
        row = await cur.fetchone()
    assert row is not None  # INSERT ... RETURNING always yields the row
    return row


async def list_for_project(conn: Connection, project_id: str | None) -> list[ApiKey]:
    async with conn.cursor(row_factory=class_row(ApiKey)) as cur:
        await cur.execute(LIST_FOR_PROJECT, {"project_id": project_id})
        return await cur.fetchall()


async def revoke(conn: Connection, key_id: uuid.UUID, project_id: str | None) -> ApiKey | None:
    async with conn.cursor(row_factory=class_row(ApiKey)) as cur:
        await cur.execute(REVOKE, {"id": key_id, "project_id": project_id})
        return await cur.fetchone()


async def find_active_by_hash(conn: Connection, key_hash: str) -> KeyOwner | None:
    async with conn.cursor(row_factory=class_row(KeyOwner)) as cur:
        await cur.execute(FIND_ACTIVE_BY_HASH, {"key_hash": key_hash})
        return await cur.fetchone()


async def touch(conn: Connection, key_id: uuid.UUID, interval_s: float) -> None:
    await conn.execute(TOUCH, {"id": key_id, "interval_s": interval_s})
