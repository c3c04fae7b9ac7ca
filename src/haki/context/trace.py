"""Writing and reading ``context_traces``: one row per context call."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from psycopg.types.json import Json, Jsonb

from ..errors import NotFound
from ..ledger import cursor
from ..storage import Connection
from .trace_codec import decode, encode
from .types import Decision, Packet

# A trace is an audit record of a packet already served: the call need not
# wait for its WAL flush. A crash may lose the last few traces (never facts or
# events, which other transactions write); the commit stays atomic.
RELAXED_COMMIT = {"synchronous_commit": "off"}

INSERT_TRACE = """
INSERT INTO context_traces (
    id, project_id, subject_id, query, purpose, recipe, recipe_config, as_of,
    packet_served, decision_columns, token_count, facts_served, duration_ms, timings)
VALUES (
    %(id)s, %(project_id)s, %(subject_id)s, %(query)s, %(purpose)s, %(recipe)s, %(recipe_config)s, %(as_of)s,
    %(packet)s, %(decisions)b, %(token_count)s, %(facts_served)s, %(duration_ms)s, %(timings)s)"""

SELECT_TRACE = """
SELECT id, project_id, subject_id, query, purpose, recipe, recipe_config, as_of, packet,
       packet_served, decisions, decision_columns, token_count, facts_served, duration_ms,
       timings, created_at
FROM context_traces
WHERE id = %(id)s AND project_id = %(project_id)s AND subject_id = %(subject_id)s"""

# The packets served to the given subjects in the last day (at most the last
# 50): a trace written before migration 0175 holds its facts in ``packet``,
# read out here; a later one holds its whole packet as JSON text, read in
# the server (orjson reads 50 packets in less time than PostgreSQL walks
# them as ``json``).
RECENTLY_SERVED = """
SELECT packet_served, CASE WHEN packet_served IS NULL THEN packet->'facts' END AS facts
FROM context_traces
WHERE project_id = %(project_id)s AND subject_id = ANY(%(subject_ids)s)
  AND created_at > now() - interval '1 day'
ORDER BY created_at DESC, id DESC
LIMIT 50"""


@dataclass(frozen=True, slots=True)
class TraceRecord:
    id: UUID
    project_id: str
    subject_id: str
    query: str
    purpose: str | None
    as_of: datetime | None
    recipe: str
    recipe_config: bytes  # ``config.described``: the recipe as JSON
    packet: Packet
    decisions: tuple[Decision, ...]
    token_count: int


# Scores may be numpy scalars; orjson writes them as plain numbers.
JSON_OPTIONS = orjson.OPT_SERIALIZE_NUMPY


def _as_is(data: bytes) -> bytes:
    return data


def prebuilt_json(data: bytes) -> Jsonb:
    """A JSON document already serialised, handed to PostgreSQL as it is."""
    return Jsonb(data, dumps=_as_is)


def packet_json(packet: Packet) -> bytes:
    """The packet as JSON, built once for both the trace and the response."""
    return orjson.dumps(packet.to_json(), option=JSON_OPTIONS)


def trace_params(t: TraceRecord, packet: bytes) -> dict[str, Any]:
    """Insert parameters; ``packet`` is ``packet_json(t.packet)``."""
    return {
        "id": t.id,
        "project_id": t.project_id,
        "subject_id": t.subject_id,
        "query": t.query,
        "purpose": t.purpose,
        "recipe": t.recipe,
        "recipe_config": prebuilt_json(t.recipe_config),
        "as_of": t.as_of,
        # Built here rather than lazily at execute time, so the cost is
        # measured as part of the trace stage.
        "packet": Json(packet, dumps=_as_is),
        "decisions": encode(t.decisions),
        "token_count": t.token_count,
        "facts_served": len(t.packet.facts),
    }


async def insert_trace(
    conn: Connection, params: dict[str, Any], timings: dict[str, float], duration_ms: float
) -> None:
    await conn.execute(
        INSERT_TRACE, params | {"timings": Jsonb(dict(timings)), "duration_ms": duration_ms}
    )


async def read_trace(
    conn: Connection, trace_id: UUID, project_id: str, subject_id: str
) -> dict[str, Any]:
    """The stored trace; a trace of another scope answers exactly like a missing one."""
    cur = await conn.execute(
        SELECT_TRACE, {"id": trace_id, "project_id": project_id, "subject_id": subject_id}
    )
    row = await cur.fetchone()
    if row is None:
        raise NotFound("trace not found")
    return stored_trace(row)


def stored_trace(row: dict[str, Any]) -> dict[str, Any]:
    """A ``SELECT_TRACE`` row with ``packet`` and ``decisions`` in either stored form."""
    out = dict(row)
    packet, columns = out.pop("packet_served"), out.pop("decision_columns")
    if packet is not None:
        out["packet"] = packet
    if columns is not None:
        out["decisions"] = decode(columns)
    elif out["decisions"] is None:
        out["decisions"] = []
    return out


async def recently_served(
    conn: Connection, project_id: str, subject_ids: list[str]
) -> list[tuple[str, Any]]:
    """(predicate, value) of the facts served to these subjects in the last day,
    newest packet first."""
    cur = await conn.execute(
        RECENTLY_SERVED, {"project_id": project_id, "subject_ids": subject_ids}
    )
    out: list[tuple[str, Any]] = []
    for row in await cur.fetchall():
        packet = row["packet_served"]
        facts = packet.get("facts") if isinstance(packet, dict) else row["facts"]
        if isinstance(facts, list):
            out.extend(
                (f["predicate"], f.get("value"))
                for f in facts
                if isinstance(f, dict) and "predicate" in f
            )
    return out


# Newest first; ``subject_id`` is optional (NULL: the whole project).
LIST_TRACES = """
SELECT id, subject_id, query, purpose, as_of, token_count, facts_served, duration_ms, created_at
FROM context_traces
WHERE project_id = %(project_id)s
  AND (%(subject_id)s::text IS NULL OR subject_id = %(subject_id)s::text)
  AND (%(before_at)s::timestamptz IS NULL
       OR (created_at, id) < (%(before_at)s::timestamptz, %(before_id)s::uuid))
ORDER BY created_at DESC, id DESC
LIMIT %(limit)s"""

_TRACES_TAG = "traces"


async def list_traces(
    conn: Connection,
    *,
    project_id: str,
    subject_id: str | None,
    limit: int,
    after: str | None = None,
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of recent context calls (summaries) and the cursor of the next one."""
    before_at, before_id = cursor.decode(_TRACES_TAG, after, 2) if after else (None, None)
    params = {
        "project_id": project_id,
        "subject_id": subject_id,
        "before_at": before_at,
        "before_id": before_id,
        "limit": limit + 1,
    }
    cur = await conn.execute(LIST_TRACES, params)
    rows = await cur.fetchall()
    if len(rows) <= limit:
        return rows, None
    last = rows[limit - 1]
    return rows[:limit], cursor.encode(_TRACES_TAG, last["created_at"].isoformat(), last["id"])
