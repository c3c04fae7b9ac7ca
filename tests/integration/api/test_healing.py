"""Failures heal: a killed embedded PostgreSQL is restarted by the server,
503s meanwhile come at once with ``Retry-After``, and /health says what is
happening."""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import time
from pathlib import Path

import httpx
from api_helpers import EVENT, SCOPE

from haki.api.app import create_app
from haki.config import load_settings


def _postmaster_pid(pgdata) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


async def test_killed_embedded_database_is_restarted(providers):
    # Not pytest's tmp_path: a concurrent pytest session on the machine may
    # prune older basetemp directories under a server that is still running.
    with tempfile.TemporaryDirectory(prefix="haki-heal-") as tmp:
        await _kill_and_heal(Path(tmp), providers)


async def _kill_and_heal(tmp_path: Path, providers) -> None:
    # A pool timeout far above any fast answer: a 503 that waited for the pool
    # would take 30 s.
    settings = load_settings(auth="off", database_url=None, data_dir=tmp_path, db_timeout_s=30)
    app = create_app(settings, providers=providers, background=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
    ):
        assert (await c.post("/v1/capture", json={"events": [EVENT]})).status_code == 202
        pid = _postmaster_pid(tmp_path / "pg")
        os.kill(pid, signal.SIGKILL)

        start = time.monotonic()
        r = await c.get("/v1/timeline", params=SCOPE)
        first = time.monotonic() - start
        assert r.status_code == 503
        assert r.json()["error"]["type"] == "database_unavailable"
        assert int(r.headers["retry-after"]) >= 1
        assert first < 10, f"the first 503 took {first:.1f} s: it waited for the pool"

        seen = set()
        deadline = time.monotonic() + 90
        while True:
            h = await c.get("/health")
            seen.add(h.json()["database"])
            if h.status_code == 200:
                break
            assert "retry-after" in h.headers
            assert h.json()["database_detail"]
            assert time.monotonic() < deadline, f"not restarted: {h.json()}"
            await asyncio.sleep(0.2)
        assert seen & {"restarting", "unavailable"}, seen
        assert _postmaster_pid(tmp_path / "pg") != pid

        r = await c.get("/v1/timeline", params=SCOPE)
        assert r.status_code == 200 and len(r.json()["events"]) == 1
