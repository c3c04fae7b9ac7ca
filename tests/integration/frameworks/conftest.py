"""One live ``haki serve`` for all the SDK and framework adapter tests (started once).

Dev mode (auth off), the bundled local embedder, no background worker (the
tests consolidate when they mean to), and a scripted model endpoint behind
the gateway, all on a fresh database made from the session's template.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "faces"))
from faces_helpers import Upstream, launch_server, serve_stub, wait_ready

TEMPLATE = "haki_test_template"


@pytest.fixture(scope="session")
def upstream() -> Iterator[Upstream]:
    with serve_stub() as stub:
        yield stub


@pytest.fixture(scope="session")
def haki_url(
    pg_maintenance_url: str,
    template_url: str,
    upstream: Upstream,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    if os.environ.get("HAKI_TEST_URL"):  # a dev-mode server already running (local iteration)
        yield os.environ["HAKI_TEST_URL"]
        return
    name = f"frameworks_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(TEMPLATE)
            )
        )
    db_url = urlunsplit(urlsplit(pg_maintenance_url)._replace(path=f"/{name}"))
    data_dir = tmp_path_factory.mktemp("haki-frameworks")
    proc, server = launch_server(
        db_url,
        data_dir,
        {
            "HAKI_AUTH": "off",
            "HAKI_EMBED_PROVIDER": "local",
            "HAKI_ALLOW_HASH_EMBEDDER": "false",
            "HAKI_AUTOCONSOLIDATE": "false",
            "HAKI_WORKER_IN_PROCESS": "false",
            "HAKI_LLM_BASE_URL": upstream.url,
            "HAKI_LLM_API_KEY": "sk-upstream-secret",
        },
        ("--no-worker",),
    )
    try:
        # The bundled embedder loads before /health answers: slow on a busy machine.
        wait_ready(proc, server, data_dir, timeout=300)
        yield server.url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
