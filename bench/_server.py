"""Start a throwaway ``haki serve`` for a benchmark, or use one given by URL.

The server started here knows the benchmark recipes of ``bench/recipes.py``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]

# The process serving each base URL this module started (``server_pid``).
_PIDS: dict[str, int] = {}


def server_pid(base_url: str) -> int | None:
    """The pid of the ``haki serve`` started here for ``base_url``; None for one given by URL."""
    return _PIDS.get(base_url)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(
    base_url: str, timeout_s: float = 120.0, proc: subprocess.Popen | None = None
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"haki serve exited with code {proc.returncode}")
        try:
            if httpx.get(f"{base_url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"{base_url} not healthy after {timeout_s:.0f}s")


@contextlib.contextmanager
def running_server(
    base_url: str | None = None,
    env: dict[str, str] | None = None,
    python: str | None = None,
    args: tuple[str, ...] = (),
    start_timeout_s: float = 120.0,
    script: Path | None = None,
) -> Iterator[str]:
    """Yield a base URL: the given one, or a fresh server on a temp data dir
    (run by ``python``: another checkout's interpreter serves its own code);
    ``args`` are passed to ``haki serve`` (e.g. ``--workers 2``); ``script``
    serves in place of it (a wrapper that ends by running ``haki serve``)."""
    if base_url:
        wait_healthy(base_url)
        yield base_url.rstrip("/")
        return
    with tempfile.TemporaryDirectory(prefix="haki-bench-") as data_dir:
        port = free_port()
        child_env = {
            **os.environ,
            "HAKI_DATA_DIR": data_dir,
            "HAKI_PORT": str(port),
            "HAKI_HOST": "127.0.0.1",
            "HAKI_AUTH": "off",
            "HAKI_LOG_LEVEL": "warning",
            **(env or {}),
        }
        if python:
            # Another checkout's code, not the one PYTHONPATH points this run at.
            child_env.pop("PYTHONPATH", None)
        log = open(Path(data_dir) / "serve.log", "w")  # noqa: SIM115 - lives as long as the child
        proc = subprocess.Popen(
            # Another checkout's interpreter runs its own plain server; ours
            # knows the benchmark recipes.
            [python or sys.executable, str(script), *args]
            if script
            else [python, "-m", "haki.cli", "serve", *args]
            if python
            else [sys.executable, str(REPO / "bench" / "_serve.py"), *args],
            env=child_env,
            stdout=log,
            stderr=log,
        )
        url = f"http://127.0.0.1:{port}"
        _PIDS[url] = proc.pid
        try:
            wait_healthy(url, start_timeout_s, proc=proc)
            yield url
        finally:
            _PIDS.pop(url, None)
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()
