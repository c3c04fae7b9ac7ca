"""Which claimed jobs a lookahead's vectors serve (consolidator/lookahead.py)."""

from __future__ import annotations

import uuid

from haki.consolidator.lookahead import Ahead, covers
from haki.providers.embed import HashEmbedder

A, B, C = (uuid.uuid4() for _ in range(3))


def test_a_lookahead_serves_the_jobs_it_embedded_and_no_others() -> None:
    ahead = Ahead(frozenset({A, B}), HashEmbedder())
    assert covers(ahead, [A]) and covers(ahead, [A, B])
    assert not covers(ahead, [A, C])  # a job it did not read: the claim is primed again
    assert not covers(ahead, [])
    assert not covers(None, [A])
