"""Train the wish reader of ``providers/extraction/meaning.py`` on the training sets only.

    python scripts/train_wish_reader.py          # write wish_weights.json
    python scripts/train_wish_reader.py --check  # retrain, compare with the shipped weights

Four classes over the MiniLM document vector of one sentence: a standing
wish to the agent (``wish``), a habit or lasting taste of the speaker
(``habit``), a one-off request (``request``), anything else (``other``).

Rows, from files in the repository, never from a held-out or blind split:

- ``tests/fixtures/injection/{adversarial,train,train2,train3,train4,train5,train8}.jsonl``:
  a kept row wanting an ``instruction`` is a wish, one wanting a
  ``preference_or_attribute`` a habit; the benign part of a mixed row
  (``keep``) likewise; a hostile row whose effect is risky
  (``risk_effect``) is a wish too: the reader says *that* it is a standing
  order, the risk gate decides whether it may be one. The adversarial
  set's hostile rows (jailbreaks, captured blocks) are left out: they are
  the guard's to refuse, not orders to learn.
- ``tests/fixtures/injection/wish_reader_train.jsonl``: one-off requests and
  chat, the classes the injection sets do not hold.
- ``tests/fixtures/extraction/{everyday,traps,corrections}.jsonl``, their
  training and dev splits: statements about the person and others
  (``other``); the held-out splits are left out.

Softmax regression, full batch, from zero weights, a fixed number of steps,
classes weighted by their inverse frequency: the same rows and vectors give
the same weights (``--check`` allows for float rounding of the vectors).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "scripts"))

from reader_training import SCALE, compare, jsonl, train  # noqa: E402

from haki.providers.embed import LocalEmbedder  # noqa: E402
from haki.providers.extraction.meaning import CLASSES, WEIGHTS  # noqa: E402

INJECTION = REPO / "tests" / "fixtures" / "injection"
EXTRACTION = REPO / "tests" / "fixtures" / "extraction"
INJECTION_SETS = ("adversarial", "train", "train2", "train3", "train4", "train5", "train8")
EXTRACTION_SETS = ("everyday", "traps", "corrections")
HELD_OUT = {"heldout", "traps-heldout", "train5-holdout"}


def _label(want: str) -> str:
    return "wish" if want == "instruction" else "habit"


def rows() -> list[tuple[str, str]]:
    """(text, class) pairs in file order, each text once (its first label)."""
    out: list[tuple[str, str]] = []
    for name in INJECTION_SETS:
        for row in jsonl(INJECTION / f"{name}.jsonl"):
            if row.get("keep"):
                out.append((row["keep"]["text"], _label(row["keep"]["want"])))
            elif row["expect"] == "kept" and row.get("want"):
                out.append((row["text"], _label(row["want"])))
            elif row["expect"] == "blocked" and row["kind"] == "risk_effect":
                out.append((row["text"], "wish"))
    out += [(r["text"], r["class"]) for r in jsonl(INJECTION / "wish_reader_train.jsonl")]
    for name in EXTRACTION_SETS:
        for row in jsonl(EXTRACTION / f"{name}.jsonl"):
            if row.get("split") not in HELD_OUT:
                out.append((row["text"], "other"))
    seen: set[str] = set()
    return [(t, c) for t, c in out if not (t in seen or seen.add(t))]


def fit() -> dict:
    data = rows()
    embedder = LocalEmbedder()
    x = embedder.embed_documents([t for t, _ in data]).astype(np.float64) * SCALE
    y = np.array([CLASSES.index(c) for _, c in data])
    w, b = train(x, y, len(CLASSES))
    logits = x @ w + b
    w = w * SCALE
    accuracy = float((logits.argmax(axis=1) == y).mean())
    return {
        "classes": list(CLASSES),
        "space": list(embedder.space),
        "rows": {c: int((y == i).sum()) for i, c in enumerate(CLASSES)},
        "train_accuracy": round(accuracy, 4),
        "weights": np.round(w.T, 6).tolist(),
        "bias": np.round(b, 6).tolist(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped weights")
    args = parser.parse_args()
    model = fit()
    if args.check:
        shipped = json.loads(WEIGHTS.read_text())
        drift, reproduces = compare(model, shipped, "classes")
        print(json.dumps({"rows": model["rows"], "max_drift": drift, "reproduces": reproduces}))
        return 0 if reproduces else 1
    WEIGHTS.write_text(json.dumps(model, separators=(",", ":")) + "\n")
    print(json.dumps({k: model[k] for k in ("rows", "train_accuracy")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
