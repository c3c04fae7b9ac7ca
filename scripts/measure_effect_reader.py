"""Measure a risk reader by meaning: would a softmax over the MiniLM sentence vector find risky orders?

    python scripts/measure_effect_reader.py

Not shipped: it is the measurement behind docs/consolidation.md ("Risk by
meaning, weighed"). Rows are the readable injection sets only (never a
blind or held-out file): a hostile row whose effect is risky
(``risk_effect``, ``risky_instruction``, ``exfiltration``, the hostile half
of a mixed row) is ``risky``; a kept row, the kept half of a mixed row and
the wish reader's requests and chat are ``benign``. Each set is held out
in turn and the reader is trained on the others (the wish reader's
trainer, two classes), so every figure is on wording the reader never saw.
Printed per threshold: risky rows read, benign rows flagged (what it would
cost in benign kept), and the risky rows that neither ``text.risk.effects``
nor ``text.reach.reaches`` reads which the reader would add.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "scripts"))

from reader_training import SCALE, jsonl, softmax, train  # noqa: E402

from haki.providers.embed import LocalEmbedder  # noqa: E402
from haki.providers.extraction.meaning import CLASSES  # noqa: E402
from haki.text.reach import reaches  # noqa: E402
from haki.text.risk import effects  # noqa: E402

INJECTION = REPO / "tests" / "fixtures" / "injection"
SETS = (
    "adversarial",
    "train",
    "train2",
    "train3",
    "train4",
    "train5",
    "train7",
    "train8",
    "check8",
    "train9",
)
RISKY_KINDS = {"risk_effect", "risky_instruction", "exfiltration"}
THRESHOLDS = (0.9, 0.95, 0.98)
_JOIN = re.compile(r"^(?:and|also|oh and|et|aussi|puis|mais)\b[ ,]*", re.IGNORECASE)


def _hostile_half(row: dict) -> str:
    text, keep = row["text"], row["keep"]["text"]
    rest = text.replace(keep, " ", 1).strip(" .,;:!")
    return _JOIN.sub("", rest).strip(" .,;:!") or text


def rows() -> list[tuple[str, str, int]]:
    """(set, text, 1 when risky) in file order, each text once."""
    out: list[tuple[str, str, int]] = []
    for name in SETS:
        for row in jsonl(INJECTION / f"{name}.jsonl"):
            if row["expect"] == "kept":
                out.append((name, row["text"], 0))
            elif row.get("keep"):
                out += [(name, row["keep"]["text"], 0), (name, _hostile_half(row), 1)]
            elif row["kind"] in RISKY_KINDS:
                out.append((name, row["text"], 1))
    out += [
        ("wish_reader_train", r["text"], 0) for r in jsonl(INJECTION / "wish_reader_train.jsonl")
    ]
    seen: set[str] = set()
    return [r for r in out if not (r[1] in seen or seen.add(r[1]))]


def main() -> int:
    data = rows()
    x = LocalEmbedder().embed_documents([t for _, t, _ in data]).astype(np.float64) * SCALE
    y = np.array([r for _, _, r in data])
    sets = np.array([s for s, _, _ in data])
    ruled = np.array([bool(effects(t) or reaches(t)) for _, t, _ in data])
    p = np.zeros(len(data))
    for held in (*SETS, "wish_reader_train"):
        # Over the wish reader's four classes, as for the figures of
        # docs/consolidation.md: only ``benign`` (0) and ``risky`` (1) hold rows.
        w, b = train(x[sets != held], y[sets != held], len(CLASSES))
        p[sets == held] = softmax(x[sets == held] @ w + b)[:, 1]
    risky, benign = y == 1, y == 0
    for t in THRESHOLDS:
        hit = p >= t
        print(
            json.dumps(
                {
                    "threshold": t,
                    "risky_read": f"{int((hit & risky).sum())}/{int(risky.sum())}",
                    "benign_flagged": f"{int((hit & benign).sum())}/{int(benign.sum())}",
                    "benign_flagged_the_rules_keep": int((hit & benign & ~ruled).sum()),
                    "risky_added_to_the_rules": f"{int((hit & risky & ~ruled).sum())}"
                    f"/{int((risky & ~ruled).sum())}",
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
