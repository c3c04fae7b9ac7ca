"""The job queue, below the ledger (which enqueues) and the consolidator (which claims)."""

from .forgetting import forget_subject
from .queue import (
    Job,
    JobState,
    NewJob,
    carried_event_ids,
    claim,
    complete,
    count_by_status,
    count_claimable,
    enqueue,
    enqueue_many,
    fail,
    job_states,
    list_jobs,
    lock_for_run,
    open_jobs,
    reclaim,
)

__all__ = [
    "Job",
    "JobState",
    "NewJob",
    "carried_event_ids",
    "claim",
    "complete",
    "count_by_status",
    "count_claimable",
    "enqueue",
    "enqueue_many",
    "fail",
    "forget_subject",
    "job_states",
    "list_jobs",
    "lock_for_run",
    "open_jobs",
    "reclaim",
]
