"""The recall gate (pure): what is relevant enough to be served at all.

Episodes pass on cosine distance only: ts_rank_cd is unbounded before
normalisation and recency is unrelated to the query, so a shared common word
or a fresh date could lift an off-topic row past any hybrid-score floor.
Distance is the one term bounded and calibrable per embedder
(scripts/check_recall_floor.py).

Facts pass when the question asks about them (``text.topics``: a topic word
of their predicate, or their value named), else on a stricter cosine floor.
Distance alone cannot serve facts: "Where does Maya live?" and "What is
Maya's blood type?" are equally close to every fact of Maya's, so any floor
loose enough to keep her home city for the first also keeps it for the
second (``check_recall_floor.py --facts`` prints both rules side by side).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..text.topics import AskedQuestion, on_topic
from .types import Decision, FactRow, Row, Scored

# Cosine distance lies in [0, 2]: a floor at 2 or above judges nothing, so it
# keeps a row without a comparable vector too (not yet embedded, or of another
# embedding space) rather than excluding it for a score it cannot have.
MAX_COSINE_DISTANCE = 2.0


def passes(distance: float | None, max_distance: float) -> bool:
    if max_distance <= 0 or max_distance >= MAX_COSINE_DISTANCE:
        return True
    # Without an embedding a row cannot show it is relevant enough.
    return distance is not None and distance <= max_distance


@dataclass(frozen=True, slots=True)
class Gate:
    """The gate of one call: its floors and, for facts, the question."""

    max_distance: float
    fact_max_distance: float
    question: AskedQuestion | None  # None: the gate is off, nothing to ask

    @classmethod
    def of(cls, query: str, max_distance: float, fact_max_distance: float) -> Gate:
        # The question is cut only when the gate will read it.
        question = AskedQuestion.of(query) if max_distance > 0 else None
        return cls(max_distance, fact_max_distance, question)

    def keeps(self, row: Row) -> bool:
        """A fact the question asks about or within the stricter of both floors;
        an episode within the floor."""
        if self.question is None:
            return True
        if isinstance(row, FactRow):
            return on_topic(self.question, row.predicate, row.value) or passes(
                row.distance, min(self.max_distance, self.fact_max_distance)
            )
        return passes(row.distance, self.max_distance)


def apply_gate(ranked: Sequence[Scored], gate: Gate) -> tuple[list[Scored], list[Decision]]:
    """Rows the gate keeps, and one ``below_relevance_floor`` exclusion per other row."""
    kept: list[Scored] = []
    dropped: list[Decision] = []
    for s in ranked:
        if gate.keeps(s.row):
            kept.append(s)
        else:
            dropped.append(
                Decision(s.row.kind, s.row.id, "excluded", "below_relevance_floor", s.rank, s.score)
            )
    return kept, dropped
