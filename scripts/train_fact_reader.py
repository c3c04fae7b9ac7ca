"""Train the fact reader of ``providers/extraction/meaning_facts.py`` on the training sets only.

    python scripts/train_fact_reader.py          # write fact_weights.json, print the CV table
    python scripts/train_fact_reader.py --cv     # only the five-fold table, nothing written
    python scripts/train_fact_reader.py --check  # retrain, compare with the shipped weights

Families over the MiniLM document vector of one sentence (``FAMILIES``).
Rows, one a sentence, from files in the repository, never from a held-out
or blind split:

- ``tests/fixtures/extraction/{everyday,corrections,traps,relative_dates_dev,
  check9_*,check10_*,check11_*}.jsonl`` (check10 and check11 are training sets
  since their round ended) (their ``*heldout*`` and
  ``*holdout*`` splits left out): a sentence holding the value of a labelled
  fact of a family is of that family; one of a one-sentence turn whose
  family fact names its value in other words ("fiancée" for ``engaged``)
  too; the other sentences of a turn are ``other`` (a turn with a fact
  whose value no sentence holds is left out);
- ``tests/fixtures/extraction/fact_reader_train.jsonl``: sentences written
  for this reader, each with its family;
- ``tests/fixtures/injection/{train,train2,…,train10,check9}.jsonl`` and
  ``wish_reader_train.jsonl``: wishes, requests and chat, ``other``;
- LoCoMo dev chat (``/work/shared/data/locomo/locomo_dev.json``), the
  sentences the reader would see (``meaning_facts.readable``), every third,
  ``other``; the turns of ``locomo_sample.jsonl`` are left out, so that
  the bench's ``locomo`` split is not a training figure.

Softmax regression as the wish reader's (full batch, zero start, fixed
steps, classes weighted by inverse frequency): the same rows and vectors
give the same weights. ``--cv`` prints, per family, the five-fold precision
and recall of the family alone and of the whole reading (family, guards,
typed value equal to the labelled one) at each threshold, and the
threshold chosen (``chosen``: the least whose reading precision reaches
``PRECISION``), which ``meaning_facts.THRESHOLDS`` copies.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "scripts"))

from reader_training import SCALE, compare, jsonl, softmax, train  # noqa: E402

from haki.providers.embed import LocalEmbedder  # noqa: E402
from haki.providers.extraction import meaning_facts as mf  # noqa: E402
from haki.providers.extraction.meaning import Unread  # noqa: E402
from haki.providers.extraction.vocabulary import DIETS, RELATIONSHIP  # noqa: E402

EXTRACTION = REPO / "tests" / "fixtures" / "extraction"
INJECTION = REPO / "tests" / "fixtures" / "injection"
LOCOMO = Path("/work/shared/data/locomo/locomo_dev.json")
FACT_SETS = (
    "everyday",
    "corrections",
    "traps",
    "relative_dates_dev",
    "check9_dates",
    "check9_corrections",
    "check10_dates",
    "check10_corrections",
    "check11_dates",
    "check11_corrections",
)
INJECTION_SETS = (
    "train",
    "train2",
    "train3",
    "train4",
    "train5",
    "train7",
    "train8",
    "train9",
    "train10",
    "check9",
    "wish_reader_train",
)
FAMILY = {p: p for p in mf.FAMILIES if p != "other"} | {"spouse": "partner"}
GRID = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97)
# A fact read by meaning is served as current: a family is read from the
# least threshold at which 95 % of its out-of-fold readings are right.
PRECISION = 0.95
_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")


def _held_out(split: str | None) -> bool:
    return bool(split) and ("heldout" in split or "holdout" in split)


def _turn(text: str, facts: list[dict]) -> list[tuple[str, str, object]]:
    """(sentence, family, labelled value) of one labelled turn (module doc)."""
    sentences = [s.strip() for s in _SPLIT.split(text) if s.strip()]
    ours = [(FAMILY[f["predicate"]], f["value"]) for f in facts if f["predicate"] in FAMILY]
    out, placed = [], set()
    for sentence in sentences:
        here = {(fam, str(v)) for fam, v in ours if mf.folded(str(v)) in mf.folded(sentence)}
        families = {fam for fam, _ in here}
        if len(families) > 1:
            placed |= here
            continue
        if families:
            fam, value = next(iter(here))
            placed |= here
            out.append((sentence, fam, value))
        else:
            out.append((sentence, "other", None))
    missing = [(fam, str(v)) for fam, v in ours if (fam, str(v)) not in placed]
    if missing:
        if len(sentences) == 1 and len({fam for fam, _ in missing}) == 1:
            return [(sentences[0], missing[0][0], missing[0][1])]
        return [r for r in out if r[1] != "other"]
    return out


def rows() -> list[tuple[str, str, object]]:
    """(sentence, family, value) in file order, each sentence once (its first label)."""
    out: list[tuple[str, str, object]] = []
    for name in FACT_SETS:
        for row in jsonl(EXTRACTION / f"{name}.jsonl"):
            if _held_out(row.get("split")):
                continue
            if "before" in row:
                out += _turn(row["before"], [row["old"]] if row.get("old") else [])
                out += _turn(row["text"], [row["new"]] if row.get("new") else [])
            else:
                out += _turn(row["text"], row.get("facts", []))
    out += [
        (r["text"], r["family"], r.get("value"))
        for r in jsonl(EXTRACTION / "fact_reader_train.jsonl")
    ]
    for name in INJECTION_SETS:
        for row in jsonl(INJECTION / f"{name}.jsonl"):
            # A kept attribute ("I live in Dublin", "I'm vegetarian") may be
            # one of the families: neither side.
            if row.get("want") != "preference_or_attribute":
                out.append((row["text"], "other", None))
            if row.get("keep") and row["keep"].get("want") != "preference_or_attribute":
                out.append((row["keep"]["text"], "other", None))
    out += [(s, "other", None) for s in locomo_sentences()]
    seen: set[str] = set()
    return [r for r in out if not (r[0] in seen or seen.add(r[0]))]


def locomo_sentences() -> list[str]:
    sample = {r["id"] for r in jsonl(EXTRACTION / "locomo_sample.jsonl")}
    found: list[str] = []
    for conv in json.loads(LOCOMO.read_text()):
        c = conv["conversation"]
        for key in sorted(k for k in c if re.fullmatch(r"session_\d+", k)):
            for turn in c[key]:
                if f"{conv['sample_id']}/{turn['dia_id']}" in sample:
                    continue
                found += [s for s in _SPLIT.split(turn["text"]) if mf.readable(s)]
    return found[::3]


def _vectors(
    data: list[tuple[str, str, object]], cache: Path | None = None
) -> tuple[np.ndarray, list[object]]:
    """The rows' vectors (scaled); ``cache`` keeps them between runs, by text."""
    embedder = LocalEmbedder()
    held: dict[str, np.ndarray] = {}
    if cache is not None and cache.exists():
        saved = np.load(cache, allow_pickle=False)
        held = dict(zip(saved["texts"].tolist(), saved["vectors"], strict=True))
    texts = [t for t, _, _ in data]
    missing = sorted({t for t in texts if t not in held})
    if missing:
        held.update(zip(missing, embedder.embed_documents(missing), strict=True))
        if cache is not None:
            np.savez(cache, texts=np.array(list(held)), vectors=np.array(list(held.values())))
    x = np.array([held[t] for t in texts]).astype(np.float64) * SCALE
    return x, list(embedder.space)


def _same(got: object, want: object) -> bool:
    """The value read is the labelled one, in its stored form (vocabulary words mapped)."""
    vocab = {**DIETS, **RELATIONSHIP}

    def stored(v: object) -> str:
        text = str(v).lower().replace("-", " ")
        return mf.folded(vocab.get(str(v).lower(), text).replace("-", " "))

    return stored(got) == stored(want) or (
        isinstance(want, str) and stored(got) in stored(want).split()
    )


def cross_validate(data: list[tuple[str, str, object]], x: np.ndarray, folds: int = 5) -> dict:
    """Five-fold out-of-fold probabilities, then per family and threshold: P/R of the
    family alone and of the whole reading (guards and typed value included)."""
    y = np.array([mf.FAMILIES.index(f) for _, f, _ in data])
    probs = np.zeros((len(y), len(mf.FAMILIES)))
    order = np.arange(len(y))
    for k in range(folds):
        test = order % folds == k
        w, b = train(x[~test], y[~test], len(mf.FAMILIES))
        probs[test] = softmax(x[test] @ w + b)
    table: dict[str, dict] = {}
    for i, family in enumerate(mf.FAMILIES[:-1]):
        positives = int((y == i).sum())
        per: dict[str, dict] = {}
        for t in GRID:
            chosen = (probs.argmax(axis=1) == i) & (probs[:, i] >= t)
            hit = int((chosen & (y == i)).sum())
            read_ok = read_bad = 0
            for j in np.flatnonzero(chosen):
                text, fam, value = data[j]
                cand = (
                    mf.candidate(Unread(text, "user", fact=True), family)
                    if mf.readable(text)
                    else None
                )
                if cand is None:
                    continue
                if fam == family and value is not None and _same(cand.value, value):
                    read_ok += 1
                else:
                    read_bad += 1
            per[str(t)] = {
                "family_p": round(hit / max(int(chosen.sum()), 1), 3),
                "family_r": round(hit / max(positives, 1), 3),
                "read": read_ok,
                "wrong": read_bad,
                "read_p": round(read_ok / max(read_ok + read_bad, 1), 3),
                "read_r": round(read_ok / max(positives, 1), 3),
            }
        table[family] = {"rows": positives, "by_threshold": per, "chosen": _chosen(per)}
    return table


def _chosen(per: dict[str, dict]) -> float | None:
    """The least threshold whose out-of-fold readings are right at least ``PRECISION`` of the time."""
    ok = [float(t) for t, x in per.items() if x["read"] and x["read_p"] >= PRECISION]
    return min(ok) if ok else None


def fit(data: list[tuple[str, str, object]], x: np.ndarray, space: list[object]) -> dict:
    y = np.array([mf.FAMILIES.index(f) for _, f, _ in data])
    w, b = train(x, y, len(mf.FAMILIES))
    accuracy = float(((x @ w + b).argmax(axis=1) == y).mean())
    return {
        "families": list(mf.FAMILIES),
        "space": space,
        "rows": {c: int((y == i).sum()) for i, c in enumerate(mf.FAMILIES)},
        "train_accuracy": round(accuracy, 4),
        "weights": np.round((w * SCALE).T, 6).tolist(),
        "bias": np.round(b, 6).tolist(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cv", action="store_true", help="print the CV table only")
    parser.add_argument("--check", action="store_true", help="compare with the shipped weights")
    parser.add_argument("--cache", type=Path, help="an .npz keeping the vectors between runs")
    args = parser.parse_args()
    data = rows()
    x, space = _vectors(data, args.cache)
    if args.cv:
        print(json.dumps(cross_validate(data, x), indent=1))
        return 0
    model = fit(data, x, space)
    if args.check:
        shipped = json.loads(mf.WEIGHTS.read_text())
        drift, reproduces = compare(model, shipped, "families")
        print(json.dumps({"rows": model["rows"], "max_drift": drift}))
        return 0 if reproduces else 1
    mf.WEIGHTS.write_text(json.dumps(model, separators=(",", ":")) + "\n")
    print(json.dumps({k: model[k] for k in ("rows", "train_accuracy")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
