"""Per-key token buckets, in process memory.

Each process keeps its own buckets, so N API processes behind a load
balancer allow up to N times the configured rate per key; the limit guards
a process against one noisy key, not a fleet-wide quota.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """``per_minute`` requests per key, with bursts up to one minute's worth.

    ``per_minute = 0`` disables the limit.
    """

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic):
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0  # tokens per second
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}

    @property
    def enabled(self) -> bool:
        return self.capacity > 0

    def acquire(self, key: str) -> int | None:
        """Take one token for ``key``; None when allowed, else whole seconds to wait."""
        if not self.enabled:
            return None
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(tokens=self.capacity, updated=now)
        bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.updated) * self.rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        return max(1, math.ceil((1.0 - bucket.tokens) / self.rate))
