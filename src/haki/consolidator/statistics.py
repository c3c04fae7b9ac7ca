"""When a worker brings the planner statistics of the tables it fills up to date.

Checking for stale statistics after every claimed batch analysed
``episode_chunks`` every 1-3 s while one 10,000-turn subject drained (23
times): each ANALYZE samples the table again, which is what a drain is
busy filling. During a drain the check runs at most once every
``REFRESH_EVERY_S``; when the drain ends (nothing left to claim) it runs
once more, so the context plans read statistics as fresh as before as soon
as the queue is empty.
"""

from __future__ import annotations

# Long enough that a drain pays a handful of analyses, short enough that a
# drain that never ends (a busy queue) keeps the plans within half a minute
# of the tables: autovacuum itself waits up to a minute.
REFRESH_EVERY_S = 30.0


def refresh_due(
    *,
    wrote: bool,
    draining: bool,
    last_at: float | None,
    now: float,
    every_s: float = REFRESH_EVERY_S,
) -> bool:
    """Whether to check for stale statistics now.

    ``wrote``: a job finished since the last check; ``draining``: more jobs
    may follow at once (a drain between two claims) rather than the queue
    being empty; ``last_at``/``now``: monotonic seconds of the last check (None:
    never in this process) and of this moment.
    """
    if not wrote:
        return False
    if not draining or last_at is None:
        return True
    return now - last_at >= every_s
