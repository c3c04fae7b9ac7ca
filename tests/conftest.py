"""Shared fixtures: one real PostgreSQL + pgvector per test session.

The embedded server (or ``HAKI_TEST_DATABASE_URL``) holds a migrated
template database; each test that needs the database gets its own copy via
``CREATE DATABASE ... TEMPLATE``, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import pytest
from psycopg import sql

from haki.api.app import create_app
from haki.config import Settings, load_settings
from haki.providers import Providers
from haki.providers.embed import HashEmbedder, LocalEmbedder
from haki.storage import Database
from haki.storage.migrate import upgrade

TEMPLATE = "haki_test_template"
REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def _with_db(url: str, name: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(url)
    info["dbname"] = name
    return psycopg.conninfo.make_conninfo(**info)


@pytest.fixture(scope="session")
def pg_maintenance_url() -> Iterator[str]:
    external = os.environ.get("HAKI_TEST_DATABASE_URL")
    if external:
        yield external
        return
    from haki.storage.embedded import start_embedded

    with tempfile.TemporaryDirectory(prefix="haki-test-pg-") as tmp:
        server = start_embedded(Path(tmp))
        try:
            yield server.server.get_uri()  # type: ignore[attr-defined]
        finally:
            server.stop()


@pytest.fixture(scope="session")
def template_url(pg_maintenance_url: str) -> str:
    with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(TEMPLATE)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(TEMPLATE)))
    url = _with_db(pg_maintenance_url, TEMPLATE)
    upgrade(url)
    return url


@contextmanager
def _template_copy(maintenance_url: str) -> Iterator[str]:
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(TEMPLATE)
            )
        )
    yield _with_db(maintenance_url, name)
    _drop_database(maintenance_url, name)


def _drop_database(maintenance_url: str, name: str) -> None:
    """Drop a test's database, even with its own sessions still open.

    FORCE terminates every session on it; as a non-superuser (the external
    server's run) it may not terminate one it does not own, such as an
    autovacuum worker that started on the fresh rows. A plain DROP makes
    autovacuum give way by itself, so the sessions of our own role are
    ended first and the plain DROP follows.
    """
    drop = sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name))
    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        try:
            conn.execute(drop + sql.SQL(" WITH (FORCE)"))
            return
        except psycopg.errors.InsufficientPrivilege:
            pass
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND usename = current_user AND pid <> pg_backend_pid()",
            (name,),
        )
        conn.execute(drop)


@pytest.fixture
def db_url(pg_maintenance_url: str, template_url: str) -> Iterator[str]:
    """A fresh, migrated database for one test."""
    with _template_copy(pg_maintenance_url) as url:
        yield url


@pytest.fixture(scope="module")
def module_db_url(pg_maintenance_url: str, template_url: str) -> Iterator[str]:
    """A fresh, migrated database shared by the tests of one module."""
    with _template_copy(pg_maintenance_url) as url:
        yield url


@pytest.fixture(scope="session")
def local_embedder() -> LocalEmbedder:
    return LocalEmbedder()


@pytest.fixture(scope="session")
def hash_embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture
def settings() -> Settings:
    # The gate off: each stage's tests see every candidate; the gate's own tests
    # (tests/integration/context/test_context_gate.py) check its default.
    return load_settings(auth="off", database_url=None, recall_max_distance=0.0)


@pytest.fixture
def providers(local_embedder: LocalEmbedder) -> Providers:
    return Providers(embedder=local_embedder)


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = Database(db_url, min_size=1, max_size=4, timeout=5)
    await database.open()
    yield database
    await database.close()


@pytest.fixture
async def client(
    db_url: str, settings: Settings, providers: Providers
) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client on the ASGI app, with its lifespan running."""
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c:
            c.app = app  # type: ignore[attr-defined]
            yield c
