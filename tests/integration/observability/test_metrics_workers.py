"""A real ``haki serve --workers 2``: a scrape, answered by either process, adds
up both; the shared directory is the server's own and goes with it."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scale"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "faces"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "consolidator"))
from consolidator_helpers import as_url
from faces_helpers import launch_server, wait_ready
from fleet import ADMIN_KEY, Server, bearer, children, event, stop

TOKEN = "metrics-token-for-the-workers-test-0123"
# Bounds the captures sent until both processes have answered some: the
# kernel picks the process for each new connection.
MAX_CAPTURES = 200
# Two app processes start on a shared, loaded machine: more than the usual minute.
START_S = 240


def captured(text: str) -> float:
    return sum(
        s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == "haki_capture_events_total" and s.labels == {"result": "new"}
    )


def metrics_dir(pid: int) -> Path:
    """The shared directory, as the process's environment names it."""
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    found = [e.split(b"=", 1)[1] for e in environ if e.startswith(b"PROMETHEUS_MULTIPROC_DIR=")]
    assert found, "serve --workers did not hand its processes a metrics directory"
    return Path(found[0].decode())


def own_captures(directory: Path, pid: int) -> float:
    """What one process wrote, read from its own file alone."""
    path = directory / f"counter_{pid}.db"
    if not path.exists():
        return 0.0
    families = MultiProcessCollector.merge([str(path)], accumulate=False)
    return sum(
        s.value
        for f in families
        for s in f.samples
        if s.name == "haki_capture_events_total" and s.labels == {"result": "new"}
    )


def test_a_scrape_of_serve_workers_two_adds_up_both_processes(db_url, tmp_path):
    extra = {"HAKI_METRICS_TOKEN": TOKEN, "HAKI_AUTOCONSOLIDATE": "false"}
    proc, live = launch_server(as_url(db_url), tmp_path, extra, ("--workers", "2"))
    server = Server(proc, live, tmp_path, extra, ("--workers", "2"))
    try:
        wait_ready(proc, live, tmp_path, timeout=START_S)
        workers = children(server.proc.pid)
        assert len(workers) == 2
        directory = metrics_dir(workers[0])
        assert metrics_dir(workers[1]) == directory
        sent = 0
        while sent < MAX_CAPTURES:
            # A new connection each time (no keep-alive), so either process may answer.
            r = httpx.post(
                f"{server.url}/v1/capture",
                json={"events": [event("p-workers", "u1", f"turn {sent}")]},
                headers=bearer(ADMIN_KEY),
                timeout=30,
            )
            assert r.status_code == 202, r.text
            sent += 1
            if sent >= 10 and all(own_captures(directory, pid) > 0 for pid in workers):
                break
        shares = [own_captures(directory, pid) for pid in workers]
        assert all(share > 0 for share in shares), shares
        assert sum(shares) == sent
        for _ in range(6):  # each scrape on a new connection: either process answers
            r = httpx.get(f"{server.url}/metrics", headers=bearer(TOKEN), timeout=30)
            assert r.status_code == 200, r.text
            assert captured(r.text) == sent
        assert httpx.get(f"{server.url}/metrics", timeout=30).status_code == 401
        stop(server)
        assert not directory.exists()
    finally:
        stop(server)
