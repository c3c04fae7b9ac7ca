"""Device-code login (RFC 8628 in spirit): a terminal gets a key by a person's approval.

``start`` gives the terminal a secret ``device_code`` and a short
``user_code`` to show; the person signs in to the console and approves the
user code for their project; the terminal's next ``poll`` (which proves it
holds the device code) issues a new key of that project, returns it once and
deletes the row. Only the sha256 of the device code is stored and no key
ever waits in the table: reading the table gives nobody a key.

``start`` and ``poll`` take no key, so their limits are per client address:
at most ``MAX_PENDING_PER_CLIENT`` logins wait per address (kept as a
digest, ``client_ref``), and the route limits calls per address and minute
(``api/routes/device.py``). ``MAX_PENDING`` is only a net on the table's size.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from ..errors import NotFound, RateLimited
from ..storage import Connection, Database
from .service import issue

EXPIRES_IN = timedelta(minutes=10)
POLL_INTERVAL_S = 2
# Unauthenticated callers create rows: past this many live codes from one
# client address, start refuses that address; past MAX_PENDING in all, anyone.
MAX_PENDING_PER_CLIENT = 10
MAX_PENDING = 100_000
PARTITION = "~device"
# No vowels and no look-alikes (0/O, 1/I/L): a code cannot spell a word or be misread.
ALPHABET = "BCDFGHJKMNPQRSTVWXZ23456789"
USER_CODE_LEN = 8

PURGE = "DELETE FROM cli_device_codes WHERE project_id = %(p)s AND expires_at < now()"
COUNT = """
SELECT count(*) AS n, count(*) FILTER (WHERE client_ref = %(client)s) AS mine
FROM cli_device_codes WHERE project_id = %(p)s"""
INSERT = """
INSERT INTO cli_device_codes (project_id, device_code_hash, user_code, expires_at, client_ref)
VALUES (%(p)s, %(hash)s, %(user_code)s, now() + %(ttl)s, %(client)s)"""
PENDING_BY_USER_CODE = """
SELECT device_code_hash FROM cli_device_codes
WHERE project_id = %(p)s AND user_code = %(user_code)s AND status = 'pending'
  AND expires_at > now()
FOR UPDATE"""
APPROVE = """
UPDATE cli_device_codes
SET status = 'approved', approved_project_id = %(project_id)s, approved_org_id = %(org_id)s,
    label = %(label)s
WHERE project_id = %(p)s AND device_code_hash = %(hash)s"""
TAKE = """
SELECT status, approved_project_id, approved_org_id, label, expires_at > now() AS live
FROM cli_device_codes WHERE project_id = %(p)s AND device_code_hash = %(hash)s
FOR UPDATE"""
CONSUME = "DELETE FROM cli_device_codes WHERE project_id = %(p)s AND device_code_hash = %(hash)s"


@dataclass(frozen=True, slots=True)
class DeviceStart:
    device_code: str
    user_code: str
    expires_in: int
    interval: int


@dataclass(frozen=True, slots=True)
class DevicePoll:
    status: str  # pending | approved | expired
    api_key: str | None = None
    org_id: str | None = None
    project_id: str | None = None


async def _one(conn: Connection, query: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """The first row as a mapping (the pool's connections use ``dict_row``)."""
    cur = await conn.execute(query, params)
    return await cur.fetchone()


def _hash(device_code: str) -> str:
    return hashlib.sha256(device_code.encode()).hexdigest()


def normalise_user_code(text: str) -> str:
    """``abcd-efgh``, ``ABCDEFGH`` and ``abcd efgh`` are the same code."""
    code = "".join(ch for ch in text.upper() if ch.isalnum())
    return f"{code[:4]}-{code[4:]}" if len(code) == USER_CODE_LEN else code


def _user_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(USER_CODE_LEN))
    return f"{raw[:4]}-{raw[4:]}"


def client_ref(address: str) -> str:
    """What the table keeps of a client address: a digest, not the address."""
    return hashlib.sha256(f"haki-device:{address}".encode()).hexdigest()[:32]


async def start(db: Database, client: str = "") -> DeviceStart:
    """A new login for the terminal at ``client`` (its ``client_ref``)."""
    device_code = secrets.token_urlsafe(32)
    async with db.transaction() as conn:
        await conn.execute(PURGE, {"p": PARTITION})
        row = await _one(conn, COUNT, {"p": PARTITION, "client": client})
        if row is not None and (row["mine"] >= MAX_PENDING_PER_CLIENT or row["n"] >= MAX_PENDING):
            raise RateLimited(
                "too many logins waiting for approval; retry later",
                headers={"Retry-After": str(POLL_INTERVAL_S * 5)},
            )
        user_code = _user_code()
        await conn.execute(
            INSERT,
            {
                "p": PARTITION,
                "hash": _hash(device_code),
                "user_code": user_code,
                "ttl": EXPIRES_IN,
                "client": client,
            },
        )
    return DeviceStart(device_code, user_code, int(EXPIRES_IN.total_seconds()), POLL_INTERVAL_S)


async def approve(
    db: Database, *, user_code: str, project_id: str, org_id: str, label: str
) -> None:
    """Marks the waiting login approved for ``project_id``; its next poll gets a key."""
    code = normalise_user_code(user_code)
    async with db.transaction() as conn:
        row = await _one(conn, PENDING_BY_USER_CODE, {"p": PARTITION, "user_code": code})
        if row is None:
            raise NotFound(
                "no login is waiting with that code (it may have expired)", field="user_code"
            )
        await conn.execute(
            APPROVE,
            {
                "p": PARTITION,
                "hash": row["device_code_hash"],
                "project_id": project_id,
                "org_id": org_id,
                "label": label,
            },
        )


async def poll(db: Database, device_code: str) -> DevicePoll:
    hashed = _hash(device_code)
    async with db.transaction() as conn:
        row = await _one(conn, TAKE, {"p": PARTITION, "hash": hashed})
        if row is None or not row["live"]:
            if row is not None:
                await conn.execute(CONSUME, {"p": PARTITION, "hash": hashed})
            return DevicePoll("expired")
        if row["status"] != "approved":
            return DevicePoll("pending")
        await conn.execute(CONSUME, {"p": PARTITION, "hash": hashed})
    # The row is gone (committed) before the key exists: a second poll with
    # the same code finds nothing, so one approval yields one key.
    issued = await issue(
        db, org_id=row["approved_org_id"], project_id=row["approved_project_id"], label=row["label"]
    )
    return DevicePoll(
        "approved",
        api_key=issued.secret,
        org_id=row["approved_org_id"],
        project_id=row["approved_project_id"],
    )
