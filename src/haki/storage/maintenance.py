"""Maintenance run after a request or a job: statistics refreshed as the table owner.

Planner statistics (``pg_stats``) sample column values: after a forget in
mode ``delete``, a subject's id or words can sit there (most common values,
histograms) until the next analyze. ``refresh_statistics`` runs that analyze
at once.

After a consolidation the statistics can be stale the other way: thousands
of new chunks in a table the planner still believes empty (never analysed:
``reltuples`` -1) or ten times smaller. Autovacuum catches up within
``autovacuum_naptime`` (a minute), and until then a context call reads a
10,000-turn scope exactly instead of through hnsw (the cosine functions of
migration 0111) and plans its statements blind: 33 ms instead of 6 for the cosine leg.
``refresh_stale_statistics`` applies autovacuum's own analyze rule at once,
after the write.

Both run as the table owner (only the owner may analyze), in a context of
their own: a request bound to a project key may not open an owner's
transaction itself, and the table list is fixed by the caller, never input.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Sequence

from psycopg import sql

from .db import Connection, Database

log = logging.getLogger(__name__)

# Tables whose statistics are stale, in name order: never analysed but no
# longer empty (read from the table's size, so it holds at once), or more
# rows changed since the last analyze than autovacuum's rule allows
# (autovacuum_analyze_threshold + autovacuum_analyze_scale_factor x rows; the
# counts reach pg_stat_user_tables within a second or so of each commit).
STALE_TABLES = """
SELECT c.relname::text AS name
FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
WHERE c.oid = ANY(%(tables)s::text[]::regclass[])
  AND (c.reltuples < 0 AND pg_relation_size(c.oid) > 0
       OR coalesce(s.n_mod_since_analyze, 0)
          > current_setting('autovacuum_analyze_threshold')::float8
          + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0))
ORDER BY c.relname"""

# One process analyses at a time; the others skip (the tables are being
# brought up to date already) rather than queue behind its lock.
TRY_ANALYZE_LOCK = "SELECT pg_try_advisory_xact_lock(hashtext('haki/analyze')) AS locked"


async def _run_analyze(conn: Connection, tables: Sequence[str]) -> None:
    statement = sql.SQL("ANALYZE {}").format(sql.SQL(", ").join(map(sql.Identifier, tables)))
    await conn.execute(statement)


async def _analyze(db: Database, tables: Sequence[str]) -> None:
    async with db.transaction(system=True) as conn:
        await _run_analyze(conn, tables)


async def _analyze_stale(db: Database, tables: Sequence[str]) -> list[str]:
    async with db.transaction(system=True) as conn:
        lock = await (await conn.execute(TRY_ANALYZE_LOCK)).fetchone()
        if lock is None or not lock["locked"]:
            return []
        cur = await conn.execute(STALE_TABLES, {"tables": list(tables)})
        stale = [rec["name"] for rec in await cur.fetchall()]
        if stale:
            await _run_analyze(conn, stale)
    return stale


async def refresh_statistics(db: Database, tables: Sequence[str]) -> bool:
    """ANALYZE ``tables``; False (logged) if it could not run: it never fails the caller."""
    try:
        await asyncio.create_task(_analyze(db, tables), context=contextvars.Context())
    except Exception as exc:  # statistics refresh is best effort
        log.warning("analyze after forget failed: %s", exc)
        return False
    return True


async def refresh_stale_statistics(db: Database, tables: Sequence[str]) -> list[str]:
    """ANALYZE those of ``tables`` whose statistics are stale; the ones analysed
    (none if another process holds the analyze lock). Never fails the caller."""
    try:
        stale = await asyncio.create_task(_analyze_stale(db, tables), context=contextvars.Context())
    except Exception as exc:  # statistics refresh is best effort
        log.warning("analyze after consolidation failed: %s", exc)
        return []
    if stale:
        log.info("analysed %s: their statistics were stale", ", ".join(stale))
    return stale
