"""Maintenance run after a request: statistics refreshed as the table owner.

Planner statistics (``pg_stats``) sample column values: after a forget in
mode ``delete``, a subject's id or words can sit there (most common values,
histograms) until the next analyze. ``refresh_statistics`` runs that analyze
at once. It runs as the table owner (only the owner may analyze), in a
context of its own: a request bound to a project key may not open an owner's
transaction itself, and the table list is fixed by the caller, never input.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Sequence

from psycopg import sql

from .db import Database

log = logging.getLogger(__name__)


async def _analyze(db: Database, tables: Sequence[str]) -> None:
    statement = sql.SQL("ANALYZE {}").format(sql.SQL(", ").join(map(sql.Identifier, tables)))
    async with db.transaction(system=True) as conn:
        await conn.execute(statement)


async def refresh_statistics(db: Database, tables: Sequence[str]) -> bool:
    """ANALYZE ``tables``; False (logged) if it could not run: it never fails the caller."""
    try:
        await asyncio.create_task(_analyze(db, tables), context=contextvars.Context())
    except Exception as exc:  # statistics refresh is best effort
        log.warning("analyze after forget failed: %s", exc)
        return False
    return True
