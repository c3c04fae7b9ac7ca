"""bench/_prewarm.py: the context tables read into shared_buffers, indexes first, within a budget."""

import psycopg
import pytest

from bench_modules import load_bench


@pytest.fixture(scope="module")
def warm():
    return load_bench("_prewarm.py", "bench_prewarm")


def _blocks(db_url: str, names: list[str]) -> dict[str, int]:
    with psycopg.connect(db_url) as conn:
        return {
            name: conn.execute(
                "SELECT pg_relation_size(%s::regclass) / current_setting('block_size')::bigint",
                (name,),
            ).fetchone()[0]
            for name in names
        }


@pytest.mark.superuser
def test_indexes_come_first_and_the_budget_holds(warm, db_url):
    everything = warm.prewarm(db_url)
    assert everything.skipped == []
    names = everything.loaded
    assert {"facts", "episode_chunks", "facts_embedding", "episode_chunks_embedding"} <= set(names)
    heaps = [names.index(table) for table in warm.CONTEXT_TABLES]
    indexes = [i for i, name in enumerate(names) if name not in warm.CONTEXT_TABLES]
    assert max(indexes) < min(heaps)
    sizes = _blocks(db_url, names)
    assert everything.blocks == sum(sizes.values()) > 0
    with psycopg.connect(db_url) as conn:
        block = int(conn.execute("SELECT current_setting('block_size')").fetchone()[0])
    assert everything.bytes == everything.blocks * block

    # One block short of everything: the largest relation that no longer fits
    # is left out, and what is loaded stays within the budget.
    short = warm.prewarm(db_url, budget_blocks=everything.blocks - 1)
    assert short.skipped
    assert short.blocks <= everything.blocks - 1
    assert short.blocks + sum(sizes[name] for name in short.skipped) == everything.blocks
