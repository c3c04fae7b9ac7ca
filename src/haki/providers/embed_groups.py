"""Padded batches for the packaged model: texts cut into calls by token count.

The packaged (float) model takes an attention mask, so texts of different
lengths share a call padded to its longest row; ``token_groups`` trades that
padding against the cost of more calls.
"""

from __future__ import annotations

from collections.abc import Sequence

# Padded tokens per inference call: a batch costs (longest row x rows).
BATCH_TOKENS = 2048
# A call costs about as much as this many padded tokens on top of its rows
# (docs/context.md, Performance). Grouping trades padding against calls with
# this price.
CALL_OVERHEAD_TOKENS = 8
# Rows per call past which a longer group saves nothing measurable; it also
# bounds the grouping search to O(rows x MAX_GROUP_ROWS).
MAX_GROUP_ROWS = 64


def token_groups(lengths: Sequence[int], budget: int) -> list[list[int]]:
    """Indices cut into calls that minimise padded tokens plus per-call overhead.

    Rows are sorted by length (ties by index) and cut into contiguous groups
    by dynamic programming; each group's padded size (longest x count) stays
    within ``budget`` (a lone row may exceed it) and ``MAX_GROUP_ROWS``.
    Padding is the main waste on short conversational turns, so a few more
    calls beat one wide padded batch.
    """
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    sizes = [lengths[i] for i in order]
    n = len(sizes)
    best = [0] * (n + 1)  # best[j]: cheapest cost of the first j sorted rows
    cut = [0] * (n + 1)
    for j in range(1, n + 1):
        widest = sizes[j - 1]
        best[j] = best[j - 1] + widest + CALL_OVERHEAD_TOKENS
        cut[j] = j - 1
        for i in range(j - 2, max(-1, j - 1 - MAX_GROUP_ROWS), -1):
            if widest * (j - i) > budget:
                break
            cost = best[i] + widest * (j - i) + CALL_OVERHEAD_TOKENS
            if cost <= best[j]:  # ties go to the longer group: fewer calls
                best[j], cut[j] = cost, i
    groups: list[list[int]] = []
    j = n
    while j > 0:
        groups.append(order[cut[j] : j])
        j = cut[j]
    return groups[::-1]
