"""Okapi BM25 over weighted term frequencies (BM25F-style field weighting)."""

from __future__ import annotations

import math


def idf(df: int, n: int) -> float:
    # The +1 inside the log keeps idf positive for terms present in most memories.
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def term_score(
    tf: float, idf_value: float, length: float, avg_length: float, k1: float, b: float
) -> float:
    norm = 1.0 - b + b * (length / avg_length if avg_length > 0 else 1.0)
    return idf_value * tf * (k1 + 1.0) / (tf + k1 * norm)
