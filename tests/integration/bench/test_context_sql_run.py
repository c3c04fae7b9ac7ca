"""bench/context_latency.py's statement table: the fact full-text leg at the
recipe's word limit and at twice it, on the same questions.

A word in more facts than the recipe's limit and fewer than twice it is
ranked at the second limit and left out at the first, so the two rows of the
table time different work: what the table claims to compare.
"""

import pytest

from bench_modules import load_bench
from seeding import copy_facts

RARE = 3  # facts naming Danone; every fact holds "works"


@pytest.fixture(scope="module")
def latency():
    return load_bench("context_latency.py", "bench_context_latency")


def test_each_word_limit_row_times_the_matches_it_says(latency, db_url, hash_embedder):
    low, high = latency.WORD_LIMITS
    common = (low + high) // 2
    texts = [f"Person {i} works at Company {i % 40}" for i in range(common - RARE)]
    texts += [f"Person {i} works at Danone" for i in range(RARE)]
    copy_facts(
        db_url, latency.PROJECT, latency.SUBJECT, texts, hash_embedder.embed_documents(texts)
    )

    run = latency.sql_run(db_url, ["Who works at Danone?"], hash_embedder)

    # Twice the limit keeps "works": every fact is a match, and all are ranked.
    assert run.ranked[high] == [common]
    # The recipe's limit drops it: only the facts naming Danone are ranked.
    assert run.ranked[low] == [RARE]
    assert all(len(times) == 1 for times in (*run.lexical.values(), run.two_phase, run.naive))
