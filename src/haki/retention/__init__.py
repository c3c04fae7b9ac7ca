"""Per-project retention of raw events and context traces, enforced by the worker."""

from .enforce import enforce_all, enforce_project, run_forever
from .policy import RetentionPolicy, RetentionReceipt, get_policy, list_receipts, set_policy

__all__ = [
    "RetentionPolicy",
    "RetentionReceipt",
    "enforce_all",
    "enforce_project",
    "get_policy",
    "list_receipts",
    "run_forever",
    "set_policy",
]
