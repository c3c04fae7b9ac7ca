"""``haki serve`` in a subprocess on a test database, for tests that need a real server."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import httpx
import psycopg


def as_url(conninfo: str) -> str:
    """The test database's conninfo as the ``postgresql://`` URL the settings take."""
    info = psycopg.conninfo.conninfo_to_dict(conninfo)
    dbname = info.pop("dbname", "")
    return f"postgresql:///{dbname}?{urlencode({k: str(v) for k, v in info.items()})}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running(
    db_url: str | None,
    log_path: Path,
    worker: bool = False,
    data_dir: Path | None = None,
    extra_env: dict[str, str] | None = None,
) -> Iterator[str]:
    """Dev mode (auth off) on ``db_url``, or on the embedded server in ``data_dir``
    when ``db_url`` is None; yields the base URL once ``/health`` answers."""
    port = free_port()
    env = {
        **os.environ,
        "HAKI_HOST": "127.0.0.1",
        "HAKI_PORT": str(port),
        "HAKI_AUTH": "off",
        "HAKI_WORKER_IN_PROCESS": "true" if worker else "false",
        **(extra_env or {}),
    }
    if db_url is None:
        assert data_dir is not None
        env.pop("HAKI_DATABASE_URL", None)
        env["HAKI_DATA_DIR"] = str(data_dir)
    else:
        env["HAKI_DATABASE_URL"] = as_url(db_url)
    args = [sys.executable, "-m", "haki.cli", "serve", *([] if worker else ["--no-worker"])]
    log = log_path.open("w")
    proc = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise RuntimeError(log_path.read_text()[-2000:])
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("haki serve did not answer /health in time")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
