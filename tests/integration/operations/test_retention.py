"""Retention: a project's policy set through the API, enforced in batches with a
receipt per run, shown in the stats; the clock moved forward deletes the rest."""

from __future__ import annotations

import os
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import psycopg
import pytest
from ops_helpers import haki
from psycopg.types.json import Jsonb

from haki.retention import enforce_all
from haki.storage import Database
from haki_server import as_url, running

P, OTHER = "prj_ret", "prj_keep"
NOW = datetime.now(UTC)
OLD = NOW - timedelta(days=100)

EVENT = """
INSERT INTO events (project_id, subject_id, kind, occurred_at, recorded_at, payload, hash, idempotency_key)
VALUES (%s, %s, 'conversation.turn', %s, %s, '{"text": "hi"}', 'sha256:x', %s) RETURNING id"""
CHUNK = """
INSERT INTO episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text)
VALUES (%s, 0, %s, %s, 'conversation.turn', %s, 'hi')"""
TRACE = """
INSERT INTO context_traces (project_id, subject_id, query, packet, decisions, created_at)
VALUES (%s, 'u1', 'where?', %s, %s, %s)"""
FACT = """
INSERT INTO facts (project_id, subject_id, predicate, value, status, source_event_ids)
VALUES (%s, 'u1', 'home_city', '"Lyon"', 'active', %s)"""
COUNT = "SELECT count(*) FROM {} WHERE project_id = %s"


def seed(db_url: str) -> None:
    """Per project: 5 events a hundred days old (one with a chunk), 1 old event
    captured today (a backfill), 2 recent events; 3 old traces and 1 recent; a fact."""
    with psycopg.connect(db_url) as conn:
        for project in (P, OTHER):
            n = 0

            def event(occurred: datetime, recorded: datetime, project: str = project) -> str:
                nonlocal n
                n += 1
                row = conn.execute(
                    EVENT, (project, "u1", occurred, recorded, f"{project}-{n}")
                ).fetchone()
                assert row is not None
                return str(row[0])

            old = [event(OLD + timedelta(minutes=i), OLD + timedelta(minutes=i)) for i in range(5)]
            conn.execute(CHUNK, (old[0], project, "u1", OLD))
            event(OLD, NOW)  # a backfill: happened long ago, captured today
            event(NOW - timedelta(days=1), NOW - timedelta(days=1))
            event(NOW - timedelta(hours=1), NOW - timedelta(hours=1))
            for days in (40, 20, 10, 1):
                conn.execute(TRACE, (project, Jsonb({}), Jsonb([]), NOW - timedelta(days=days)))
            conn.execute(FACT, (project, [old[0]]))


def counts(db_url: str, project: str) -> dict[str, int]:
    out = {}
    with psycopg.connect(db_url) as conn:
        for table in ("events", "episode_chunks", "context_traces", "facts"):
            row = conn.execute(
                psycopg.sql.SQL(COUNT).format(psycopg.sql.Identifier(table)), (project,)
            ).fetchone()
            assert row is not None
            out[table] = row[0]
    return out


@pytest.mark.parametrize(
    "body",
    [
        {"events_days": 0, "traces_days": None},
        {"events_days": "30", "traces_days": None},
        {"events_days": 40_000, "traces_days": None},
        {"events_days": 30},
        {"events_days": 30, "traces_days": 7, "extra": 1},
    ],
)
async def test_a_refused_policy_writes_nothing(client: httpx.AsyncClient, body: dict) -> None:
    resp = await client.put("/v1/retention", json={"project_id": P, **body})
    assert resp.status_code == 422
    assert resp.json()["error"]["type"] == "invalid_payload"
    shown = (await client.get("/v1/retention", params={"project_id": P})).json()
    assert shown["events_days"] is None and shown["updated_at"] is None


async def test_policy_enforced_in_batches_with_receipts(
    client: httpx.AsyncClient, db: Database, db_url: str
) -> None:
    seed(db_url)
    before_other = counts(db_url, OTHER)
    resp = await client.put(
        "/v1/retention", json={"project_id": P, "events_days": 30, "traces_days": 15}
    )
    assert resp.status_code == 200, resp.text
    assert (resp.json()["events_days"], resp.json()["traces_days"]) == (30, 15)

    receipts = await enforce_all(db, batch=2)
    assert len(receipts) == 1
    receipt = receipts[0]
    assert receipt.project_id == P
    assert receipt.counts == {
        "events_deleted": 5,
        "chunks_deleted": 1,
        "traces_deleted": 2,
        "batches": 3 + 1,  # 5 events by 2, then 2 traces
    }
    # The backfill and the recent events stay; so does the fact (its source is gone).
    assert counts(db_url, P) == {
        "events": 3,
        "episode_chunks": 0,
        "context_traces": 2,
        "facts": 1,
    }
    assert counts(db_url, OTHER) == before_other  # no policy there

    # Nothing left to delete: a run leaves no receipt.
    assert await enforce_all(db, batch=2) == []

    # The clock moved forward past every term: the rest goes.
    later = await enforce_all(db, now=NOW + timedelta(days=31), batch=100)
    assert [r.counts for r in later] == [
        {"events_deleted": 3, "chunks_deleted": 0, "traces_deleted": 2, "batches": 2}
    ]
    assert counts(db_url, P)["events"] == 0

    shown = (await client.get("/v1/retention", params={"project_id": P})).json()
    assert [r["counts"]["events_deleted"] for r in shown["receipts"]] == [3, 5]
    stats = (await client.get("/v1/stats/overview", params={"project_id": P})).json()
    assert stats["retention"]["events_days"] == 30
    assert stats["retention"]["receipts"][0]["counts"]["events_deleted"] == 3

    # Null terms keep everything again.
    resp = await client.put(
        "/v1/retention", json={"project_id": P, "events_days": None, "traces_days": None}
    )
    assert resp.status_code == 200
    assert await enforce_all(db, now=NOW + timedelta(days=3650)) == []


def test_the_worker_enforces_the_policy(db_url: str, tmp_path: Path) -> None:
    """``haki serve`` with its worker: the policy set by the CLI is applied on its own."""
    seed(db_url)
    env = {**os.environ, "HAKI_DATABASE_URL": as_url(db_url)}
    done = haki("retention", "set", "--project", P, "--events-days", "30", env=env)
    assert done.returncode == 0, done.stderr
    fast = {"HAKI_RETENTION_INTERVAL_S": "0.5"}
    with running(db_url, tmp_path / "server.log", worker=True, extra_env=fast) as url:
        deadline = time.monotonic() + 120
        while True:
            shown = httpx.get(f"{url}/v1/retention", params={"project_id": P}).json()
            if shown["receipts"]:
                break
            assert time.monotonic() < deadline, "the worker never enforced the policy"
            time.sleep(0.5)
    assert shown["receipts"][0]["counts"]["events_deleted"] == 5
    assert counts(db_url, P)["events"] == 3
    assert counts(db_url, P)["context_traces"] == 4  # no traces term
    show = haki("retention", "show", "--project", P, env=env)
    assert '"events_deleted": 5' in show.stdout


async def test_the_console_overview_shows_the_policy(client: httpx.AsyncClient) -> None:
    await client.put(
        "/v1/retention", json={"project_id": P, "events_days": 90, "traces_days": None}
    )
    sign_in = await client.get("/console/sign-in")
    csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', sign_in.text)
    assert csrf is not None
    signed = await client.post("/console/sign-in", data={"csrf": csrf.group(1), "project_id": P})
    assert signed.status_code == 303, signed.text
    page = await client.get("/console/overview")
    assert page.status_code == 200
    assert "Events kept 90 days · traces kept for ever" in page.text
