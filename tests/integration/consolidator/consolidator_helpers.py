"""Writing events and jobs straight into the database, as capture would."""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import psycopg
from psycopg.types.json import Jsonb

from haki import jobs
from haki.storage import Database

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

INSERT_EVENT = """
INSERT INTO events (org_id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key,
                    origin_trust, actor_type)
VALUES ('default', %(project_id)s, %(subject_id)s, %(kind)s, %(occurred_at)s, %(payload)s, %(hash)s,
        %(key)s, %(origin_trust)s, %(actor_type)s)
RETURNING id"""


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


async def add_events(
    db: Database,
    payloads: list[dict[str, Any]],
    *,
    project_id: str = "p1",
    subject_id: str = "u1",
    start: float = 0,
    origin_trust: str = "trusted",
    actor_type: str | None = None,
    kind: str = "conversation.message",
    enqueue: bool = True,
) -> tuple[list[uuid.UUID], uuid.UUID | None]:
    """Insert events one minute apart (and one job for them, as capture does)."""
    ids: list[uuid.UUID] = []
    async with db.transaction(project_id=project_id) as conn:
        for i, payload in enumerate(payloads):
            digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
            cur = await conn.execute(
                INSERT_EVENT,
                {
                    "project_id": project_id,
                    "subject_id": subject_id,
                    "kind": kind,
                    "occurred_at": at(start + i),
                    "payload": Jsonb(payload),
                    "hash": f"sha256:{digest}",
                    "key": uuid.uuid4().hex,
                    "origin_trust": origin_trust,
                    "actor_type": actor_type,
                },
            )
            row = await cur.fetchone()
            ids.append(row["id"])
        job_id = None
        if enqueue:
            job_id = await jobs.enqueue(
                conn, project_id=project_id, subject_id=subject_id, event_ids=ids
            )
    return ids, job_id


def fake(predicate: str, value: Any, **extra: Any) -> dict[str, Any]:
    """A payload whose fact the ``fake`` extractor reads back."""
    return {
        "text": f"{predicate} is {value}",
        "mock_facts": [{"predicate": predicate, "value": value, **extra}],
    }


def as_url(conninfo: str) -> str:
    """Settings take a postgresql:// URL; the fixtures hand out key=value conninfo strings."""
    if conninfo.startswith(("postgresql://", "postgres://")):
        return conninfo
    info = psycopg.conninfo.conninfo_to_dict(conninfo)
    auth = quote(str(info.get("user", "")), safe="")
    if info.get("password"):
        auth += ":" + quote(str(info["password"]), safe="")
    host = str(info.get("host", "localhost"))
    query = f"?host={quote(host, safe='')}" if host.startswith("/") else ""
    netloc = f"{auth}@" if auth else ""
    netloc += "" if host.startswith("/") else f"{host}:{info.get('port', 5432)}"
    return f"postgresql://{netloc}/{info['dbname']}{query}"
