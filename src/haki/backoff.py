"""Retry delays: exponential, capped, with jitter so that retries never move in lockstep."""

from __future__ import annotations

import random


def backoff_s(
    retry: int, *, base_s: float, max_s: float, rng: random.Random | None = None
) -> float:
    """Delay before retry number ``retry`` (0 for the first): uniform in [c/2, c],
    where c = min(max_s, base_s * 2**retry). Half the ceiling is kept as a floor,
    so a retry never comes back at once."""
    ceiling = min(max_s, base_s * 2 ** max(0, retry))
    return (rng or random).uniform(ceiling / 2, ceiling)
