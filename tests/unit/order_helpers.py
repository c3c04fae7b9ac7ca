"""What the tests of orders and their risk share: a user's chat message and an order read from it."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

from haki.consolidator.types import Sourced
from haki.providers.extraction.types import Candidate, EventRow


def chat_event(text: str) -> EventRow:
    """A trusted user's chat message saying ``text``."""
    return EventRow(
        id=uuid4(),
        org_id="o",
        project_id="p",
        subject_type="user",
        subject_id="s",
        kind="conversation.message",
        occurred_at=datetime(2025, 3, 1, tzinfo=UTC),
        payload={"text": text},
        origin_trust="trusted",
    )


def order_said(text: str, value: str, predicate: str = "convention") -> Sourced:
    """An instruction ``predicate = value`` read from a message saying ``text``."""
    cand = Candidate(predicate, value, fact_kind="instruction", evidence_span=text)
    return Sourced(cand, chat_event(text))
