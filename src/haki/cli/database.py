"""The configured database for one command: opened, used, closed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from ..config import load_settings

if TYPE_CHECKING:
    from ..storage import Database

T = TypeVar("T")


def run_with_database(work: Callable[[Database], Awaitable[T]]) -> T:
    """Run ``work(db)`` against the configured database (embedded or external), migrated."""
    # Imported here, not with the command line: storage imports
    # prometheus_client, which fixes its value storage on first import, and
    # only ``serve`` knows whether its processes share a metrics directory.
    from ..storage import Database, prepare_database

    settings = load_settings()
    prepared = prepare_database(settings)

    async def main() -> T:
        db = Database(prepared.url, min_size=1, max_size=1, timeout=settings.db_timeout_s)
        await db.open()
        try:
            return await work(db)
        finally:
            await db.close()

    try:
        return asyncio.run(main())
    finally:
        prepared.stop()
