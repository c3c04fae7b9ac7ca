"""Faults under load with several API processes, each bounded to seconds.

A killed API process, a replay storm spread over processes, and the database
refusing connections for a while (what a restart looks like to a client):
every batch is wholly present or wholly absent, the other processes keep
answering, and every process recovers by itself.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import psycopg
from fleet import Server, admin_key, bearer, event, fleet, kill9, restart
from psycopg import sql

BATCH = 20
QUIET = {"HAKI_WORKER_IN_PROCESS": "false", "HAKI_RATE_LIMIT_PER_MINUTE": "0"}


def _capture(server: Server, key: str, events: list[dict[str, Any]], **batch: Any) -> int:
    r = httpx.post(
        f"{server.url}/v1/capture",
        json={"events": events, **batch},
        headers=bearer(key),
        timeout=30,
    )
    return r.status_code


def _batch(project: str, tag: str) -> list[dict[str, Any]]:
    return [event(project, "u1", f"{tag} message {i}") for i in range(BATCH)]


def _stored_per_batch(db_url: str, project: str) -> dict[str, int]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT split_part(payload->>'content', ' ', 1), count(*) FROM events "
            "WHERE project_id = %s GROUP BY 1",
            (project,),
        ).fetchall()
    return {tag: n for tag, n in rows}


def test_kill9_of_an_api_process_mid_capture_stream(db_url, tmp_path):
    with fleet(db_url, tmp_path, 2, QUIET) as servers:
        a, b = servers
        key = admin_key(a, "p-kill")
        answered: dict[str, int] = {}
        sent: list[str] = []
        killed = threading.Event()

        def stream(server: Server, name: str, after_kill: int) -> None:
            n = 0
            extra = 0
            while extra < after_kill:
                tag = f"{name}{n}"
                sent.append(tag)
                try:
                    answered[tag] = _capture(server, key, _batch("p-kill", tag))
                except httpx.HTTPError:
                    return  # the process is gone
                n += 1
                if killed.is_set():
                    extra += 1

        threads = [
            threading.Thread(target=stream, args=(a, "a", 1000)),
            threading.Thread(target=stream, args=(b, "b", 10)),
        ]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while sum(t.startswith("a") for t in answered) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        kill9(a.proc.pid)
        killed.set()
        for t in threads:
            t.join(60)
        assert not any(t.is_alive() for t in threads)

        # b kept answering through the kill.
        after = [s for t, s in answered.items() if t.startswith("b")]
        assert after and set(after) == {202}

        again = restart(db_url, a)
        servers.append(again)
        assert _capture(again, key, _batch("p-kill", "r0")) == 202
        sent.append("r0")

        stored = _stored_per_batch(db_url, "p-kill")
        for tag in sent:
            assert stored.get(tag, 0) in (0, BATCH), (tag, stored.get(tag))
        for tag, status in answered.items():
            assert status == 202 and stored[tag] == BATCH, tag
        assert set(stored) <= set(sent)


def test_replay_storm_across_processes(db_url, tmp_path):
    clients, replays = 50, 10
    with fleet(db_url, tmp_path, 2, QUIET) as servers:
        key = admin_key(servers[0], "p-storm")
        keyed = [event("p-storm", "u1", f"keyed {i}") for i in range(100)]
        plain = [event("p-storm", "u2", f"plain {i}") for i in range(100)]

        def client(n: int) -> list[list[str]]:
            server = servers[n % len(servers)]
            body: dict[str, Any] = {"events": keyed if n % 2 else plain}
            if n % 2:
                body["idempotency_key"] = "storm-batch"
            seen = []
            with httpx.Client(base_url=server.url, headers=bearer(key), timeout=60) as c:
                for _ in range(replays):
                    r = c.post("/v1/capture", json=body)
                    assert r.status_code == 202, r.text
                    seen.append([e["id"] for e in r.json()["events"]])
            return seen

        with ThreadPoolExecutor(clients) as pool:
            answers = list(pool.map(client, range(clients)))

    for parity in (0, 1):
        ids = {tuple(ids) for n, seen in enumerate(answers) if n % 2 == parity for ids in seen}
        assert len(ids) == 1 and len(set(next(iter(ids)))) == 100
    with psycopg.connect(db_url) as conn:
        total = conn.execute("SELECT count(*) FROM events WHERE project_id = 'p-storm'").fetchone()
    assert total == (200,)


@contextmanager
def _database_away(db_url: str) -> Any:
    """New connections refused and open ones cut: a restart, as clients see it."""
    name = psycopg.conninfo.conninfo_to_dict(db_url)["dbname"]
    maintenance = psycopg.conninfo.make_conninfo(db_url, dbname="postgres")
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS false").format(sql.Identifier(name))
        )
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )
        try:
            yield
        finally:
            conn.execute(
                sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS true").format(sql.Identifier(name))
            )


def test_database_outage_under_load_answers_503_fast_and_every_process_recovers(db_url, tmp_path):
    with fleet(db_url, tmp_path, 2, QUIET) as servers:
        key = admin_key(servers[0], "p-outage")

        def call(server: Server) -> tuple[int, float, str]:
            started = time.monotonic()
            r = httpx.post(
                f"{server.url}/v1/context",
                json={"project_id": "p-outage", "subject_id": "u1", "query": "hello"},
                headers=bearer(key),
                timeout=30,
            )
            kind = r.json().get("error", {}).get("type", "") if r.status_code != 200 else ""
            return r.status_code, time.monotonic() - started, kind

        assert {call(s)[0] for s in servers} == {200}
        with _database_away(db_url), ThreadPoolExecutor(8) as pool:
            during = list(pool.map(call, servers * 8))
        for status, elapsed, kind in during:
            assert status == 503 and kind == "database_unavailable", (status, kind)
            # Bounded by the pool timeout (HAKI_DB_TIMEOUT_S, 5 s), never the client's 30 s.
            assert elapsed < 15, elapsed
        deadline = time.monotonic() + 30
        recovered: set[int] = set()
        while time.monotonic() < deadline and len(recovered) < len(servers):
            for i, s in enumerate(servers):
                if call(s)[0] == 200:
                    recovered.add(i)
            time.sleep(0.2)
        assert recovered == set(range(len(servers)))
        assert _capture(servers[1], key, _batch("p-outage", "after")) == 202
