"""Async connection pool with explicit transactions.

Every unit of work runs inside ``Database.transaction()``: one pooled
connection, one transaction, and — when a project is given — the
transaction-local ``app.project_id`` setting that row-level security reads.
Driver failures that mean "the database is not there" become
``DatabaseUnavailable`` here, at the one boundary with psycopg.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from ..errors import DatabaseUnavailable

log = logging.getLogger(__name__)

Connection = psycopg.AsyncConnection

SET_PROJECT = "SELECT set_config('app.project_id', %s, true)"


async def _configure(conn: psycopg.AsyncConnection) -> None:
    from pgvector.psycopg import register_vector_async

    await register_vector_async(conn)
    conn.row_factory = dict_row  # type: ignore[assignment]
    # Commit the implicit transaction opened by the type lookup, so the
    # pool receives an idle connection.
    await conn.commit()


class Database:
    """A psycopg pool opened in the application's lifespan."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 5.0):
        self.url = url
        self.pool = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            open=False,
            configure=_configure,
            check=AsyncConnectionPool.check_connection,
            reconnect_timeout=0,
            kwargs={"autocommit": False},
        )

    async def open(self) -> None:
        # wait=False: the API starts even if the database is briefly away and
        # answers 503 until it is back.
        await self.pool.open(wait=False)

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self, project_id: str | None = None) -> AsyncIterator[Connection]:
        try:
            async with self.pool.connection() as conn:
                async with conn.transaction():
                    if project_id is not None:
                        await conn.execute(SET_PROJECT, (project_id,))
                    yield conn
        except (PoolTimeout, psycopg.OperationalError) as exc:
            log.warning("database unavailable: %s", exc.__class__.__name__)
            raise DatabaseUnavailable("the database is unavailable; retry later") from exc

    async def ping(self) -> bool:
        try:
            async with self.transaction() as conn:
                await conn.execute("SELECT 1")
            return True
        except DatabaseUnavailable:
            return False
