"""Documents on the int8 model, batched by token count (``query_rows``).

The per-tensor int8 graph embeds one text per run (``_infer_alone``); its
variant quantised per batch row gives each row of an unpadded batch the
vector that text gets alone, bit for bit. Texts of one token count therefore
share a run: conversational turns often do (1,000 distinct short turns in
calls of 100: 7.1 texts per token count). A run of fewer than
``MIN_RUN_ROWS`` texts goes one text per call on the per-tensor graph, whose
fused kernels cost less per run than the per-row graph's extra operators.

Equality with the per-tensor graph rests on how onnxruntime fuses and rounds,
which a new version may change; ``agrees`` checks it on fixed texts when the
session loads, and the embedder keeps one text per run if they differ.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# Tokens per batched run (rows x length); a run this size costs about what
# runs twice as large do per text, and leaves work for the other threads.
RUN_TOKENS = 2048
# Rows per batched run at most.
RUN_ROWS = 64
# Rows a run needs to go on the per-row graph; fewer run one text per call
# on the per-tensor graph. Two rows about break even (docs/consolidation.md,
# "Documents batched by token count"), and LoCoMo's turns come mostly in
# runs of one or two.
MIN_RUN_ROWS = 3

# Texts that ``agrees`` embeds both ways: pairs of one token count (5, 11 and
# 23 tokens; tests/unit/test_embed_rows.py) and one alone, English and French.
PROBES = (
    "Sounds good.",
    "Good morning!",
    "I moved from Paris to Lyon last spring.",
    "My sister Anna works at the hospital now.",
    "Nous partons en vacances au Portugal avec les enfants en juillet.",
    "Je préfère le café au thé, surtout le soir après le travail.",
    "Okay, got it.",
)


def runs(lengths: Sequence[int]) -> list[list[int]]:
    """Indices grouped by length (ascending index within a group), each group
    cut into runs of at most ``RUN_ROWS`` rows and ``RUN_TOKENS`` tokens;
    runs ordered by cost (tokens), largest first, ties by first index."""
    by_length: dict[int, list[int]] = {}
    for i, n in enumerate(lengths):
        by_length.setdefault(n, []).append(i)
    out: list[list[int]] = []
    for n, indices in by_length.items():
        size = max(1, min(RUN_ROWS, RUN_TOKENS // max(n, 1)))
        out.extend(indices[k : k + size] for k in range(0, len(indices), size))
    return sorted(out, key=lambda r: (-lengths[r[0]] * len(r), r[0]))


def agrees(
    alone: Callable[[list[list[int]]], np.ndarray],
    batched: Callable[[list[list[int]]], np.ndarray],
    rows: Sequence[list[int]],
) -> bool:
    """Whether every run of ``rows`` of one length, batched, gives each row
    the vector it gets alone, bit for bit."""
    import numpy as np

    checked = 0
    for run in runs([len(r) for r in rows]):
        if len(run) < 2:
            continue
        together = batched([rows[i] for i in run])
        for k, i in enumerate(run):
            if not np.array_equal(together[k], alone([rows[i]])[0]):
                return False
        checked += 1
    return checked > 0
