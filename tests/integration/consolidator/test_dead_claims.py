"""A restarted process gives back, at once, the jobs a dead process of its host
claimed: they do not wait out the claim timeout (300 s by default)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from test_worker_crash import kill_mid_job, query, seed

from haki import jobs
from haki.config import load_settings
from haki.consolidator import Worker, run_pending
from haki.providers.extraction import RulesExtractor
from haki.storage import Database
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


async def test_only_dead_claims_of_this_host_are_released(db_url):
    await seed(db_url)
    ids = [r["id"] for r in query(db_url, "SELECT id FROM jobs ORDER BY created_at, id")][:3]
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    host = socket.gethostname()
    claimers = [
        jobs.claimer(host, gone.pid, "dead"),
        jobs.claimer(host, os.getpid(), "alive"),
        jobs.claimer("another-host", gone.pid, "elsewhere"),
    ]
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
    assert released == [ids[0]]
    states = {r["id"]: r for r in query(db_url, "SELECT id, status, last_error FROM jobs")}
    assert states[ids[0]]["status"] == "pending"
    assert "dead" in states[ids[0]]["last_error"]
    assert states[ids[1]]["status"] == states[ids[2]]["status"] == "running"
