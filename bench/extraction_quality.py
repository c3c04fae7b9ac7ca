"""Precision and recall of the ``rules`` extractor on the hand-labelled LoCoMo sample.

    python bench/extraction_quality.py [--show-errors]

A predicted fact is correct when a labelled fact of the same turn has the
same predicate group and a matching value (same content words, one set
inside the other or Jaccard >= 0.5, after a crude stem). Predicate groups
merge the ways of saying "the speaker likes X" (likes, prefers, hobby,
plays, learning, favorite_*), which labellers and extractors split
differently.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from haki.providers.extraction.rules import extract_payload

SAMPLE = (
    Path(__file__).resolve().parents[1]
    / "tests"
    / "fixtures"
    / "extraction"
    / "locomo_sample.jsonl"
)
POSITIVE = {"likes", "prefers", "hobby", "plays", "learning"}
STOP = {
    "the",
    "a",
    "an",
    "my",
    "to",
    "of",
    "and",
    "with",
    "his",
    "her",
    "their",
    "our",
    "some",
    "about",
}


@dataclass(frozen=True, slots=True)
class Score:
    predicted: int
    correct: int
    labelled: int
    found: int

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.labelled if self.labelled else 1.0


def group(predicate: str) -> str:
    return "positive" if predicate in POSITIVE or predicate.startswith("favorite_") else predicate


def words(value: object) -> frozenset[str]:
    out = set()
    for w in re.findall(r"[\w:]+", str(value).lower()):
        if w in STOP:
            continue
        for suffix in ("ing", "s"):
            if w.endswith(suffix) and len(w) > len(suffix) + 2:
                w = w[: -len(suffix)]
                break
        out.add(w)
    return frozenset(out)


def matches(pred: dict, gold: dict) -> bool:
    if "about" in gold or group(pred["predicate"]) != group(gold["predicate"]):
        return False
    a, b = words(pred["value"]), words(gold["value"])
    if not a or not b:
        return False
    return a <= b or b <= a or len(a & b) / len(a | b) >= 0.5


def evaluate(rows: list[dict]) -> tuple[Score, list[tuple[str, str, dict]]]:
    predicted = correct = labelled = found = 0
    errors: list[tuple[str, str, dict]] = []
    for row in rows:
        payload = {"speaker": row["speaker"], "text": row["text"]}
        preds = [{"predicate": c.predicate, "value": c.value} for c in extract_payload(payload)]
        gold = row["facts"]
        predicted += len(preds)
        labelled += len(gold)
        for p in preds:
            if any(matches(p, g) for g in gold):
                correct += 1
            else:
                errors.append(("false_positive", row["id"], p))
        for g in gold:
            if any(matches(p, g) for p in preds):
                found += 1
            else:
                errors.append(("missed", row["id"], g))
    return Score(predicted, correct, labelled, found), errors


def load(path: Path = SAMPLE) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    rows = load()
    score, errors = evaluate(rows)
    if args.show_errors:
        for kind, turn, fact in errors:
            print(f"{kind:15} {turn:14} {fact}", file=sys.stderr)
    print(
        json.dumps(
            {
                "turns": len(rows),
                "labelled_facts": score.labelled,
                "predicted": score.predicted,
                "correct": score.correct,
                "precision": round(score.precision, 3),
                "recall": round(score.recall, 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
