"""The Memory Ledger: durable capture of events and the versioned life of facts."""

from .capture import write_events
from .events import get_event, timeline
from .facts import get_fact, list_facts
from .forgetting import (
    delete_events,
    disable_fact,
    disable_subject,
    fact_sources,
    forget_fact,
    forget_subject,
    hide_events,
)
from .transitions import ALLOWED, check_transition, set_status
from .types import (
    CaptureBatch,
    CapturedEvent,
    CaptureResult,
    FactQuery,
    NewEvent,
    Page,
)

__all__ = [
    "ALLOWED",
    "CaptureBatch",
    "CaptureResult",
    "CapturedEvent",
    "FactQuery",
    "NewEvent",
    "Page",
    "check_transition",
    "delete_events",
    "disable_fact",
    "disable_subject",
    "fact_sources",
    "forget_fact",
    "forget_subject",
    "get_event",
    "get_fact",
    "hide_events",
    "list_facts",
    "set_status",
    "timeline",
    "write_events",
]
