"""Many API processes on one database: what must be shared is shared through PostgreSQL.

Every server here is a real ``haki serve`` process. With ``--workers 2`` the
kernel picks the process for each connection, so the tests that need to name
the process (read-your-writes, revocation, a limit split across processes)
start separate single-process servers on the same database instead.
"""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
from fleet import Server, admin_key, bearer, children, event, fleet, kill9

from haki.cli.server import WORKER_HEALTHCHECK_S


def _one_window() -> None:
    """Start a burst early in a minute, so it cannot straddle two limit windows."""
    second = datetime.now(UTC).second
    if second >= 45:
        time.sleep(61 - second)


def _context(server: Server, key: str, project: str, subject: str = "u1") -> httpx.Response:
    return httpx.post(
        f"{server.url}/v1/context",
        json={"project_id": project, "subject_id": subject, "query": "where do I live?"},
        headers=bearer(key),
        timeout=30,
    )


def test_serve_workers_two_shares_one_limit_and_survives_a_killed_process(db_url, tmp_path):
    limit = 6
    with fleet(
        db_url, tmp_path, 1, {"HAKI_RATE_LIMIT_PER_MINUTE": str(limit)}, ("--workers", "2")
    ) as (server,):
        workers = children(server.proc.pid)
        assert len(workers) == 2
        key = admin_key(server, "p-many")
        _one_window()
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: _context(server, key, "p-many"), range(20)))
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200] * limit + [429] * (20 - limit)
        refused = next(r for r in answers if r.status_code == 429)
        assert refused.json()["error"]["type"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60

        kill9(workers[0])
        # The surviving process answers at once; the supervisor replaces the dead one.
        assert httpx.get(f"{server.url}/health", timeout=10).status_code == 200
        now = _replaced_within(server, workers[0], WORKER_HEALTHCHECK_S + 50)
        assert len(now) == 2 and workers[0] not in now and workers[1] in now


def _replaced_within(server: Server, dead: int, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = children(server.proc.pid)
        if len(now) == 2 and dead not in now:
            break
        time.sleep(0.5)
    return now


def test_a_process_killed_while_its_ping_is_pending_is_replaced_in_time(db_url, tmp_path):
    # The supervisor keeps its end of each process's pipe open, so a process
    # that dies while a ping is pending gives it no end-of-file: it is seen
    # only when the ping's wait runs out. Stopping the process first makes
    # that race certain; the supervisor pings every half second. The bound
    # leaves 30 s for the replacement to start; uvicorn's default wait (60 s)
    # cannot meet it.
    with fleet(db_url, tmp_path, 1, {}, ("--workers", "2")) as (server,):
        first, second = children(server.proc.pid)
        os.kill(first, signal.SIGSTOP)
        time.sleep(1.5)
        kill9(first)
        now = _replaced_within(server, first, WORKER_HEALTHCHECK_S + 30)
        assert WORKER_HEALTHCHECK_S + 30 < 60
        assert len(now) == 2 and first not in now and second in now
        assert httpx.get(f"{server.url}/health", timeout=10).status_code == 200


def test_the_limit_holds_across_two_servers(db_url, tmp_path):
    limit = 4
    with fleet(db_url, tmp_path, 2, {"HAKI_RATE_LIMIT_PER_MINUTE": str(limit)}) as (a, b):
        key = admin_key(a, "p-limit")
        other = admin_key(b, "p-limit")
        _one_window()
        statuses = [_context(s, key, "p-limit").status_code for s in (a, b) * 5]
        assert statuses == [200] * limit + [429] * (10 - limit)
        # Another key of the same project keeps its own allowance.
        assert _context(b, other, "p-limit").status_code == 200


def test_read_your_writes_and_revocation_across_three_servers(db_url, tmp_path):
    # No worker beside the APIs: the consolidate call on b does the work.
    with fleet(db_url, tmp_path, 3, {"HAKI_WORKER_IN_PROCESS": "false"}) as (a, b, c):
        key = admin_key(a, "p-ryw")
        r = httpx.post(
            f"{a.url}/v1/capture",
            json={"events": [event("p-ryw", "maya", "I live in Lyon.")]},
            headers=bearer(key),
            timeout=30,
        )
        assert r.status_code == 202, r.text
        r = httpx.post(
            f"{b.url}/v1/consolidate/subject",
            params={"project_id": "p-ryw", "subject_id": "maya"},
            headers=bearer(key),
            timeout=60,
        )
        assert r.status_code == 200, r.text
        r = _context(c, key, "p-ryw", "maya")
        assert r.status_code == 200
        facts = r.json()["packet"]["facts"]
        assert any("Lyon" in str(f["value"]) for f in facts), facts

        # Keys are looked up on every request (no cache): a key revoked
        # through one process is refused by the others on their next call.
        assert _context(b, key, "p-ryw", "maya").status_code == 200
        key_id = httpx.get(
            f"{a.url}/v1/keys", params={"project_id": "p-ryw"}, headers=bearer(key), timeout=30
        ).json()["keys"][0]["id"]
        revoked = httpx.delete(f"{a.url}/v1/keys/{key_id}", headers=bearer(key), timeout=30)
        assert revoked.status_code == 200, revoked.text
        for server in (b, c):
            refused = _context(server, key, "p-ryw", "maya")
            assert refused.status_code == 401
            assert refused.json()["error"]["type"] == "unauthorized"
