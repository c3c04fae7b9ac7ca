"""Retry arithmetic of the LLM client (the HTTP behaviour is tested against a stub server)."""

import random
from datetime import UTC, datetime

from haki.providers.llm import BACKOFF_MAX_S, MAX_RETRY_AFTER_S, backoff_s, retry_after_s


def test_retry_after_seconds_and_http_date():
    now = datetime(2024, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_s("3") == 3.0
    assert retry_after_s("Mon, 01 Jan 2024 12:00:05 GMT", now) == 5.0
    assert retry_after_s("Mon, 01 Jan 2024 11:00:00 GMT", now) == 0.0
    assert retry_after_s("9999") == MAX_RETRY_AFTER_S
    assert retry_after_s(None) is None and retry_after_s("soon") is None


def test_backoff_is_jittered_and_capped():
    rng = random.Random(1)
    samples = [backoff_s(a, rng) for a in range(12)]
    assert all(0 <= s <= BACKOFF_MAX_S for s in samples)
    assert len(set(samples)) == len(samples)
