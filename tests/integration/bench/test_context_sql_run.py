"""bench/context_latency.py's statement table: the fact full-text leg at the
recipe's word limit and at twice it, on the same questions.

A word in more facts than the recipe's limit and fewer than twice it is
ranked at the second limit and left out at the first, so the two rows of the
table time different work: what the table claims to compare.
"""

import json
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from pgvector.psycopg import register_vector

from bench_modules import load_bench

RARE = 3  # facts naming Danone; every fact holds "works"


@pytest.fixture(scope="module")
def latency():
    return load_bench("context_latency.py", "bench_context_latency")


def _seed(db_url: str, texts: list[str], embedder, project: str, subject: str) -> None:
    start = datetime.now(UTC) - timedelta(days=30)
    with psycopg.connect(db_url, autocommit=True) as owner:
        register_vector(owner)
        with (
            owner.cursor() as cur,
            cur.copy(
                "COPY facts (project_id, subject_id, predicate, value, status, confidence, "
                "valid_from, recorded_from, search_text, embedding) FROM STDIN"
            ) as copy,
        ):
            for i, (text, vec) in enumerate(
                zip(texts, embedder.embed_documents(texts), strict=True)
            ):
                when = start + timedelta(minutes=i)
                row = (project, subject, "job", json.dumps(text), "active", 0.8, when, when)
                copy.write_row((*row, text, vec))
        owner.execute("ANALYZE facts")


def test_each_word_limit_row_times_the_matches_it_says(latency, db_url, hash_embedder):
    low, high = latency.WORD_LIMITS
    common = (low + high) // 2
    texts = [f"Person {i} works at Company {i % 40}" for i in range(common - RARE)]
    texts += [f"Person {i} works at Danone" for i in range(RARE)]
    _seed(db_url, texts, hash_embedder, latency.PROJECT, latency.SUBJECT)

    run = latency.sql_run(db_url, ["Who works at Danone?"], hash_embedder)

    # Twice the limit keeps "works": every fact is a match, and all are ranked.
    assert run.ranked[high] == [common]
    # The recipe's limit drops it: only the facts naming Danone are ranked.
    assert run.ranked[low] == [RARE]
    assert all(len(times) == 1 for times in (*run.lexical.values(), run.two_phase, run.naive))
