"""Do the prefiltered episode marks equal the unfiltered ones? Every readable text, one process.

``text.risk.effects`` skips a clause none of whose patterns could match it
(``text.prefilter``). This reads every text of the readable sets — injection
check8 to check12, ``train*``, ``adversarial``, extraction corrections,
everyday and locomo_sample, and the LoCoMo dev turns — and compares, with
the prefilter and without it: ``marks()`` of the text, ``effects()`` of each
of its sentences and clauses. It also times ``marks()`` per LoCoMo dev turn
both ways (best of three). Exit status 1 on any difference.

    .venv/bin/python bench/marks_same_output.py [--sample N]

``--sample N`` reads every Nth text only (the unit test's sample). The
blind and validation sets are never read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from haki.text import risk  # noqa: E402
from haki.text.injection import clauses, clear_memos, marks, normalise, sentences  # noqa: E402

F = REPO / "tests" / "fixtures"
INJECTION = (
    *(f"check{n}.jsonl" for n in range(8, 13)),
    *sorted(p.name for p in (F / "injection").glob("train*.jsonl")),
    "adversarial.jsonl",
)
EXTRACTION = ("corrections.jsonl", "everyday.jsonl", "locomo_sample.jsonl")
LOCOMO = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"


def _rows(path: Path) -> Iterator[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            yield from (row[k] for k in ("before", "text") if isinstance(row.get(k), str))


def locomo_turns() -> list[str]:
    if not LOCOMO.exists():
        return []
    out = []
    for conv in json.loads(LOCOMO.read_text(encoding="utf-8")):
        c = conv["conversation"]
        n = 1
        while f"session_{n}" in c:
            out += [t["text"] for t in c[f"session_{n}"]]
            n += 1
    return out


def texts() -> dict[str, list[str]]:
    """Every readable text, by set name."""
    sets = {name: list(_rows(F / "injection" / name)) for name in INJECTION}
    sets |= {name: list(_rows(F / "extraction" / name)) for name in EXTRACTION}
    sets["locomo_dev"] = locomo_turns()
    return sets


@contextmanager
def unfiltered() -> Iterator[None]:
    """``risk.effects`` reading every clause, as before the prefilter, its memo forgotten on both sides."""
    saved = risk.may_have_effects
    risk.may_have_effects = lambda clause: True
    clear_memos()
    try:
        yield
    finally:
        risk.may_have_effects = saved
        clear_memos()


def _pieces(text: str) -> list[str]:
    norm = normalise(text)
    return [text, *sentences(norm), *clauses(norm)]


def differences(items: list[str]) -> list[tuple[str, str, object, object]]:
    """``(what, text, prefiltered, unfiltered)`` for every answer that differs."""
    clear_memos()
    new_marks = [marks(t) for t in items]
    new_effects = [[risk.effects(p) for p in _pieces(t)] for t in items]
    with unfiltered():
        old_marks = [marks(t) for t in items]
        old_effects = [[risk.effects(p) for p in _pieces(t)] for t in items]
    out: list[tuple[str, str, object, object]] = []
    for t, a, b in zip(items, new_marks, old_marks, strict=True):
        if a != b:
            out.append(("marks", t, a, b))
    for t, a, b in zip(items, new_effects, old_effects, strict=True):
        if a != b:
            out.append(("effects", t, a, b))
    return out


def _best(fn: Callable[[], object], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        clear_memos()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=1, help="every Nth text only")
    args = parser.parse_args()
    failed = 0
    for name, items in texts().items():
        items = items[:: args.sample]
        diff = differences(items)
        failed += len(diff)
        print(f"{name:28} {len(items):5} texts  {len(diff)} differences")
        for what, text, new, old in diff[:5]:
            print(f"  {what}: {text[:100]!r}: {new} != {old}")
    turns = locomo_turns()
    if turns:
        new = _best(lambda: [marks(t) for t in turns])
        with unfiltered():
            old = _best(lambda: [marks(t) for t in turns])
        per = 1000 / len(turns)
        print(
            f"marks() per LoCoMo dev turn ({len(turns)} turns, best of 3): unfiltered {old * per:.3f} ms, "
            f"prefiltered {new * per:.3f} ms"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
