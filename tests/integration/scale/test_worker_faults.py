"""``kill -9`` of a ``haki worker`` holding claims while another worker runs.

Two real worker processes share one queue. The first is paused inside its
first job (its chunks written, uncommitted) while it holds the claims of a
whole batch; the second drains every other subject meanwhile. After the kill
every job completes exactly once (the facts equal a clean run's, one chunk
per event) and the dead worker's subjects resume within the release
interval, long before the claim timeout.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "consolidator"))
import pytest
from consolidator_helpers import add_events
from test_worker_crash import (
    SCRIPT,
    clean_url,  # noqa: F401 (a fixture)
    query,
    same_as_a_clean_run,
    spawn_worker,
    wait_for,
)

from haki.consolidator.worker import CLAIM_BATCH
from haki.storage import Database

SUBJECTS = 12
# Far beyond the test's bound: only the dead-pid release can free the claims in time.
CLAIM_TIMEOUT_S = "600"
RELEASE_INTERVAL_S = 1.0


async def _seed(url: str) -> None:
    """Three jobs for each subject, queued job by job: the first batch holds one job per subject."""
    db = Database(url, min_size=1, max_size=2)
    await db.open()
    try:
        for j, texts in enumerate(SCRIPT):
            for s in range(SUBJECTS):
                await add_events(
                    db, [{"text": t} for t in texts], subject_id=f"s{s:02d}", start=10 * j
                )
    finally:
        await db.close()


def _count(url: str, where: str, params: tuple[object, ...] = ()) -> int:
    return int(query(url, f"SELECT count(*) AS n FROM jobs WHERE {where}", params)[0]["n"])


def _can_name_a_host() -> bool:
    """A UTS namespace needs CAP_SYS_ADMIN (root here and in CI)."""
    try:
        done = subprocess.run(
            ["unshare", "--uts", "hostname", "haki-probe"], capture_output=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@pytest.mark.parametrize("doomed_host", [None, "another-host"], ids=["same-host", "another-host"])
async def test_kill9_of_a_worker_holding_claims_while_another_runs(
    db_url,
    clean_url,  # noqa: F811
    hash_embedder,
    doomed_host,
):
    """On another host the survivor cannot see the dead pid: it sees that no
    connection of that process is left (jobs.claimer_dead)."""
    if doomed_host is not None and not _can_name_a_host():
        pytest.skip("unshare --uts is not permitted here (needs root)")
    await _seed(db_url)
    total = _count(db_url, "true")
    env = {
        "HAKI_JOB_CLAIM_TIMEOUT_S": CLAIM_TIMEOUT_S,
        "HAKI_JOB_RELEASE_INTERVAL_S": str(RELEASE_INTERVAL_S),
    }
    doomed = spawn_worker(db_url, pause_s=120, hostname=doomed_host, **env)
    survivor = None
    try:
        wait_for(
            lambda: _count(db_url, "claimed_by LIKE %s", (f"%:{doomed.pid}:%",)) == CLAIM_BATCH,
            60,
            "the first worker's claims",
            doomed,
        )
        running = query(
            db_url, "SELECT id, subject_id, claimed_by FROM jobs WHERE status = 'running'"
        )
        held = {r["id"]: r["subject_id"] for r in running}
        assert len(set(held.values())) == CLAIM_BATCH
        if doomed_host is not None:
            assert all(r["claimed_by"].startswith(f"{doomed_host}:") for r in running)

        survivor = spawn_worker(db_url, **env)
        # The survivor drains every subject the first worker holds no claim on.
        others = (SUBJECTS - CLAIM_BATCH) * len(SCRIPT)
        wait_for(
            lambda: _count(db_url, "status = 'done'") == others, 60, "the free subjects", survivor
        )
        assert {
            r["id"] for r in query(db_url, "SELECT id FROM jobs WHERE status = 'running'")
        } == set(held)

        doomed.send_signal(signal.SIGKILL)
        doomed.wait(10)
        killed_at = time.monotonic()
        wait_for(lambda: _count(db_url, "status = 'done'") == total, 60, "every job done", survivor)
        resumed_in = time.monotonic() - killed_at
    finally:
        doomed.kill()
        if survivor is not None:
            survivor.send_signal(signal.SIGTERM)
            code = survivor.wait(20)
            assert code == 0, survivor.stderr.read().decode()[-2000:] if survivor.stderr else ""

    # No subject waited for the claim timeout: the release interval plus the work bounds it.
    assert resumed_in < 30, resumed_in
    jobs = query(
        db_url, "SELECT id, attempts, claimed_by, result FROM jobs ORDER BY created_at, id"
    )
    assert all(j["attempts"] == (2 if j["id"] in held else 1) for j in jobs)
    assert all(f":{survivor.pid}:" in j["claimed_by"] for j in jobs)
    # Exactly once: the same facts as one clean in-process run over the same events.
    clean = await same_as_a_clean_run(db_url, clean_url, _seed, hash_embedder, total)
    assert len(clean) >= 3 * SUBJECTS
