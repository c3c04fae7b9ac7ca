"""Fixtures of the consolidator's integration tests."""

from __future__ import annotations

import pytest

from haki.config import load_settings
from haki.consolidator import Worker
from haki.providers.extraction import FakeExtractor, RulesExtractor


@pytest.fixture
def worker_settings():
    return load_settings(auth="off", database_url=None, job_max_attempts=3, job_claim_timeout_s=30)


@pytest.fixture
def fake_worker(db, hash_embedder, worker_settings) -> Worker:
    return Worker(
        db,
        embedder=hash_embedder,
        extractor=FakeExtractor(),
        settings=worker_settings,
        name="w-fake",
    )


@pytest.fixture
def rules_worker(db, hash_embedder, worker_settings) -> Worker:
    return Worker(
        db,
        embedder=hash_embedder,
        extractor=RulesExtractor(),
        settings=worker_settings,
        name="w-rules",
    )
