"""The splits of ``tests/fixtures/extraction/corrections.jsonl`` sessions may read and tune on.

One list for ``bench/doubt.py`` (its ``--split`` choices) and
``tests/integration/consolidator/test_corrections.py``; a held-out split
added to the file by the lead is run by name and never appears here.
"""

from __future__ import annotations

READABLE = (
    "dev",
    "heldout",
    "train",
    "train2",
    "train3",
    "train4",
    "train5",
    "train5-holdout",
    "train8",
    "train8-check",
    "train9",
)

# One turn, one correction, a new value or none: scored case by case
# against the server by the integration test. The other splits hold
# corrections that may only be marked unsure and turns said between, which
# ``bench/doubt.py`` scores end to end, applied and unsure apart.
ONE_TURN = ("dev", "heldout", "train")
