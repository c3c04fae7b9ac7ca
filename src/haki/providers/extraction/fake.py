"""``fake`` provider: the facts are given in ``payload.mock_facts`` (tests, wire compatibility)."""

from __future__ import annotations

from collections.abc import Sequence

from .schema import parse_items
from .types import Candidate, EventRow


class FakeExtractor:
    name = "fake"

    async def extract(self, events: Sequence[EventRow]) -> list[list[Candidate]]:
        out = []
        for event in events:
            given = event.payload.get("role")
            role = given if isinstance(given, str) else "user"
            candidates, _ = parse_items(event.payload.get("mock_facts"), role=role)
            out.append(candidates)
        return out
