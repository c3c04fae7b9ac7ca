"""The extractor seam: events in, candidate facts out (one list per event)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from .types import Candidate, EventRow


@runtime_checkable
class Extractor(Protocol):
    name: str

    async def extract(self, events: Sequence[EventRow]) -> list[list[Candidate]]:
        """Candidates for each event, in the order of ``events``."""
        ...
