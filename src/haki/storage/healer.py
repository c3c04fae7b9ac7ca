"""The parent of ``haki serve --workers N`` keeps the embedded server alive.

The N processes share one embedded PostgreSQL that none of them started:
each only sees its connections fail. The parent, which started the server,
looks every second whether its postmaster still runs (a read of
``postmaster.pid`` and a process lookup, no connection) and starts it again
when it died; the processes' own watches see the database answer again and
replace their broken connections (``storage.watch``).
"""

from __future__ import annotations

import logging
import threading

from .embedded import EmbeddedServer

log = logging.getLogger(__name__)

CHECK_EVERY_S = 1.0


class EmbeddedHealer:
    """A daemon thread that restarts ``server`` whenever its postmaster is dead."""

    def __init__(self, server: EmbeddedServer, every_s: float = CHECK_EVERY_S) -> None:
        self.server = server
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="haki-embedded-healer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (before the server is stopped on purpose)."""
        self._stop.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                if self.server.restart_if_dead() is not None:
                    log.warning("embedded postgres in %s restarted", self.server.pgdata)
            except Exception as exc:  # the next round tries again
                log.warning("restarting embedded postgres failed (%s); retrying", exc)
