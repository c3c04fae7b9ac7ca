"""Fixtures of the faces tests: a live server on a fresh test database, a stub upstream.

The faces (MCP, gateway) are tested the way hosts use them: over real HTTP,
or a real stdio process, against a real server.
"""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from faces_helpers import Live, Upstream, serve_stub, start_server
from psycopg import sql

TEMPLATE = "haki_test_template"


@pytest.fixture(scope="module")
def upstream() -> Iterator[Upstream]:
    with serve_stub() as stub:
        yield stub


@pytest.fixture(scope="module")
def live(
    pg_maintenance_url: str,
    template_url: str,
    upstream: Upstream,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Live]:
    name = f"faces_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(TEMPLATE)
            )
        )
    db_url = urlunsplit(urlsplit(pg_maintenance_url)._replace(path=f"/{name}"))
    proc, server = start_server(
        db_url,
        tmp_path_factory.mktemp("haki-live"),
        {"HAKI_LLM_BASE_URL": upstream.url, "HAKI_LLM_API_KEY": "sk-upstream-secret"},
    )
    try:
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
