"""Several live ``haki serve`` processes on one test database.

Each server is a real process (its own pool, its own worker), started in
parallel so a test pays one start-up, not one per server.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "faces"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "consolidator"))
from consolidator_helpers import as_url
from faces_helpers import ADMIN_KEY, Live, launch_server, wait_ready

__all__ = [
    "ADMIN_KEY",
    "Server",
    "admin_key",
    "bearer",
    "children",
    "event",
    "fleet",
    "kill9",
    "restart",
    "stop",
]


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    live: Live
    data_dir: Path
    extra: dict[str, str]
    args: tuple[str, ...]

    @property
    def url(self) -> str:
        return self.live.url


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def event(project: str, subject: str, text: str, **extra: object) -> dict[str, object]:
    return {
        "project_id": project,
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": "2026-11-20T10:00:00Z",
        "payload": {"role": "user", "content": text},
        **extra,
    }


def _launch(db_url: str, data_dir: Path, extra: dict[str, str], args: tuple[str, ...]) -> Server:
    data_dir.mkdir(parents=True, exist_ok=True)
    proc, live = launch_server(as_url(db_url), data_dir, extra, args)
    return Server(proc, live, data_dir, extra, args)


def restart(db_url: str, server: Server) -> Server:
    """A new process with the same settings and data directory (its port is new)."""
    again = _launch(db_url, server.data_dir, server.extra, server.args)
    wait_ready(again.proc, again.live, again.data_dir)
    return again


def stop(server: Server) -> None:
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(20)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait(5)


@contextmanager
def fleet(
    db_url: str,
    root: Path,
    count: int,
    extra: dict[str, str] | None = None,
    args: tuple[str, ...] = (),
) -> Iterator[list[Server]]:
    """``count`` servers on ``db_url``, ready; stopped (or their remains killed) on exit."""
    settings = {"HAKI_AUTOCONSOLIDATE": "false", **(extra or {})}
    servers = [_launch(db_url, root / f"s{i}", settings, args) for i in range(count)]
    started = list(servers)
    try:
        for s in servers:
            wait_ready(s.proc, s.live, s.data_dir)
        yield servers
    finally:
        # A test may append the servers it restarted.
        for s in {id(s): s for s in started + servers}.values():
            stop(s)


def admin_key(server: Server, project: str) -> str:
    """A new project key, issued through ``server``."""
    r = httpx.post(
        f"{server.url}/v1/keys",
        json={"project_id": project, "label": "scale"},
        headers=bearer(ADMIN_KEY),
        timeout=30,
    )
    r.raise_for_status()
    return str(r.json()["key"])


def children(pid: int) -> list[int]:
    """The app processes of a ``serve --workers N`` parent (not its resource tracker)."""
    import psutil

    found = []
    for p in psutil.Process(pid).children():
        try:
            if p.status() != psutil.STATUS_ZOMBIE and "spawn_main" in " ".join(p.cmdline()):
                found.append(p.pid)
        except psutil.NoSuchProcess:
            continue
    return sorted(found)


def kill9(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
