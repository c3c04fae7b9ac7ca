"""The original ``gethaki`` 0.2.0 client, in a virtualenv of its own, and a server in a subprocess.

gethaki needs Python >= 3.12 and ships an import package ``haki`` and a
``haki`` script of its own, so it can never share the project's
environment. Its virtualenv is built once under the user's cache directory
(``$XDG_CACHE_HOME`` or ``~/.cache``, ``haki/compat/``; ``HAKI_COMPAT_CACHE``
overrides it), keyed by the gethaki and Python versions, so fresh clones
(CI) reuse it too; a file lock keeps two test runs from building it at once.
"""

from __future__ import annotations

import fcntl
import glob
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from haki_server import running

GETHAKI = "gethaki==0.2.0"


def cache_dir() -> Path:
    if os.environ.get("HAKI_COMPAT_CACHE"):
        return Path(os.environ["HAKI_COMPAT_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "haki" / "compat"


def python312() -> str:
    """A working Python >= 3.12: ``HAKI_PYTHON312``, a pyenv build, or ``python3.12``.

    A pyenv shim on PATH may name a version that is not the active one, so
    each candidate is tried before it is chosen.
    """
    pyenv = Path.home() / ".pyenv/versions"
    builds = sorted(glob.glob(str(pyenv / "3.12*/bin/python")), reverse=True)
    builds += sorted(glob.glob(str(pyenv / "3.1[3-9]*/bin/python")))
    candidates = [os.environ.get("HAKI_PYTHON312"), *builds, shutil.which("python3.12")]
    for candidate in filter(None, candidates):
        probe = subprocess.run(
            [candidate, "-c", "import sys; assert sys.version_info >= (3, 12)"],
            capture_output=True,
        )
        if probe.returncode == 0:
            return candidate
    pytest.fail("gethaki 0.2.0 needs Python >= 3.12: set HAKI_PYTHON312 to one")


@pytest.fixture(scope="session")
def gethaki_venv() -> Path:
    interpreter = python312()
    version = subprocess.run(
        [interpreter, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    venv = cache / f"gethaki-0.2.0-py{version}"
    ready = venv / ".installed"
    with (cache / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.exists():
            shutil.rmtree(venv, ignore_errors=True)
            subprocess.run([interpreter, "-m", "venv", str(venv)], check=True, timeout=120)
            subprocess.run(
                [str(venv / "bin/python"), "-m", "pip", "install", "--quiet", GETHAKI],
                check=True,
                timeout=600,
            )
            ready.write_text(GETHAKI + "\n")
    return venv


@pytest.fixture
def server_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """``haki serve`` on the test's fresh database, dev mode, no background worker."""
    with running(db_url, tmp_path / "server.log") as url:
        yield url
