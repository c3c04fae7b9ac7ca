"""Helpers of the faces tests: a live ``haki serve``, and the stub model endpoint.

The faces (MCP, gateway) are tested the way hosts use them: over real HTTP,
or a real stdio process, against a real server on a fresh test database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

# The stub model endpoint is shared with bench/gateway.py.
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from _upstream_stub import Upstream, free_port, serve_stub

__all__ = [
    "ADMIN_KEY",
    "Live",
    "Upstream",
    "free_port",
    "launch_server",
    "serve_stub",
    "start_server",
    "wait_ready",
]

ADMIN_KEY = "admin-key-for-the-faces-tests-0123456789"


@dataclass(frozen=True)
class Live:
    url: str
    env: dict[str, str]

    def admin(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {ADMIN_KEY}"}, timeout=30
        )

    def project_key(self, project: str) -> str:
        with self.admin() as c:
            r = c.post("/v1/keys", json={"project_id": project, "label": "faces"})
            r.raise_for_status()
            return str(r.json()["key"])


def start_server(
    db_url: str, data_dir: Path, extra: dict[str, str]
) -> tuple[subprocess.Popen[bytes], Live]:
    proc, live = launch_server(db_url, data_dir, extra)
    wait_ready(proc, live, data_dir)
    return proc, live


def launch_server(
    db_url: str, data_dir: Path, extra: dict[str, str], args: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], Live]:
    """Start ``haki serve *args`` without waiting for it (several start at once)."""
    port = free_port()
    env = {
        **os.environ,
        "HAKI_DATABASE_URL": db_url,
        "HAKI_DATA_DIR": str(data_dir),
        "HAKI_HOST": "127.0.0.1",
        "HAKI_PORT": str(port),
        "HAKI_AUTH": "on",
        "HAKI_ADMIN_KEY": ADMIN_KEY,
        "HAKI_EMBED_PROVIDER": "hash",
        "HAKI_ALLOW_HASH_EMBEDDER": "true",
        "HAKI_AUTOCONSOLIDATE": "true",
        "HAKI_LOG_LEVEL": "warning",
        **extra,
    }
    log = (data_dir / "serve.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "haki.cli", "serve", *args], env=env, stdout=log, stderr=log
    )
    return proc, Live(f"http://127.0.0.1:{port}", env)


def wait_ready(
    proc: subprocess.Popen[bytes], live: Live, data_dir: Path, timeout: float = 60
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((data_dir / "serve.log").read_text())
        try:
            if httpx.get(f"{live.url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise TimeoutError((data_dir / "serve.log").read_text())
