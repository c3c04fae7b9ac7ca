"""Async connection pool with explicit transactions.

Every unit of work runs inside ``Database.transaction()``: one pooled
connection, one transaction, and — when a project is given — the
transaction-local ``app.project_id`` setting that row-level security reads.

Every pooled connection runs as the non-owner role ``haki_app`` (migration
0040), so tenant tables show a transaction only the rows of its project and
reject writes to any other. ``transaction(system=True)`` switches back to
the owner for that one transaction; it is for cross-project maintenance
only (claiming jobs, key bootstrap), never for tenant data of a request.

RLS trusts the project a transaction names. So that a route which forgets
its scope check still cannot name another tenant, the API binds each
request to its key's project (``bind_project``), and ``transaction()``
refuses any other project, and any system transaction, while bound.
Driver failures that mean "the database is not there" become
``DatabaseUnavailable`` here, at the one boundary with psycopg.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import random
import re
import socket
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import AbstractContextManager, asynccontextmanager, contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

import orjson
import psycopg
import psycopg.errors
from psycopg import sql
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from ..errors import (
    DatabaseOverloaded,
    DatabaseUnavailable,
    EmbeddingDimensionMismatch,
    ForbiddenScope,
    HakiError,
    InsufficientStorage,
)
from ..observability import tracing
from ..observability.metrics import DB_POOL_IN_USE, DB_POOL_WAITING
from ..text.nesting import MAX_JSON_DEPTH, flatten_deep, value_too_deep
from .begin import begun
from .watch import PING_TIMEOUT_S, DatabaseWatch

log = logging.getLogger(__name__)

# Every pooled connection returns rows as dicts (``row_factory=dict_row``).
Connection = psycopg.AsyncConnection[DictRow]

APP_ROLE = "haki_app"
# Attempts of a transaction the database rolled back for a deadlock or a
# serialisation failure (Database.retry_conflicts).
CONFLICT_ATTEMPTS = 3
# What the database raises when it rolls a transaction back for a deadlock or
# a serialisation failure (SQLSTATE class 40; psycopg gives each its own class).
CONFLICTS: tuple[type[psycopg.Error], ...] = (
    psycopg.errors.TransactionRollback,
    psycopg.errors.DeadlockDetected,
    psycopg.errors.SerializationFailure,
)

T = TypeVar("T")
SPACE_SETTING = "haki.embedding_space"


def local_settings(
    settings: Mapping[str, str], project_id: str | None = None
) -> tuple[str, list[str]]:
    """One statement that sets ``settings`` (and ``app.project_id``, if given)
    for the current transaction only, and its parameters, in name order."""
    names = sorted(settings)
    calls = ["set_config(%s, %s, true)"] * len(names)
    params = [v for name in names for v in (name, settings[name])]
    if project_id is not None:
        calls.insert(0, "set_config('app.project_id', %s, true)")
        params.insert(0, project_id)
    return "SELECT " + ", ".join(calls), params


def process_name(host: str | None = None, pid: int | None = None) -> str:
    """The ``application_name`` of a process's connections: ``haki`` + a key of
    its host + its pid.

    PostgreSQL lists a connection's name in ``pg_stat_activity`` for as long
    as it is open, and a killed process's connections close with it: a
    worker on another host tells a live claimer from a dead one by looking
    for its name there (``jobs.release_dead_claims``). The host is hashed so
    that the name fits the 63 bytes PostgreSQL keeps.
    """
    host = socket.gethostname() if host is None else host
    key = hashlib.blake2b(host.encode(), digest_size=6).hexdigest()
    return f"haki {key}:{os.getpid() if pid is None else pid}"


SET_APP_ROLE = "SET ROLE haki_app"
# Timestamps come back in UTC whatever the server's zone: psycopg decodes a
# timestamptz in C only when the session's zone is named exactly "UTC" (an
# "Etc/UTC" or "Europe/Paris" session costs a Python call per value, and a
# context call reads ~600 of them); day boundaries in SQL are UTC days.
SET_UTC = "SET TIME ZONE 'UTC'"
# Back to the session (login) user, which owns the tables and so bypasses
# row-level security; LOCAL ends it with the transaction, even on rollback.
SET_OWNER_ROLE = "SET LOCAL ROLE NONE"

# The one project the current request may touch; None: unrestricted (dev
# mode, the admin key, background work).
_bound_project: ContextVar[str | None] = ContextVar("haki_bound_project", default=None)


@contextmanager
def _set(var: ContextVar[Any], value: Any) -> Iterator[None]:
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)


def bind_project(project_id: str | None) -> AbstractContextManager[None]:
    """Confine every transaction opened in this context to ``project_id``."""
    return _set(_bound_project, project_id)


# The embedding space of the project the current work is for (its active
# space, storage.spaces.project_space): transactions opened in this context
# stamp vectors with it and compare within it. None: the process's space.
_work_space: ContextVar[int | None] = ContextVar("haki_work_space", default=None)


def in_space(space: int | None) -> AbstractContextManager[None]:
    """Open every transaction in this context in embedding space ``space``."""
    return _set(_work_space, space)


# Migration 0170's guard: a vector of another size than its space's.
DIMENSION_MISMATCH = "HK001"


def _check_binding(project_id: str | None, system: bool) -> None:
    bound = _bound_project.get()
    if bound is None:
        return
    if system or (project_id is not None and project_id != bound):
        raise ForbiddenScope("this key may not access that project")


# An integer of 19 digits or more may not fit in 64 bits, where orjson reads
# it as a float; the standard library keeps it exact.
_LONG_NUMBER = re.compile(rb"\d{19}")


def json_loads(data: str | bytes) -> Any:
    """Read a JSON document from the database: with orjson (a third of the
    standard library's time on a fact's value, ``bench/context_micro.py``;
    a context call decodes ~100), unless it may hold a number orjson would
    not read exactly.

    A document nested deeper than ``MAX_JSON_DEPTH`` (written before the API
    refused such bodies) has its deep part read as JSON text, a string:
    answered as a structure it would break the serialization of every read
    of its subject (facts, timeline, context).
    """
    raw = data.encode() if isinstance(data, str) else data
    value = _decode(raw)
    if raw.count(b"[") + raw.count(b"{") <= MAX_JSON_DEPTH:
        return value
    if value is _TOO_DEEP:
        log.warning("a stored JSON document nests too deep to parse: read as text")
        return raw.decode("utf-8", "replace")
    if value_too_deep(value):
        log.warning("a stored JSON document nests deeper than %d levels", MAX_JSON_DEPTH)
        try:
            return flatten_deep(value)
        except RecursionError:
            return raw.decode("utf-8", "replace")
    return value


_TOO_DEEP = object()


def _decode(raw: bytes) -> Any:
    if _LONG_NUMBER.search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass  # e.g. 1e400, which the standard library reads as infinity
    try:
        return json.loads(raw)
    except RecursionError:
        return _TOO_DEEP


# Statement text kept on a span: enough to recognise the statement.
SPAN_QUERY_CHARS = 2048


class TracedCursor(psycopg.AsyncCursor[Any]):
    """A cursor that makes a span of each statement (``conn.execute`` goes
    through one too); pooled connections use it only while tracing is on."""

    async def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        with tracing.span(*self._described(query)):
            return await super().execute(query, *args, **kwargs)

    async def executemany(self, query: Any, *args: Any, **kwargs: Any) -> None:
        with tracing.span(*self._described(query)):
            await super().executemany(query, *args, **kwargs)

    def _described(self, query: Any) -> tuple[str, dict[str, str]]:
        if isinstance(query, sql.Composable):
            text = query.as_string(self.connection)
        elif isinstance(query, bytes | bytearray | memoryview):
            text = bytes(query).decode("utf-8", "replace")
        else:
            text = str(query)
        words = text.split(None, 1)
        operation = words[0].upper() if words else "SQL"
        return operation, {
            "db.system.name": "postgresql",
            "db.operation.name": operation,
            "db.query.text": text.strip()[:SPAN_QUERY_CHARS],
        }


@contextmanager
def _lending() -> Iterator[Callable[[], None]]:
    """The pool gauges around one unit of work: waiting for a connection, then
    holding it (``acquired``), until it is given back."""
    held = False
    DB_POOL_WAITING.inc()

    def acquired() -> None:
        nonlocal held
        DB_POOL_WAITING.dec()
        DB_POOL_IN_USE.inc()
        held = True

    try:
        yield acquired
    finally:
        (DB_POOL_IN_USE if held else DB_POOL_WAITING).dec()


async def _configure(conn: psycopg.AsyncConnection) -> None:
    from pgvector.psycopg import register_vector_async

    await register_vector_async(conn)
    set_json_loads(json_loads, conn)
    conn.row_factory = dict_row  # type: ignore[assignment]
    if tracing.enabled():
        conn.cursor_factory = TracedCursor
    await conn.execute(SET_APP_ROLE)
    await conn.execute(SET_UTC)
    # Commit the implicit transaction opened by the type lookup, so the
    # pool receives an idle connection.
    await conn.commit()


# A connection handed back less than this long ago is lent again without a
# test query: it was working a moment ago, and a context call borrows three
# connections. One idle for longer is tested first, so a pool that sat
# through a database restart does not hand out dead connections.
CHECK_AFTER_IDLE_S = 2.0


class _IdleCheck:
    """The pool's ``check`` and ``reset`` callbacks: test only idle connections."""

    def __init__(self) -> None:
        self._returned: weakref.WeakKeyDictionary[psycopg.AsyncConnection, float] = (
            weakref.WeakKeyDictionary()
        )

    async def check(self, conn: psycopg.AsyncConnection) -> None:
        returned = self._returned.get(conn)
        if returned is None or time.monotonic() - returned > CHECK_AFTER_IDLE_S:
            await AsyncConnectionPool.check_connection(conn)

    async def reset(self, conn: psycopg.AsyncConnection) -> None:
        self._returned[conn] = time.monotonic()


# SQLSTATE class 53, insufficient resources, and its disk_full code.
# (psycopg does not make DiskFull a subclass of InsufficientResources.)
INSUFFICIENT_RESOURCES = "53"
DISK_FULL = "53100"


def short_of_resources(exc: psycopg.Error) -> bool:
    """Whether the server refused the work for want of disk, memory or connections."""
    return (exc.sqlstate or "").startswith(INSUFFICIENT_RESOURCES)


class Database:
    """A psycopg pool opened in the application's lifespan."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 5.0):
        self.url = url
        self._sizes = (min_size, max_size, timeout)
        self.pool = self._make_pool(url)
        # Set by the app (``storage.watch``): fail fast while the database is down.
        self.watch: DatabaseWatch | None = None
        # The id of the embedding space this process embeds in
        # (``storage.spaces.register_space``), carried by every transaction in
        # ``haki.embedding_space``: rows are stamped with it and context
        # reads compare only within it (migration 0120). None: space 1.
        self.embedding_space: int | None = None

    def _make_pool(self, url: str) -> AsyncConnectionPool:
        min_size, max_size, timeout = self._sizes
        idle = _IdleCheck()
        return AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            open=False,
            configure=_configure,
            check=idle.check,
            reset=idle.reset,
            reconnect_timeout=0,
            kwargs={"autocommit": False, "application_name": process_name()},
        )

    async def open(self) -> None:
        # wait=False: the API starts even if the database is briefly away and
        # answers 503 until it is back.
        await self.pool.open(wait=False)

    async def close(self) -> None:
        await self.pool.close()

    async def reconnect(self, url: str) -> None:
        """Point at a server that came back elsewhere (an embedded restart on a new socket)."""
        old, self.url = self.pool, url
        self.pool = self._make_pool(url)
        await self.pool.open(wait=False)
        await old.close(timeout=1.0)

    async def refresh(self) -> None:
        """Replace the connections a database restart left broken."""
        await self.pool.check()

    def unavailable(self) -> DatabaseUnavailable:
        watch = self.watch
        if watch is None:
            return DatabaseUnavailable(
                "the database is unavailable; retry later", headers={"Retry-After": "2"}
            )
        return DatabaseUnavailable(
            watch.message(), headers={"Retry-After": str(watch.retry_after_s())}
        )

    def short_of(self, exc: psycopg.Error) -> HakiError:
        """The typed error for a server short of a resource; the watch remembers
        a full disk so that ``/health`` says so."""
        log.warning("database short of resources: SQLSTATE %s %s", exc.sqlstate, exc)
        if exc.sqlstate == DISK_FULL:
            if self.watch is not None:
                self.watch.disk_full(str(exc).strip())
            return InsufficientStorage(
                "the database's disk is full: nothing was written; retry once space is freed"
            )
        return DatabaseOverloaded(
            f"the database lacks resources for this work (SQLSTATE {exc.sqlstate}); retry later",
            headers={"Retry-After": "5"},
        )

    @asynccontextmanager
    async def transaction(
        self,
        project_id: str | None = None,
        *,
        system: bool = False,
        local: Mapping[str, str] | None = None,
        wait_s: float | None = None,
        one_trip: bool = False,
    ) -> AsyncIterator[Connection]:
        """One transaction on one pooled connection.

        ``project_id`` opens tenant tables to that project's rows only.
        ``system=True`` runs as the table owner, across every project.
        ``local``: server settings for this transaction alone, set in the
        same statement as the project (one round trip less per setting
        statement, on every context call). ``wait_s``: how long to wait for a
        pooled connection, if not the pool's timeout. ``one_trip``: ``BEGIN``
        and the settings in one message (``storage.begin``; not with ``system``).
        """
        if system and (project_id is not None or one_trip):
            raise ValueError("a system transaction acts for no project, in two trips")
        _check_binding(project_id, system)
        if self.watch is not None and not await self.watch.confirm_up():
            raise self.unavailable()
        space = _work_space.get() or self.embedding_space
        if space is not None:
            local = {**(local or {}), SPACE_SETTING: str(space)}
        with _lending() as acquired:
            try:
                async with self.pool.connection(timeout=wait_s) as conn:
                    acquired()
                    if one_trip:
                        async with begun(conn, local or {}, project_id):
                            yield cast(Connection, conn)
                        return
                    async with conn.transaction():
                        if system:
                            await conn.execute(SET_OWNER_ROLE)
                        if project_id is not None or local:
                            await conn.execute(*local_settings(local or {}, project_id))
                        # ``_configure`` gave every pooled connection dict rows.
                        yield cast(Connection, conn)
            except CONFLICTS:
                # A deadlock or serialisation failure: the database is fine, the
                # transaction lost a race (callers retry: ``retry_conflicts``).
                raise
            except psycopg.errors.ProgramLimitExceeded:
                # A statement past one of PostgreSQL's limits (an array, a query
                # too complex): the database is up, the request asked too much
                # (``api.errors`` answers 413).
                raise
            except (PoolTimeout, psycopg.OperationalError) as exc:
                if isinstance(exc, psycopg.Error) and exc.sqlstate == DIMENSION_MISMATCH:
                    # Migration 0170's guard (psycopg gives an unknown class
                    # this type): the embedder in use is not its space's model.
                    raise EmbeddingDimensionMismatch(exc.diag.message_primary or str(exc)) from exc
                if isinstance(exc, psycopg.Error) and short_of_resources(exc):
                    # The server answers but cannot take this work (SQLSTATE
                    # 53xxx): not an outage the watch can heal by reconnecting.
                    raise self.short_of(exc) from exc
                log.warning("database unavailable: %s", exc.__class__.__name__)
                if self.watch is not None:
                    self.watch.suspect()
                raise self.unavailable() from exc

    async def retry_conflicts(
        self, work: Callable[[], Awaitable[T]], *, attempts: int = CONFLICT_ATTEMPTS
    ) -> T:
        """Run ``work`` (which opens its own transaction) again when the database
        rolls it back for a deadlock or a serialisation failure; the last
        failure propagates (``409 concurrent_update`` at the API)."""
        for attempt in range(1, attempts + 1):
            try:
                return await work()
            except CONFLICTS as exc:
                if attempt == attempts:
                    raise
                log.info("retrying after %s (attempt %d)", exc.__class__.__name__, attempt)
                await asyncio.sleep(random.uniform(0.02, 0.1) * 2**attempt)
        raise AssertionError("unreachable")

    async def ping(self) -> bool:
        """True when a pooled transaction works; false at once while the watch
        knows it is down, and within ``PING_TIMEOUT_S`` when the pool cannot
        connect (``/health`` must answer promptly, not after the pool's timeout)."""
        try:
            async with self.transaction(wait_s=PING_TIMEOUT_S) as conn:
                await conn.execute("SELECT 1")
            return True
        except DatabaseUnavailable:
            return False
