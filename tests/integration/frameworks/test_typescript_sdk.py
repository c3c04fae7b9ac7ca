"""The TypeScript SDK's own tests (``npm test`` in sdk/typescript), against a live server.

``make test`` installs the package's dev dependencies (``npm ci``) first;
this test starts ``haki serve`` and runs the node test runner against it,
so the TypeScript client is checked by the same suite, on the same server
build, as the Python one. The render goldens the node tests read are the
ones tests/unit/client/test_render_goldens.py checks.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

SDK = Path(__file__).resolve().parents[3] / "sdk" / "typescript"


def test_npm_test_passes_against_a_live_server(haki_url: str) -> None:
    npm = shutil.which("npm")
    assert npm, "npm is not on PATH: the TypeScript SDK's tests need node and npm"
    assert (SDK / "node_modules" / "typescript").is_dir(), "run `make install` (it runs npm ci)"
    run = subprocess.run(
        [npm, "test", "--silent"],
        cwd=SDK,
        env={**os.environ, "HAKI_TEST_URL": haki_url},
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-6000:]
    passed = re.search(r"^# pass (\d+)$", report, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", report, re.MULTILINE)
    skipped = re.search(r"^# skipped (\d+)$", report, re.MULTILINE)
    assert passed and failed and skipped, report[-3000:]
    assert int(failed.group(1)) == 0 and int(skipped.group(1)) == 0
    assert int(passed.group(1)) >= 15, report[-3000:]
