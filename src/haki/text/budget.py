"""Token estimates for budgets: one rule for context packets and Engram alike."""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    """A quarter of the length, at least 1: close enough for budgets, no tokenizer needed."""
    return max(1, len(text) // 4)
