"""Resolve where the database is, start the embedded one if needed, migrate it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..config import Settings
from .embedded import EmbeddedServer, start_embedded
from .migrate import upgrade
from .watch import DatabaseWatch

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PreparedDatabase:
    url: str
    embedded: EmbeddedServer | None

    def stop(self) -> None:
        if self.embedded is not None:
            self.embedded.stop()

    def watch(self) -> DatabaseWatch:
        """The watch for this database: it restarts an embedded server, waits for an external one."""
        if self.embedded is not None:
            return DatabaseWatch(
                self.url,
                restart=self.embedded.restart_if_dead,
                what=f"the embedded database ({self.embedded.pgdata})",
            )
        return DatabaseWatch(self.url, what="the database")


def prepare_database(settings: Settings, *, migrate: bool = True) -> PreparedDatabase:
    embedded = None
    if settings.database_url is None:
        embedded = start_embedded(settings.data_dir)
        url = embedded.admin_url
    else:
        url = settings.database_url
    if migrate:
        applied = upgrade(url)
        if applied:
            log.info(
                "applied migrations: %s", ", ".join(f"{m.version:04d}_{m.name}" for m in applied)
            )
    return PreparedDatabase(url=url, embedded=embedded)
