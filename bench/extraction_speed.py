"""CPU time of the rules extractor, with its prefilter and trying every rule.

    .venv/bin/python bench/extraction_speed.py

Texts: LoCoMo dev turns, the extraction dev fixtures (never the blind ones)
and 4,000 short synthetic turns (``short_turns.py``). Prints both CPU times
and whether the candidates are identical.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import short_turns
from haki.providers.extraction import rules
from haki.providers.extraction.types import Candidate, Utterance
from locomo import DATA, load

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "extraction"
DEV_SETS = ("everyday", "corrections", "locomo_sample", "relative_dates_dev", "traps")


def texts() -> list[str]:
    out = [t.text for t in load(DATA, None, 0)[0]]
    for name in DEV_SETS:
        out += [json.loads(x).get("text") or "" for x in (FIXTURES / f"{name}.jsonl").open()]
    return out + [t for _, t, _ in short_turns.turns(4000)]


def timed(corpus: list[str]) -> tuple[list[list[Candidate]], float]:
    began = time.process_time()
    out = [rules.extract_utterance(Utterance("user", None, t)) for t in corpus]
    return out, time.process_time() - began


def main() -> None:
    corpus = texts()
    fast, fast_s = timed(corpus)
    rules._PREFILTER.rules_for = lambda sentence: rules.RULES  # type: ignore[method-assign]
    every, every_s = timed(corpus)
    print(
        f"{len(corpus)} texts: prefilter {fast_s:.2f} s CPU, every rule {every_s:.2f} s CPU; "
        f"candidates identical: {fast == every}"
    )


if __name__ == "__main__":
    main()
