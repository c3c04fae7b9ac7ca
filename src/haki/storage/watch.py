"""The database watch: knows whether PostgreSQL answers, and brings it back.

A failed transaction makes the watch suspicious; it then pings on a
connection of its own (the pool may be busy waiting for connections that
will never come). While the ping fails the database is *down*: every
transaction fails at once with ``503 database_unavailable`` and a
``Retry-After``, instead of each waiting for the pool's timeout. The embedded
server is restarted when its postmaster is dead (it does not come back by
itself); an external server is pinged every second until it answers. When
the ping succeeds the pool's broken connections are replaced and requests
flow again. ``/health`` and the log say which of these is happening.

A full disk is another matter: the server answers, reads work, and every
write that needs space fails (SQLSTATE 53100). Nothing here can free space,
so the watch only remembers when it was last seen: ``/health`` reports the
storage as ``full`` until ``DISK_FULL_HOLD_S`` pass without another such
failure, and writes answer ``507 insufficient_storage`` meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Literal

import psycopg

log = logging.getLogger(__name__)

State = Literal["ok", "unavailable", "restarting"]

PING_TIMEOUT_S = 2
CHECK_EVERY_S = 5.0  # while up: a quiet check, so /health knows before a request fails
RETRY_EVERY_S = 1.0  # while down
# How long /health keeps saying "storage full" after the last write that
# failed for want of space: a write that needs no new space may succeed
# meanwhile, so one success does not prove the disk has room again.
DISK_FULL_HOLD_S = 60.0


class DatabaseWatch:
    """Shared state between the pool's users and the loop that heals it.

    ``restart`` (embedded only) starts the server again if it is dead and
    returns its URL, or returns None when the server was alive; it runs in
    a thread. ``reconnect`` points the pool at a new URL.
    """

    def __init__(
        self,
        url: str,
        *,
        restart: Callable[[], str | None] | None = None,
        what: str = "the database",
        restarted_elsewhere: bool = False,
    ) -> None:
        self.url = url
        self.restart = restart
        # An embedded server another process restarts (the parent of
        # ``serve --workers``): this one only waits for it.
        self.restarted_elsewhere = restarted_elsewhere
        self.what = what
        self.state: State = "ok"
        self.detail = "answering"
        self.since = time.monotonic()
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._pings = 0
        # A transaction failed as if the database were gone, and no ping has
        # answered since: requests ping first instead of waiting on the pool.
        self._suspected = False
        self.on_url_change: Callable[[str], object] | None = None
        self.on_recovery: Callable[[], object] | None = None
        self.disk_full_hold_s = DISK_FULL_HOLD_S
        self._disk_full: tuple[float, str] | None = None  # (monotonic time, server message)

    @property
    def down(self) -> bool:
        return self.state != "ok"

    def retry_after_s(self) -> int:
        return 1 if self.state == "restarting" else 2

    def message(self) -> str:
        if self.state == "restarting":
            return "the embedded database stopped and is being restarted; retry in a moment"
        return "the database is unavailable; retry later"

    def disk_full(self, detail: str) -> None:
        """A write failed because the database's disk is full."""
        if self.storage_full() is None:
            log.error("the database's disk is full: writes fail until space is freed (%s)", detail)
        self._disk_full = (time.monotonic(), detail)

    def storage_full(self) -> str | None:
        """What the server said when a write last failed for want of space, if
        that was less than ``disk_full_hold_s`` ago."""
        if self._disk_full is None:
            return None
        seen, detail = self._disk_full
        if time.monotonic() - seen > self.disk_full_hold_s:
            self._disk_full = None
            return None
        return detail

    def suspect(self) -> None:
        """A transaction failed as if the database were gone: check now, and
        until a ping answers, make requests ping before they take a pooled
        connection (``confirm_up``). Without that, a request arriving before
        the check has run waits on a pool that cannot connect, up to its
        timeout, instead of answering 503 at once."""
        self._suspected = True
        self._wake.set()

    def _set(self, state: State, detail: str) -> None:
        if state != self.state:
            self.since = time.monotonic()
        self.state, self.detail = state, detail

    async def ping(self) -> bool:
        try:
            conn = await psycopg.AsyncConnection.connect(
                self.url, connect_timeout=PING_TIMEOUT_S, autocommit=True
            )
        except (psycopg.Error, OSError):
            return False
        try:
            async with conn:
                await conn.execute("SELECT 1")
            return True
        except (psycopg.Error, OSError):
            return False

    async def confirm_up(self) -> bool:
        """While down or suspected: a fresh ping, so a request right after the
        database returns is served, and one right after it went is refused at
        once. Concurrent callers share one ping: whoever waited for the lock
        while another pinged takes that answer."""
        if not self.down and not self._suspected:
            return True
        seen = self._pings
        async with self._lock:
            if (self.down or self._suspected) and self._pings == seen:
                if await self.ping():
                    self._suspected = False
                    if self.down:
                        await self._recovered()
                else:
                    self._mark_unavailable()
                self._pings += 1
        return not self.down

    def _mark_unavailable(self) -> None:
        if not self.down:
            log.warning("%s does not answer; requests get 503 until it is back", self.what)
            self._set("unavailable", "not answering")

    async def _recovered(self) -> None:
        log.warning("%s is back after %.1f s; serving again", self.what, self.down_for())
        self._suspected = False
        self._set("ok", "answering")
        if self.on_recovery is not None:
            await _maybe_await(self.on_recovery())

    def down_for(self) -> float:
        return time.monotonic() - self.since if self.down else 0.0

    async def check(self) -> None:
        """One round: ping; when down, restart (embedded) or wait (external)."""
        if await self.ping():
            self._suspected = False
            if self.down:
                await self._recovered()
            return
        self._mark_unavailable()
        if self.restart is None and self.restarted_elsewhere:
            self._set("restarting", "the embedded server stopped; the serving parent restarts it")
            return
        if self.restart is None:
            self.detail = "not answering; waiting for it to come back"
            return
        self._set("restarting", "the embedded server stopped; restarting it")
        try:
            url = await asyncio.to_thread(self.restart)
        except Exception as exc:  # the next round tries again
            log.warning("restarting %s failed (%s); retrying", self.what, exc)
            return
        if url is None:
            self._set("unavailable", "the server process runs but does not answer yet")
            return
        log.warning("%s restarted", self.what)
        if url != self.url:
            self.url = url
            if self.on_url_change is not None:
                await _maybe_await(self.on_url_change(url))
        if await self.ping():
            await self._recovered()

    async def run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._wake.wait(), RETRY_EVERY_S if self.down else CHECK_EVERY_S
                )
            self._wake.clear()
            try:
                await self.check()
            except Exception:  # the watch outlives any one failed round
                log.exception("database check failed")


async def _maybe_await(value: object) -> None:
    if asyncio.iscoroutine(value):
        await value
