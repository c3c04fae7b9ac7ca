"""Fixtures of the ledger's integration tests."""

from __future__ import annotations

import pytest
from ledger_helpers import insert_fact


@pytest.fixture
def facts_in(db_url):
    def make(**kw) -> str:
        return insert_fact(db_url, **kw)

    return make
