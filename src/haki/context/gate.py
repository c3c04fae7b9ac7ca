"""The recall gate (pure): a cosine-distance floor applied before packing.

Gate on cosine distance only: ts_rank_cd is unbounded before normalisation
and recency is unrelated to the query, so a shared common word or a fresh
date could lift an off-topic row past any hybrid-score floor. Distance is the
one term bounded and calibrable per embedder (scripts/check_recall_floor.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Decision, Scored


def passes(distance: float | None, max_distance: float) -> bool:
    if max_distance <= 0:
        return True
    # Without an embedding a row cannot show it is relevant enough.
    return distance is not None and distance <= max_distance


def apply_gate(
    ranked: Sequence[Scored], max_distance: float
) -> tuple[list[Scored], list[Decision]]:
    """Rows within the floor, and one ``below_relevance_floor`` exclusion per other row."""
    kept: list[Scored] = []
    dropped: list[Decision] = []
    for s in ranked:
        if passes(s.row.distance, max_distance):
            kept.append(s)
        else:
            dropped.append(
                Decision(s.row.kind, s.row.id, "excluded", "below_relevance_floor", s.rank, s.score)
            )
    return kept, dropped
