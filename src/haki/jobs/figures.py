"""The queue as ``/metrics`` shows it: counted at scrape time, across every project."""

from __future__ import annotations

from ..observability.metrics import QueueFigures
from ..storage import Connection

# Both counts and the age read the (status, run_after, seq) index alone
# (jobs_claimable); finished jobs are never visited. A pending job still
# backing off (run_after in the future) is not yet waiting.
QUEUE = """
SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
       count(*) FILTER (WHERE status = 'running') AS running,
       coalesce(extract(epoch FROM now() - min(run_after)
                FILTER (WHERE status = 'pending' AND run_after <= now())), 0)::float8 AS oldest_s
FROM jobs
WHERE status IN ('pending', 'running')"""


async def queue_figures(conn: Connection) -> QueueFigures:
    """Pending and running jobs, and how long the oldest runnable one has waited
    (a system transaction: every project's jobs)."""
    cur = await conn.execute(QUEUE)
    row = await cur.fetchone()
    if row is None:
        return QueueFigures(pending=0, running=0, oldest_pending_s=0.0)
    return QueueFigures(
        pending=int(row["pending"]),
        running=int(row["running"]),
        oldest_pending_s=max(0.0, float(row["oldest_s"])),
    )
