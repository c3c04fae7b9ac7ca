"""The shipped readers by meaning are trained on the training rows as they stand.

Re-embedding every row (``--check``) takes minutes; the rows each class was
trained on, recorded in the weights, tell in seconds that rows were added or
relabelled after the weights were shipped, so ``--check`` would fail.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from meaning_helpers import training_script

from haki.providers.extraction import meaning_facts
from haki.providers.extraction.meaning import WEIGHTS

# The wish reader's training rows changed after its weights shipped;
# retrained on them it reads fewer terse benign orders ("Les prix en euros
# stp": wish 0.952 -> 0.934, under its 0.95 threshold), so the shipped
# weights stay (docs/consolidation.md, "drift"). Strict: retraining makes it
# pass. The fact reader is trained on the rows as they stand.
_DRIFT = pytest.mark.xfail(strict=True, reason="weights trained on older rows (drift)")


@_DRIFT
def test_wish_weights_record_the_current_training_rows() -> None:
    script = training_script("train_wish_reader")
    counted = Counter(label for _, label in script.rows())
    assert json.loads(WEIGHTS.read_text())["rows"] == {c: counted[c] for c in script.CLASSES}


def test_fact_weights_record_the_current_training_rows() -> None:
    script = training_script("train_fact_reader")
    counted = Counter(family for _, family, _ in script.rows())
    shipped = json.loads(meaning_facts.WEIGHTS.read_text())["rows"]
    assert shipped == {f: counted[f] for f in shipped}
    assert sum(shipped.values()) == sum(counted.values())
