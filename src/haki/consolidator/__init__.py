"""The consolidator: events in, episode chunks and facts out (see ``docs/consolidation.md``)."""

from .forgetting import drop_chunks, forget_fact, forget_subject
from .pipeline import JobResult, consolidate
from .worker import Ran, Summary, Waited, Worker, run_pending, run_until_done

__all__ = [
    "JobResult",
    "Ran",
    "Summary",
    "Waited",
    "Worker",
    "consolidate",
    "drop_chunks",
    "forget_fact",
    "forget_subject",
    "run_pending",
    "run_until_done",
]
