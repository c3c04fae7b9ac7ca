"""Per-key request limits shared through PostgreSQL by every API process.

Each key has a counter per one-minute window of the database clock; a call
takes one unit with a single atomic upsert that increments only while the
window has room, so N API processes behind a balancer together allow the
configured rate, not N times it. A window is fixed (aligned on the minute):
over a 60-second span that straddles two windows a key may make up to twice
its per-minute limit, the price of one row and one statement per call.
Refused calls are not counted, so a client that backs off as told by
``Retry-After`` is served in the next window.
"""

from __future__ import annotations

import math

from ..storage import Database

# Take one unit in the current window while it has room. Returns a row when
# the call is allowed; none when the window is full.
_TAKE = """
INSERT INTO rate_limit_windows AS w (project_id, key_id, window_start, requests)
VALUES (%(project)s, %(key)s, date_trunc('minute', clock_timestamp()), 1)
ON CONFLICT (project_id, key_id, window_start)
DO UPDATE SET requests = w.requests + 1 WHERE w.requests < %(limit)s
RETURNING requests
"""

# Seconds until the current window ends (at least one).
_WAIT = """
SELECT 60 - extract(epoch FROM clock_timestamp() - date_trunc('minute', clock_timestamp()))
    AS wait_s
"""

# A key's first call of a window drops its windows older than the previous one.
_PRUNE = """
DELETE FROM rate_limit_windows
WHERE project_id = %(project)s AND key_id = %(key)s
  AND window_start < date_trunc('minute', clock_timestamp()) - interval '1 minute'
"""


class RateLimiter:
    """``per_minute`` requests per key and minute window; ``0`` disables the limit."""

    def __init__(self, per_minute: int):
        self.per_minute = per_minute

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    async def acquire(self, db: Database, project_id: str, key_id: str) -> int | None:
        """Take one call for ``key_id``; None when allowed, else whole seconds to wait."""
        if not self.enabled:
            return None
        params = {"project": project_id, "key": key_id, "limit": self.per_minute}
        async with db.transaction(project_id) as conn:
            taken = await (await conn.execute(_TAKE, params)).fetchone()
            if taken is not None:
                if taken["requests"] == 1:
                    await conn.execute(_PRUNE, params)
                return None
            wait = await (await conn.execute(_WAIT)).fetchone()
        seconds = float(wait["wait_s"]) if wait else 60.0
        return max(1, math.ceil(seconds))
