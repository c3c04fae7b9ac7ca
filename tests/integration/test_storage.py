"""Migrations, schema shape and the embedded server's life cycle on real PostgreSQL."""

import datetime
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from haki.storage.migrate import available, current_version, upgrade

TABLES = {
    "events",
    "episode_chunks",
    "facts",
    "conflict_sets",
    "context_traces",
    "jobs",
    "api_keys",
    "forget_receipts",
    "feedback",
    "predicate_aliases",
}


def test_migrations_are_numbered_and_idempotent(db_url):
    versions = [m.version for m in available()]
    assert versions == sorted(set(versions)) and versions[0] == 1
    assert upgrade(db_url) == []  # template already migrated: nothing to do
    assert current_version(db_url) == versions[-1]


def test_schema_has_every_table_and_index(db_url):
    with psycopg.connect(db_url) as conn:
        tables = {
            r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname='public'")
        }
        assert tables >= TABLES
        idx = {
            r[0]: r[1]
            for r in conn.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname='public'"
            )
        }
    assert "hnsw" in idx["facts_embedding"] and "vector_cosine_ops" in idx["facts_embedding"]
    assert "hnsw" in idx["episode_chunks_embedding"]
    assert "gin" in idx["facts_search_vector"]
    assert (
        "scope_lexemes(project_id, subject_id, search_vector)"
        in idx["episode_chunks_scope_lexemes"]
    )
    assert "UNIQUE" in idx["events_project_idempotency_key"]


def test_search_vector_is_generated_at_write_time(db_url):
    with psycopg.connect(db_url) as conn:
        row = conn.execute(
            "INSERT INTO facts (project_id, subject_id, predicate, value, search_text) "
            "VALUES ('p', 's', 'home_city', '\"Lyon\"', 'home city: Lyon') RETURNING search_vector::text"
        ).fetchone()
        assert "'lyon'" in row[0]
        gen = conn.execute(
            "SELECT attgenerated FROM pg_attribute WHERE attrelid = 'facts'::regclass AND attname = 'search_vector'"
        ).fetchone()
        assert gen[0] == "s"


GIN_INDEXES = """
SELECT c.relname, coalesce(c.reloptions, '{}') AS options
FROM pg_class c JOIN pg_am am ON am.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE am.amname = 'gin' AND n.nspname = 'public'
ORDER BY c.relname"""


def test_gin_indexes_keep_no_pending_list(db_url):
    """A GIN pending list is read in full by every search: 10,000 fresh turns
    made each full-text lookup read 229 pages (migration 0102)."""
    with psycopg.connect(db_url) as conn:
        indexes = conn.execute(GIN_INDEXES).fetchall()
    assert [name for name, _ in indexes] == [
        "conflict_sets_fact_ids",
        "episode_chunks_scope_lexemes",
        "facts_search_vector",
        "facts_source_events",
    ]
    assert all("fastupdate=off" in options for _, options in indexes)


def test_idempotency_key_unique_per_project(db_url):
    insert = (
        "INSERT INTO events (project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key) "
        "VALUES (%s, 's', 'k', now(), '{}', 'h', 'same')"
    )
    with psycopg.connect(db_url) as conn:
        conn.execute(insert, ("a",))
        conn.execute(insert, ("b",))  # another project may reuse the key
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(insert, ("a",))


def test_missing_pgvector_is_a_clear_startup_error(monkeypatch, db_url):
    from haki.errors import ConfigError
    from haki.storage import migrate

    class NoVector:
        def __init__(self, conn):
            self.conn = conn

        def execute(self, query, *args):
            if "pg_available_extensions" in query:
                return self.conn.execute("SELECT 1 WHERE false")
            return self.conn.execute(query, *args)

    with psycopg.connect(db_url) as conn, pytest.raises(ConfigError, match="vector"):
        migrate.check_pgvector(NoVector(conn))


STARTER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import psycopg
    from haki.storage.embedded import start_embedded
    server = start_embedded(Path(sys.argv[1]))
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS survivor (n int)")
        conn.execute("INSERT INTO survivor VALUES (42)")
    print("ready", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_embedded_server_survives_sigkill_and_is_reused(tmp_path: Path):
    from haki.storage.embedded import start_embedded

    proc = subprocess.run(
        [sys.executable, "-c", STARTER, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == -signal.SIGKILL and "ready" in proc.stdout
    server = start_embedded(tmp_path)  # the orphaned server is found and reused
    try:
        with psycopg.connect(server.admin_url) as conn:
            assert conn.execute("SELECT n FROM survivor").fetchall() == [(42,)]
    finally:
        server.stop()
    pid_file = tmp_path / "pg" / "postmaster.pid"
    assert not pid_file.exists(), "the last handle stops the server on normal exit"
    server = start_embedded(tmp_path)  # and a clean restart keeps the data
    try:
        with psycopg.connect(server.admin_url) as conn:
            assert conn.execute("SELECT count(*) FROM survivor").fetchone() == (1,)
    finally:
        server.stop()


def _postmaster_pid(pgdata: Path) -> int | None:
    try:
        return int((pgdata / "postmaster.pid").read_text().splitlines()[0])
    except (FileNotFoundError, IndexError, ValueError):
        return None


def test_a_stop_during_a_restart_waits_for_it(tmp_path: Path):
    """The watch restarts a killed server in one thread while shutdown stops it
    in another: the stop waits, and the server ends stopped, with no error."""
    import threading

    import psutil

    from haki.storage.embedded import start_embedded

    server = start_embedded(tmp_path)
    pgdata = tmp_path / "pg"
    killed = _postmaster_pid(pgdata)
    assert killed is not None
    os.kill(killed, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while psutil.pid_exists(killed) and time.monotonic() < deadline:
        time.sleep(0.05)  # a zombie until reaped, and a zombie counts as running
    errors: list[BaseException] = []
    returned: dict[str, object] = {}

    def run(call) -> None:
        try:
            returned[call.__name__] = call()
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    # Daemon threads: a stop that broke the restart leaves it waiting forever.
    restarting = threading.Thread(target=run, args=(server.restart_if_dead,), daemon=True)
    restarting.start()
    while _postmaster_pid(pgdata) in (killed, None) and time.monotonic() < deadline:
        time.sleep(0.02)  # until the restart's postmaster is up, before it is ready
    stopping = threading.Thread(target=run, args=(server.stop,), daemon=True)
    stopping.start()
    restarting.join(60)
    stopping.join(60)
    assert not restarting.is_alive() and not stopping.is_alive()
    assert errors == []
    assert returned == {"restart_if_dead": server.admin_url, "stop": None}, "both ran"
    assert _postmaster_pid(pgdata) is None, "the stop came last: the server is stopped"


async def test_local_settings_hold_for_their_transaction_only(db):
    """``transaction(local=...)`` sets them with the project, in one statement,
    and the next transaction on the pool starts from the server's defaults."""
    local = {"hnsw.ef_search": "123", "max_parallel_workers_per_gather": "0"}
    async with db.transaction(project_id="proj", local=local) as conn:
        cur = await conn.execute(
            "SELECT current_setting('app.project_id') AS project, "
            "current_setting('hnsw.ef_search') AS ef, "
            "current_setting('max_parallel_workers_per_gather') AS workers"
        )
        assert await cur.fetchone() == {"project": "proj", "ef": "123", "workers": "0"}
    for _ in range(4):  # whichever pooled connection comes next
        async with db.transaction(project_id="proj") as conn:
            cur = await conn.execute(
                "SELECT current_setting('max_parallel_workers_per_gather') AS workers"
            )
            assert (await cur.fetchone())["workers"] != "0"


async def test_ids_and_json_round_trip_through_a_pooled_connection(db):
    """Pooled connections read JSON with orjson, long integers exact; id
    lists sent as binary parameters (the context statements') come back as
    they went in, an empty one too."""
    ids = [uuid.UUID(int=n) for n in (1, 2**64, 2**128 - 1)]
    doc = '{"n": 123456789012345678901234567890, "x": [1.5, "é"]}'
    async with db.transaction(project_id="proj") as conn:
        cur = await conn.execute(
            "SELECT %(ids)b::uuid[] AS ids, %(none)b::uuid[] AS none, %(one)s = ANY(%(ids)b) AS one,"
            " %(doc)s::jsonb AS doc",
            {"ids": ids, "none": [], "one": ids[1], "doc": doc},
        )
        row = await cur.fetchone()
    assert row == {
        "ids": ids,
        "none": [],
        "one": True,
        "doc": {"n": 123456789012345678901234567890, "x": [1.5, "é"]},
    }


async def test_pooled_connections_read_timestamps_in_utc(db):
    """Whatever the server's zone (initdb takes the host's, here spelled
    ``Etc/UTC``), a pooled session is in the zone psycopg decodes in C: its
    timestamps carry ``datetime.UTC`` itself, and a day boundary is UTC's."""
    async with db.transaction(project_id="proj") as conn:
        cur = await conn.execute(
            "SELECT current_setting('TimeZone') AS zone,"
            " '2026-12-03 23:30:00-02'::timestamptz AS at,"
            " '2026-12-03 23:30:00-02'::timestamptz::date AS day"
        )
        row = await cur.fetchone()
    assert row["zone"] == "UTC"
    assert row["at"].tzinfo is datetime.UTC
    assert row["at"] == datetime.datetime(2026, 12, 4, 1, 30, tzinfo=datetime.UTC)
    assert row["day"] == datetime.date(2026, 12, 4)


async def test_a_one_trip_transaction_holds_its_settings_for_itself_only(db):
    """``transaction(one_trip=True)`` (``storage.begin``): the project (quoted
    client-side) and the settings hold inside one transaction, and the
    connection goes back to the pool out of autocommit, at the server's defaults."""
    local = {"hnsw.ef_search": "123", "max_parallel_workers_per_gather": "0"}
    async with db.transaction(project_id="pr'oj", local=local, one_trip=True) as conn:
        cur = await conn.execute(
            "SELECT current_setting('app.project_id') AS project, "
            "current_setting('hnsw.ef_search') AS ef, pg_current_xact_id()::text AS xact"
        )
        first = await cur.fetchone()
        assert (first["project"], first["ef"]) == ("pr'oj", "123")
        cur = await conn.execute("SELECT pg_current_xact_id()::text AS xact")
        assert (await cur.fetchone())["xact"] == first["xact"], "one transaction"
    for _ in range(4):  # whichever pooled connection comes next
        async with db.transaction(project_id="proj") as conn:
            assert not conn.autocommit
            cur = await conn.execute(
                "SELECT current_setting('max_parallel_workers_per_gather') AS workers"
            )
            assert (await cur.fetchone())["workers"] != "0"
