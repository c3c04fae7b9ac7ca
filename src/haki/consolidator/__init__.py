"""The consolidator: events in, episode chunks and facts out (see ``docs/consolidation.md``)."""

from .jobs import Job, enqueue
from .pipeline import JobResult, consolidate
from .worker import Ran, Summary, Worker, run_pending

__all__ = ["Job", "JobResult", "Ran", "Summary", "Worker", "consolidate", "enqueue", "run_pending"]
