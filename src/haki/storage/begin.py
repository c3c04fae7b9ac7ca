"""A transaction whose ``BEGIN`` carries its settings: one round trip, not two.

psycopg sends ``BEGIN`` alone, then ``local_settings``' statement: two round
trips before a transaction's first statement. A context call opens three
transactions (facts, episodes, its trace), and on a loaded machine each
round trip is a wake-up of the backend and of the server that may wait for
a core. Here the connection is switched to autocommit for the transaction's
length and ``BEGIN; SELECT set_config(...)`` goes as one simple-protocol
message, its values bound client-side as literals (``psycopg.sql.Literal``,
quoted as libpq quotes). The transaction is then this module's to end:
committed on a clean exit, rolled back on any exception, and the connection
handed back in the pool's mode (autocommit off). A connection that cannot be
handed back idle (broken mid-transaction) is closed, so the pool replaces it
instead of lending it in autocommit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from functools import lru_cache

import psycopg
from psycopg import sql
from psycopg.pq import TransactionStatus


def begin_statement(
    settings: Mapping[str, str], project_id: str | None, conn: psycopg.AsyncConnection | None = None
) -> bytes:
    """``BEGIN`` and ``db.local_settings``' ``set_config`` calls, in its order
    (``app.project_id`` first, then the settings by name), as one message;
    ``conn`` quotes the project as its connection would (None: standard
    strings)."""
    calls = _settings_calls(tuple(sorted(settings.items())))
    if project_id is not None:
        project = sql.Literal(project_id).as_bytes(conn)
        calls = (
            b"set_config('app.project_id', "
            + project
            + b", true)"
            + (b", " + calls if calls else b"")
        )
    return b"BEGIN; SELECT " + calls if calls else b"BEGIN"


@lru_cache(maxsize=64)
def _settings_calls(items: tuple[tuple[str, str], ...]) -> bytes:
    """The ``set_config`` calls of a transaction's settings, quoted once: the
    settings of a context read are the same on every call."""
    calls = [
        sql.SQL("set_config({}, {}, true)").format(sql.Literal(name), sql.Literal(value))
        for name, value in items
    ]
    return sql.SQL(", ").join(calls).as_bytes(None)


@asynccontextmanager
async def begun(
    conn: psycopg.AsyncConnection, settings: Mapping[str, str], project_id: str | None
) -> AsyncIterator[psycopg.AsyncConnection]:
    """One transaction on ``conn`` (idle, autocommit off), begun with its settings."""
    await conn.set_autocommit(True)
    try:
        # Never prepared: a prepared statement holds one command, this is two.
        await conn.execute(begin_statement(settings, project_id, conn), prepare=False)
        try:
            yield conn
        except BaseException:
            await conn.rollback()
            raise
        await conn.commit()
    finally:
        if conn.info.transaction_status == TransactionStatus.IDLE:
            await conn.set_autocommit(False)
        else:
            await conn.close()
