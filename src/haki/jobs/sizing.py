"""How much one consolidation job may carry.

A job runs in one transaction, and its chunks are embedded on the
inference threads every project shares: one job of 1,000 events of 10 kB ran
for minutes, held its locks all along, and lost everything on a retry. So
the events queued together are cut into consecutive jobs of at most
``JOB_MAX_EVENTS`` events and ``JOB_MAX_BYTES`` bytes of payload JSON (what
chunking and embedding work on); an event larger than that goes alone. The
pieces keep the order their events are consolidated in, and a subject's jobs
run in queue order, so the facts are those one job would have made.
"""

from __future__ import annotations

from collections.abc import Sequence

JOB_MAX_EVENTS = 500
JOB_MAX_BYTES = 256 * 1024


def split_by_size(
    sizes: Sequence[int], *, max_events: int | None = None, max_bytes: int | None = None
) -> list[range]:
    """Consecutive index ranges over ``sizes`` (bytes per event), each within
    both bounds (by default the job bounds), or a single event that is over
    ``max_bytes`` by itself."""
    max_events = JOB_MAX_EVENTS if max_events is None else max_events
    max_bytes = JOB_MAX_BYTES if max_bytes is None else max_bytes
    pieces: list[range] = []
    start, total = 0, 0
    for i, size in enumerate(sizes):
        full = i - start >= max_events or (i > start and total + size > max_bytes)
        if full:
            pieces.append(range(start, i))
            start, total = i, 0
        total += size
    if start < len(sizes):
        pieces.append(range(start, len(sizes)))
    return pieces
