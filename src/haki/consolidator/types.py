"""Values passed between the consolidator's stages.

Loading events and applying facts do I/O; everything in between is a pure
function from one of these frozen dataclasses to the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from ..providers.extraction.types import Candidate, EventRow


@dataclass(frozen=True, slots=True)
class Chunk:
    """A turn-sized verbatim piece of an event, served as-is in packets."""

    event_id: UUID
    ordinal: int
    text: str


@dataclass(frozen=True, slots=True)
class Sourced:
    """A candidate tied to the event it came from."""

    candidate: Candidate
    event: EventRow


@dataclass(frozen=True, slots=True)
class Quarantined:
    """A candidate held by the guard, and why."""

    sourced: Sourced
    reason: str  # a threat kind, ``risky_instruction:<effects>`` or ``unconfirmed_instruction``
