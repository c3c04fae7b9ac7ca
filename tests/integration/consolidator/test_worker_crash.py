"""Crash safety: SIGKILL a worker mid-job, start another, compare with a clean run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import psycopg
import pytest
from consolidator_helpers import add_events, as_url
from psycopg import sql

from haki.config import load_settings
from haki.consolidator import Worker, run_pending
from haki.providers.extraction import RulesExtractor
from haki.storage import Database

TEMPLATE = "haki_test_template"
SCRIPT = [
    ["I live in Paris. My sister Anna lives nearby.", "I love hiking."],
    ["I moved to Lyon last week.", "I work at Globex."],
    ["I'm a teacher.", "I love hiking, it keeps me sane."],
]
FACTS = """
SELECT f.subject_id, f.predicate, f.value, f.status, f.valid_from, f.valid_to, f.source_event_ids,
       f.reinforcement_count, f.version, p.predicate AS prev_predicate, p.value AS prev_value
FROM facts f LEFT JOIN facts p ON p.id = f.supersedes_id
ORDER BY f.subject_id, f.valid_from, f.predicate, f.value::text"""


WORKER = "import sys; from haki.cli.main import cli; cli(sys.argv[1:2], prog_name='haki')"

# The worker, pausing after each job's chunks are written (uncommitted) so
# the test can kill it mid-job: ``consolidate`` calls its checkpoint there.
PAUSED_WORKER = """
import asyncio, sys
import haki.consolidator.worker as worker
from haki.cli.main import cli

plain = worker.consolidate

async def pause(stage):
    if stage == "chunks":
        await asyncio.sleep(float(sys.argv[2]))

async def paused(*args, **kwargs):
    return await plain(*args, **(kwargs | {"checkpoint": pause}))

worker.consolidate = paused
cli(sys.argv[1:2], prog_name="haki")
"""


def spawn_worker(
    db_url: str, pause_s: float = 0, hostname: str | None = None, **env: str
) -> subprocess.Popen:
    """A worker process; with ``hostname``, in a UTS namespace of its own under
    that name (as root), so it claims as a worker of another host would."""
    child_env = {
        **os.environ,
        "HAKI_DATABASE_URL": as_url(db_url),
        "HAKI_EMBED_PROVIDER": "hash",
        "HAKI_ALLOW_HASH_EMBEDDER": "true",
        "HAKI_LLM_PROVIDER": "rules",
        "HAKI_JOB_POLL_INTERVAL_S": "0.2",
        "HAKI_LOG_LEVEL": "warning",
        **env,
    }
    argv = [sys.executable, "-c", PAUSED_WORKER if pause_s else WORKER, "worker", str(pause_s)]
    if hostname is not None:
        # unshare execs sh, which execs the worker: the child's pid is the worker's.
        argv = ["unshare", "--uts", "sh", "-c", f'hostname {hostname} && exec "$@"', "sh", *argv]
    return subprocess.Popen(
        argv,
        env=child_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def query(url: str, text: str, params: tuple = ()) -> list[dict]:
    with psycopg.connect(url, row_factory=psycopg.rows.dict_row) as conn:
        return conn.execute(text, params).fetchall()


def wait_for(predicate, timeout_s: float, what: str, child: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        if child.poll() is not None:
            raise AssertionError(
                f"worker exited ({child.returncode}): {child.stderr.read().decode()[-3000:]}"
            )
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def kill_mid_job(db_url: str, **env: str) -> None:
    """Start a worker and SIGKILL it while its first job's writes are in flight."""
    first = spawn_worker(db_url, pause_s=60, **env)
    try:
        wait_for(
            lambda: query(db_url, "SELECT 1 FROM jobs WHERE status = 'running'"),
            60,
            "a running job",
            first,
        )
        time.sleep(0.5)  # the job's chunks are written, uncommitted
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        first.kill()


async def seed(url: str) -> None:
    """The same events (same ids) in any database: three jobs for each of three subjects."""
    db = Database(url, min_size=1, max_size=2)
    await db.open()
    try:
        for s in range(3):
            for j, texts in enumerate(SCRIPT):
                await add_events(db, [{"text": t} for t in texts], subject_id=f"s{s}", start=10 * j)
    finally:
        await db.close()


@pytest.fixture
def clean_url(pg_maintenance_url: str, template_url: str):
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(TEMPLATE)
            )
        )
    info = psycopg.conninfo.conninfo_to_dict(pg_maintenance_url)
    yield psycopg.conninfo.make_conninfo(**{**info, "dbname": name})
    with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


async def same_as_a_clean_run(
    db_url: str, clean_url: str, seed_events, embedder, jobs_total: int
) -> list[tuple]:
    """Assert a crashed run consolidated exactly once: one chunk per event, and
    the facts of one clean in-process run over the same events (returned)."""
    jobs = query(db_url, "SELECT result FROM jobs")
    events = query(db_url, "SELECT count(*) AS n FROM events")[0]["n"]
    chunks = query(
        db_url, "SELECT count(*) AS n, count(DISTINCT event_id) AS e FROM episode_chunks"
    )[0]
    assert chunks["n"] == chunks["e"] == events == sum(j["result"]["chunks"] for j in jobs)

    await seed_events(clean_url)
    clean_db = Database(clean_url, min_size=1, max_size=2)
    await clean_db.open()
    try:
        worker = Worker(
            clean_db,
            embedder=embedder,
            extractor=RulesExtractor(),
            settings=load_settings(auth="off", database_url=None),
            name="clean",
        )
        assert (await run_pending(worker)).jobs == {"done": jobs_total}
    finally:
        await clean_db.close()
    crashed, clean = facts_by_event_text(db_url), facts_by_event_text(clean_url)
    assert crashed == clean
    return clean


def facts_by_event_text(url: str) -> list[tuple]:
    """Facts with event ids replaced by (subject, occurred_at), comparable across databases."""
    rows = query(url, "SELECT id, subject_id, occurred_at FROM events")
    when = {r["id"]: (r["subject_id"], r["occurred_at"]) for r in rows}
    return [
        (
            f["subject_id"],
            f["predicate"],
            f["value"],
            f["status"],
            f["valid_from"],
            f["valid_to"],
            tuple(when[e] for e in f["source_event_ids"]),
            f["reinforcement_count"],
            f["version"],
            f["prev_predicate"],
            f["prev_value"],
        )
        for f in query(url, FACTS)
    ]


async def test_sigkill_mid_job_then_another_worker_finishes_exactly_once(
    db_url, clean_url, hash_embedder
):
    await seed(db_url)
    jobs_total = len(query(db_url, "SELECT id FROM jobs"))

    kill_mid_job(db_url, HAKI_JOB_CLAIM_TIMEOUT_S="2")
    # The worker claimed the first job of each subject together; it died inside the first.
    killed = {r["id"] for r in query(db_url, "SELECT id FROM jobs WHERE status = 'running'")}
    assert len(killed) == 3
    assert query(db_url, "SELECT count(*) AS n FROM episode_chunks")[0]["n"] == 0
    assert query(db_url, "SELECT count(*) AS n FROM facts")[0]["n"] == 0

    second = spawn_worker(db_url, HAKI_JOB_CLAIM_TIMEOUT_S="2")
    try:
        wait_for(
            lambda: (
                query(db_url, "SELECT count(*) AS n FROM jobs WHERE status = 'done'")[0]["n"]
                == jobs_total
            ),
            90,
            "every job done",
            second,
        )
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(20) == 0, second.stderr.read().decode()[-2000:] if second.stderr else ""

    jobs = query(db_url, "SELECT id, attempts, result FROM jobs ORDER BY created_at, id")
    assert all(j["attempts"] == (2 if j["id"] in killed else 1) for j in jobs)
    clean = await same_as_a_clean_run(db_url, clean_url, seed, hash_embedder, jobs_total)
    assert len(clean) >= 9
