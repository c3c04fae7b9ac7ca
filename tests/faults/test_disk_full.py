"""A full disk is not an outage: writes answer ``507 insufficient_storage``
(no ``Retry-After``: waiting frees no space), reads keep working, and
``/health`` says the storage is full and why.

The disk really fills: the test database lives in a tablespace on a small
tmpfs that the test fills up (needs root to mount). Where mounting is not
allowed, the same SQLSTATE 53100 is raised by PostgreSQL itself from a
trigger on the events table (a fault injected inside the server, not a
mocked driver).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from psycopg import sql

from haki.api.app import create_app
from haki.config import Settings
from haki.providers import Providers

EVENT = {
    "project_id": "p",
    "subject_id": "s",
    "kind": "message",
    "occurred_at": "2026-01-31T09:00:00Z",
    "payload": {"content": "I live in Lyon."},
}
TEMPLATE = "haki_test_template"


def _with_db(url: str, name: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(url)
    info["dbname"] = name
    return psycopg.conninfo.make_conninfo(**info)


def _mount_tmpfs(where: Path, size_mb: int) -> bool:
    if os.geteuid() != 0:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(where)],
        capture_output=True,
    )
    return done.returncode == 0


@contextlib.contextmanager
def _database_on_small_disk(maintenance_url: str) -> Iterator[tuple[str, str]]:
    """A copy of the template database in a tablespace on a tmpfs with a few
    MB to spare; yields its URL and the tablespace's name."""
    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT pg_database_size(%s), current_setting('data_directory')", (TEMPLATE,)
        ).fetchone()
        assert row is not None
        size, data_dir = row
        owner = Path(data_dir).stat()
    tmp = Path(tempfile.mkdtemp(prefix="haki-full-disk-"))
    if not _mount_tmpfs(tmp, size // 2**20 + 8):
        tmp.rmdir()
        pytest.skip("cannot mount a tmpfs here (not root); the trigger case covers 53100")
    name = f"haki_full_{uuid.uuid4().hex[:8]}"
    space = f"{name}_space"
    try:
        os.chown(tmp, owner.st_uid, owner.st_gid)
        with psycopg.connect(maintenance_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("CREATE TABLESPACE {} LOCATION {}").format(
                    sql.Identifier(space), sql.Literal(str(tmp))
                )
            )
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {} TABLESPACE {}").format(
                    sql.Identifier(name), sql.Identifier(TEMPLATE), sql.Identifier(space)
                )
            )
        try:
            yield _with_db(maintenance_url, name), space
        finally:
            with psycopg.connect(maintenance_url, autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )
                conn.execute(sql.SQL("DROP TABLESPACE IF EXISTS {}").format(sql.Identifier(space)))
    finally:
        subprocess.run(["umount", str(tmp)], check=False)
        tmp.rmdir()


def _fill(url: str) -> None:
    """Write incompressible rows until the disk refuses them."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE filler (b bytea) WITH (toast_tuple_target = 8160)")
        conn.execute("ALTER TABLE filler ALTER COLUMN b SET STORAGE EXTERNAL")
        with pytest.raises(psycopg.errors.DiskFull):
            for _ in range(10_000):
                conn.execute(
                    "INSERT INTO filler SELECT decode(string_agg(md5(random()::text), ''), 'hex')"
                    " FROM generate_series(1, 4096)"
                )


def _free(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE filler")


def _fail_event_inserts(db_url: str) -> None:
    """The test database, where PostgreSQL raises SQLSTATE 53100 on every
    event insert from now on."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(
            """
            CREATE FUNCTION haki_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device'
                    USING ERRCODE = 'disk_full';
            END $$"""
        )
        conn.execute(
            "CREATE TRIGGER haki_test_disk_full BEFORE INSERT ON events "
            "FOR EACH ROW EXECUTE FUNCTION haki_test_disk_full()"
        )


@contextlib.asynccontextmanager
async def _app_client(
    url: str, settings: Settings, providers: Providers
) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings, database_url=url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c:
            c.app = app  # type: ignore[attr-defined]
            yield c


async def _assert_full(c: httpx.AsyncClient, *, detail: str) -> None:
    # Random text, so that it compresses little and needs new pages.
    big = {**EVENT, "payload": {"content": secrets.token_hex(50_000)}}
    r = await c.post("/v1/capture", json={"events": [big]})
    assert r.status_code == 507, r.text
    assert r.json()["error"]["type"] == "insufficient_storage"
    assert "retry-after" not in r.headers
    h = await c.get("/health")
    assert h.status_code == 200
    body = h.json()
    assert (body["status"], body["database"], body["storage"]) == ("degraded", "ok", "full")
    assert detail in body["storage_detail"]
    # Reads still work while writes are refused.
    r = await c.get("/v1/timeline", params={"project_id": "p", "subject_id": "s"})
    assert r.status_code == 200 and len(r.json()["events"]) == 1


async def test_full_tmpfs_answers_507_and_health_says_why(
    pg_maintenance_url: str, template_url: str, settings: Settings, providers: Providers
) -> None:
    with (
        _database_on_small_disk(pg_maintenance_url) as (url, _),
    ):
        async with _app_client(url, settings, providers) as c:
            assert (await c.post("/v1/capture", json={"events": [EVENT]})).status_code == 202
            _fill(url)
            await _assert_full(c, detail="No space left on device")
            _free(url)
            # Space is back: writes pass at once; /health says so once its hold ends.
            r = await c.post("/v1/capture", json={"events": [{**EVENT, "kind": "note"}]})
            assert r.status_code == 202, r.text
            c.app.state.haki.db.watch.disk_full_hold_s = 0  # type: ignore[attr-defined]
            assert (await c.get("/health")).json()["storage"] == "ok"


async def test_disk_full_raised_by_the_server_answers_507(
    client: httpx.AsyncClient, db_url: str
) -> None:
    assert (await client.post("/v1/capture", json={"events": [EVENT]})).status_code == 202
    _fail_event_inserts(db_url)
    await _assert_full(client, detail="No space left on device")
