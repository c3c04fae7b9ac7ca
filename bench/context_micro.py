"""Per-call costs inside the context server that no SQL plan shows: the
driver's dumping of id lists, JSON decoding of fact values, building the
row values, the trace's score rounding and recipe description. Pure Python,
no database.

    .venv/bin/python bench/context_micro.py

Each line gives the cheaper way Haki takes beside the one it replaced, in
microseconds (best of five runs of many repetitions).
"""

from __future__ import annotations

import json
import math
import random
import timeit
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import fields, make_dataclass
from datetime import UTC, datetime

from psycopg.adapt import PyFormat, Transformer

from haki.context.config import DEFAULT, described
from haki.context.episode_ranking import bm25_scores
from haki.context.types import Decision, FactRow, ScoreParts, six_places
from haki.storage.db import json_loads
from haki.text.bm25 import idf, term_score


def bm25_by_term_score(docs: list[Counter[str]], terms: list[str]) -> list[float]:
    """BM25 as ``bm25_scores`` computed it before: ``term_score`` per
    (doc, query term), every query term tested against each doc."""
    lengths = [sum(d.values()) for d in docs]
    avg = sum(lengths) / len(lengths)
    wanted = set(terms)
    present = [d.keys() & wanted for d in docs]
    df = Counter(t for found in present for t in found)
    weights = {t: idf(df[t], len(docs)) for t in wanted if df[t]}
    return [
        math.fsum(
            term_score(doc[t], w, length, avg, 1.2, 0.75) for t, w in weights.items() if t in found
        )
        if found
        else 0.0
        for doc, length, found in zip(docs, lengths, present, strict=True)
    ]


def best_us(fn: Callable[[], object], number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def main() -> None:
    rng = random.Random(1)
    ids = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(128)]
    tx = Transformer()
    text = tx.get_dumper(ids, PyFormat.TEXT)
    binary = tx.get_dumper(ids, PyFormat.BINARY)
    values = [json.dumps(f"works at Company {n} as an engineer").encode() for n in range(100)]
    scores = [
        ScoreParts(rng.random(), rng.random(), 0.0, rng.random(), rng.random()) for _ in range(150)
    ]
    decisions = [
        Decision("episode", i, "included", "top_score", n, s, 12)
        for n, (i, s) in enumerate(zip(ids, scores, strict=False))
    ]
    # FactRow as it was, frozen: its __init__ sets each field through
    # object.__setattr__.
    frozen = make_dataclass(
        "FrozenFactRow",
        [(f.name, f.type, f) for f in fields(FactRow) if f.init],
        frozen=True,
        slots=True,
    )
    now = datetime.now(UTC)
    row = {
        "predicate": "works_at",
        "value_json": '"Danone"',
        "confidence": 0.9,
        "valid_from": None,
        "recorded_from": now,
        "last_reinforced_at": now,
        "source_event_ids": (),
        "fact_kind": "attribute",
        "volatility": "stable",
        "search_text": "works at: Danone",
        "distance": 0.3,
        "fulltext": 0.1,
    }
    # A LoCoMo-sized ranking pool: 170 turns of 25 words from 150, 8 query terms.
    vocab = [f"w{n}" for n in range(150)]
    turns = [Counter(rng.choices(vocab, k=25)) for _ in range(170)]
    terms = rng.sample(vocab, 8)
    lengths = [sum(t.values()) for t in turns]
    assert bm25_by_term_score(turns, terms) == bm25_scores(turns, terms, 1.2, 0.75, lengths)
    rows = [
        (
            "BM25 of 170 turns, 8 terms: term_score per term",
            best_us(lambda: bm25_by_term_score(turns, terms), 200),
        ),
        (
            "BM25 of 170 turns, 8 terms: bm25_scores, lengths cached",
            best_us(lambda: bm25_scores(turns, terms, 1.2, 0.75, lengths), 200),
        ),
        (
            "128 fact rows built, frozen dataclass",
            best_us(lambda: [frozen(id=i, **row) for i in ids], 500),
        ),
        (
            "128 fact rows built, FactRow (slots, not frozen)",
            best_us(lambda: [FactRow(id=i, **row) for i in ids], 500),
        ),
        ("128 UUIDs dumped as text (%s)", best_us(lambda: text.dump(ids), 500)),
        ("128 UUIDs dumped in binary (%b)", best_us(lambda: binary.dump(ids), 500)),
        ("100 fact values, json.loads", best_us(lambda: [json.loads(v) for v in values], 500)),
        (
            "100 fact values, storage.db.json_loads",
            best_us(lambda: [json_loads(v) for v in values], 500),
        ),
        (
            "750 scores, round(x, 6)",
            best_us(
                lambda: [
                    round(x, 6)
                    for s in scores
                    for x in (s.semantic, s.fulltext, s.recency, s.context, s.total)
                ],
                200,
            ),
        ),
        (
            "750 scores, six_places(x)",
            best_us(
                lambda: [
                    six_places(x)
                    for s in scores
                    for x in (s.semantic, s.fulltext, s.recency, s.context, s.total)
                ],
                200,
            ),
        ),
        (
            f"{len(decisions)} decisions to JSON-ready dicts",
            best_us(lambda: [d.to_json() for d in decisions], 200),
        ),
        ("recipe: cfg.describe()", best_us(DEFAULT.describe, 500)),
        ("recipe: described(cfg), cached", best_us(lambda: described(DEFAULT), 500)),
    ]
    print("| step | µs |\n|---|---:|")
    for name, us in rows:
        print(f"| {name} | {us:.1f} |")


if __name__ == "__main__":
    main()
