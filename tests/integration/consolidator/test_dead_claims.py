"""A worker gives back, at once, the jobs a dead process claimed, on its host or
another: they do not wait out the claim timeout (300 s by default)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import psycopg
from test_worker_crash import kill_mid_job, query, seed

from haki import jobs
from haki.config import load_settings
from haki.consolidator import Worker, run_pending
from haki.providers.extraction import RulesExtractor
from haki.storage import Database
from haki.storage.db import process_name
from haki.storage.embedded import pid_alive


def _worker(db: Database, hash_embedder) -> Worker:
    # The default claim timeout: only the dead-pid release can free the jobs in time.
    settings = load_settings(auth="off", database_url=None)
    assert settings.job_claim_timeout_s >= 300
    return Worker(db, embedder=hash_embedder, extractor=RulesExtractor(), settings=settings)


async def test_jobs_of_a_killed_worker_are_released_at_once(db_url, hash_embedder):
    await seed(db_url)
    total = len(query(db_url, "SELECT id FROM jobs"))
    kill_mid_job(db_url)  # with the default claim timeout
    held = query(db_url, "SELECT claimed_by FROM jobs WHERE status = 'running'")
    assert held and all(r["claimed_by"].startswith(f"{socket.gethostname()}:") for r in held)

    db = Database(db_url, min_size=1, max_size=2)
    await db.open()
    try:
        summary = await run_pending(_worker(db, hash_embedder))
    finally:
        await db.close()
    assert summary.jobs == {"done": total}
    assert query(db_url, "SELECT count(*) AS n FROM jobs WHERE status = 'done'")[0]["n"] == total


async def test_only_dead_claims_are_released(db_url):
    """Of this host, the claims of a pid that is gone; of another host, the
    claims of a process that holds no connection (by its connections' name)."""
    await seed(db_url)
    ids = [r["id"] for r in query(db_url, "SELECT id FROM jobs ORDER BY created_at, id")][:5]
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    host = socket.gethostname()
    claimers = [
        jobs.claimer(host, gone.pid, "dead"),
        jobs.claimer("another-host", 4242, "gone-elsewhere"),
        jobs.claimer(host, os.getpid(), "alive"),
        jobs.claimer("another-host", 4343, "alive-elsewhere"),
        "written-by-hand",
    ]
    # The process 4343 of another host, as PostgreSQL sees it: a connection by its name.
    elsewhere = await psycopg.AsyncConnection.connect(
        db_url, application_name=process_name("another-host", 4343)
    )
    db = Database(db_url, min_size=1, max_size=2)
    await db.open()
    try:
        async with db.transaction(system=True) as conn:
            for job_id, by in zip(ids, claimers, strict=True):
                await conn.execute(
                    "UPDATE jobs SET status = 'running', claimed_by = %s, claimed_at = now(),"
                    " attempts = 1 WHERE id = %s",
                    (by, job_id),
                )
        async with db.transaction(system=True) as conn:
            released = await jobs.release_dead_claims(
                conn, host=host, alive=pid_alive, max_attempts=5
            )
    finally:
        await db.close()
        await elsewhere.close()
    assert released == ids[:2]
    states = {r["id"]: r for r in query(db_url, "SELECT id, status, last_error FROM jobs")}
    assert all(states[i]["status"] == "pending" for i in ids[:2])
    assert all("dead" in states[i]["last_error"] for i in ids[:2])
    assert all(states[i]["status"] == "running" for i in ids[2:])


def test_another_hosts_claimer_is_dead_only_where_connections_can_be_seen():
    live = process_name("another-host", 4343)
    by = jobs.claimer("another-host", 4242, "t")
    assert jobs.claimer_dead(by, host="here", alive=pid_alive, connected={live})
    assert not jobs.claimer_dead(
        jobs.claimer("another-host", 4343, "t"), host="here", alive=pid_alive, connected={live}
    )
    # Names not visible (None): only the claim timeout frees another host's claims.
    assert not jobs.claimer_dead(by, host="here", alive=pid_alive, connected=None)
    assert not jobs.claimer_dead("written-by-hand", host="here", alive=pid_alive, connected=set())
