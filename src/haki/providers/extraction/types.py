"""What extractors read (events, their utterances) and what they propose (candidates)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from ...types import FactKind, Volatility

# Message roles whose words describe the subject; other roles (assistant,
# system, tool) speak about the agent or repeat what it was served.
SUBJECT_ROLES = frozenset({"user", "human", ""})


@dataclass(frozen=True, slots=True)
class EventRow:
    """The columns of one event that consolidation reads."""

    id: UUID
    org_id: str
    project_id: str
    subject_type: str
    subject_id: str
    kind: str
    occurred_at: datetime
    payload: dict[str, Any]
    origin_trust: str
    actor_type: str | None = None
    has_embedding: bool = False


@dataclass(frozen=True, slots=True)
class Utterance:
    """One thing said in an event: who said it (role, speaker name) and the words."""

    role: str
    speaker: str | None
    text: str


class _Held:
    """``Candidate.corrects`` of a correction that names no old value: see ``HELD``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "HELD"


# "Sorry, typo: my sister's name is Emmy": the sentence says something said
# was wrong and states the new value, without the old one. It corrects the
# one value held for the same predicate (and kind), if there is exactly one.
HELD = _Held()


@dataclass(frozen=True, slots=True)
class Candidate:
    """A fact proposed by an extractor, before guarding and identity resolution."""

    predicate: str
    value: Any
    qualifiers: dict[str, Any] = field(default_factory=dict)
    fact_kind: FactKind = "attribute"
    volatility: Volatility = "stable"
    confidence: float = 0.7
    evidence_span: str = ""
    role: str = "user"
    # An explicit correction: the value this statement says is no longer
    # true ("I'm a midwife now, not a nurse" corrects "nurse"), or, with
    # ``retract``, a statement that ends ``value`` without a replacement
    # ("I don't live in Oslo any more").
    corrects: Any = None
    retract: bool = False
    # The words that say when the statement became true ("last month"), and
    # that moment read against the event's time (``when.resolve``); without
    # them the fact holds from the event's ``occurred_at``.
    said_when: str | None = None
    valid_from: datetime | None = None
    # How finely the words place that moment ("month" for "last month"):
    # ``valid_from`` is then the first day of that period (``when.said_moment``).
    valid_from_grain: str | None = None
