"""Retry arithmetic of the LLM client (the HTTP behaviour is tested against a stub server)."""

import random
from datetime import UTC, datetime

from haki.backoff import backoff_s
from haki.providers.llm import BACKOFF_BASE_S, BACKOFF_MAX_S, MAX_RETRY_AFTER_S, retry_after_s


def test_retry_after_seconds_and_http_date():
    now = datetime(2024, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_s("3") == 3.0
    assert retry_after_s("Mon, 01 Jan 2024 12:00:05 GMT", now) == 5.0
    assert retry_after_s("Mon, 01 Jan 2024 11:00:00 GMT", now) == 0.0
    assert retry_after_s("9999") == MAX_RETRY_AFTER_S
    assert retry_after_s(None) is None and retry_after_s("soon") is None


def test_backoff_is_jittered_and_capped():
    rng = random.Random(1)
    samples = [backoff_s(a, base_s=BACKOFF_BASE_S, max_s=BACKOFF_MAX_S, rng=rng) for a in range(12)]
    ceilings = [min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2**a) for a in range(12)]
    assert all(c / 2 <= s <= c for s, c in zip(samples, ceilings, strict=True))
    assert len(set(samples)) == len(samples)
