"""The consolidator: events in, episode chunks and facts out (see ``docs/consolidation.md``)."""

from .forgetting import forget_fact, forget_subject
from .pipeline import JobResult, consolidate
from .worker import Ran, Summary, Worker, run_pending

__all__ = [
    "JobResult",
    "Ran",
    "Summary",
    "Worker",
    "consolidate",
    "forget_fact",
    "forget_subject",
    "run_pending",
]
