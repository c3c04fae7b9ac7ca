"""Project-level usage figures for ``GET /v1/stats/overview``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..storage import Connection

OVERVIEW = """
SELECT
    (SELECT count(*) FROM facts
      WHERE project_id = %(project_id)s AND status = 'active') AS active_facts,
    (SELECT count(*) FROM events
      WHERE project_id = %(project_id)s AND recorded_at > now() - interval '7 days') AS events_this_week,
    t.recall_count, t.recall_p50_ms, t.recall_p99_ms, t.injection_rate, t.context_tokens_served
FROM (
    SELECT count(*) AS recall_count,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS recall_p50_ms,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY duration_ms) AS recall_p99_ms,
           avg((facts_served > 0)::int)::float8 AS injection_rate,
           coalesce(sum(token_count), 0) AS context_tokens_served
    FROM context_traces
    WHERE project_id = %(project_id)s
) t"""


# The last 14 days (today included), in the database session's time zone.
DAILY = """
SELECT d::date AS day,
    (SELECT count(*) FROM events
      WHERE project_id = %(project_id)s
        AND recorded_at >= d AND recorded_at < d + interval '1 day') AS events,
    (SELECT count(*) FROM context_traces
      WHERE project_id = %(project_id)s
        AND created_at >= d AND created_at < d + interval '1 day') AS context_calls
FROM generate_series(date_trunc('day', now()) - interval '13 days', date_trunc('day', now()),
                     interval '1 day') AS d
ORDER BY d"""


@dataclass(frozen=True, slots=True)
class DayCount:
    day: date
    events: int
    context_calls: int


@dataclass(frozen=True, slots=True)
class Overview:
    active_facts: int
    events_this_week: int
    recall_count: int
    recall_p50_ms: float | None  # None before the first context call
    recall_p99_ms: float | None
    injection_rate: float | None  # share of context calls serving at least one fact
    context_tokens_served: int


async def overview(conn: Connection, project_id: str) -> Overview:
    cur = await conn.execute(OVERVIEW, {"project_id": project_id})
    row = await cur.fetchone()
    assert row is not None
    return Overview(**{k: row[k] for k in Overview.__dataclass_fields__})


async def daily(conn: Connection, project_id: str) -> list[DayCount]:
    """Events recorded and context calls answered per day, over the last 14 days."""
    cur = await conn.execute(DAILY, {"project_id": project_id})
    return [DayCount(**row) for row in await cur.fetchall()]
