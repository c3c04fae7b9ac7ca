"""Planner statistics follow consolidation: a table it fills is analysed at
once, not a minute later by autovacuum, and only when its statistics are stale."""

from __future__ import annotations

import asyncio

import psycopg
from consolidator_helpers import add_events

from haki.config import load_settings
from haki.consolidator import Worker, run_pending
from haki.providers.extraction import RulesExtractor
from haki.storage import Database
from haki.storage.maintenance import TRY_ANALYZE_LOCK, refresh_stale_statistics

TABLES = ("episode_chunks", "facts")
RELTUPLES = "SELECT relname, reltuples FROM pg_class WHERE relname = ANY(%s) ORDER BY relname"


def reltuples(url: str) -> dict[str, float]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute(RELTUPLES, (list(TABLES),)).fetchall())


def forget_statistics(url: str) -> None:
    """Back to 'never analysed' (reltuples -1), as in a new database."""
    with psycopg.connect(url, autocommit=True) as conn:
        for table in TABLES:
            conn.execute("SELECT pg_clear_relation_stats('public', %s)", (table,))


def worker(db: Database, embedder) -> Worker:
    return Worker(
        db,
        embedder=embedder,
        extractor=RulesExtractor(),
        settings=load_settings(auth="off", database_url=None),
        name="stats",
    )


async def test_consolidation_analyses_the_tables_it_filled(db, db_url, hash_embedder):
    await add_events(db, [{"text": f"I live in Paris and I play chess {i}."} for i in range(30)])
    forget_statistics(db_url)
    assert reltuples(db_url) == {"episode_chunks": -1, "facts": -1}

    assert (await run_pending(worker(db, hash_embedder))).jobs == {"done": 1}

    after = reltuples(db_url)
    assert after["episode_chunks"] == 30
    assert after["facts"] >= 1


async def test_fresh_statistics_are_left_alone(db, db_url, hash_embedder):
    await add_events(db, [{"text": "I live in Paris."}])
    await run_pending(worker(db, hash_embedder))
    assert await refresh_stale_statistics(db, TABLES) == []


async def test_an_empty_table_is_not_analysed(db, db_url):
    forget_statistics(db_url)
    assert await refresh_stale_statistics(db, TABLES) == []
    assert reltuples(db_url) == {"episode_chunks": -1, "facts": -1}


async def test_another_process_analysing_makes_it_skip(db, db_url, hash_embedder):
    await add_events(db, [{"text": f"I work at Globex {i}."} for i in range(5)])
    await run_pending(worker(db, hash_embedder))
    forget_statistics(db_url)
    with psycopg.connect(db_url) as other:
        other.execute(TRY_ANALYZE_LOCK)  # held until this transaction ends
        assert await refresh_stale_statistics(db, TABLES) == []
        assert reltuples(db_url)["episode_chunks"] == -1
    assert await refresh_stale_statistics(db, TABLES) == ["episode_chunks", "facts"]
    assert reltuples(db_url)["episode_chunks"] == 5


async def test_a_failed_analyze_never_fails_the_caller(db_url):
    closed = Database(db_url, min_size=1, max_size=1)
    await closed.open()
    await closed.close()  # every statement now fails
    assert await asyncio.wait_for(refresh_stale_statistics(closed, TABLES), 10) == []


async def test_a_drain_checks_statistics_after_its_first_batch_and_at_its_end(
    db, db_url, hash_embedder, monkeypatch
):
    """20 subjects, so three claimed batches of at most 8 jobs: two checks
    (the process's first batch, then the end of the drain), not three."""
    from haki.consolidator import worker as worker_module

    for n in range(20):
        await add_events(db, [{"text": f"I live in Paris {n}."}], subject_id=f"s{n}")
    checks: list[tuple[str, ...]] = []
    real = worker_module.refresh_stale_statistics

    async def counted(database, tables):
        checks.append(tuple(tables))
        return await real(database, tables)

    monkeypatch.setattr(worker_module, "refresh_stale_statistics", counted)
    forget_statistics(db_url)
    assert (await run_pending(worker(db, hash_embedder))).jobs == {"done": 20}
    assert len(checks) == 2
    # Analysed after the first batch; the 12 rows after it stay under
    # autovacuum's threshold, so the end's check leaves them.
    assert reltuples(db_url)["episode_chunks"] == 8
