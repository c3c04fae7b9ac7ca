"""Row-level security holds even when application SQL forgets its project filter."""

import psycopg
import pytest

from haki.storage.db import APP_ROLE

# Tables that carry project_id but are deliberately left without RLS (see docs/security.md).
# cli_device_codes holds pending terminal logins, which belong to no project yet.
SYSTEM_TABLES = {"jobs", "api_keys", "cli_device_codes"}
# Tables with RLS on and no policy at all: only their owner (the re-embedding job,
# migration 0120) reads or writes them; the application role sees no row.
OWNER_ONLY_TABLES = {"embedding_staging"}


def _seed(db_url: str) -> None:
    """Two projects' rows, written as the owner (who bypasses RLS)."""
    with psycopg.connect(db_url) as conn:
        for project in ("A", "B"):
            conn.execute(
                "INSERT INTO events (project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key) "
                "VALUES (%s, 'u1', 'note', now(), '{}', 'sha256:x', %s)",
                (project, f"k-{project}"),
            )
            conn.execute(
                "INSERT INTO facts (project_id, subject_id, predicate, value, status) "
                "VALUES (%s, 'u1', 'home_city', '\"Lyon\"', 'active')",
                (project,),
            )


async def test_the_pool_runs_as_the_non_owner_role(db):
    async with db.transaction() as conn:
        row = await (await conn.execute("SELECT current_user AS u, session_user AS s")).fetchone()
    assert row["u"] == APP_ROLE and row["s"] != APP_ROLE
    async with db.transaction(system=True) as conn:
        row = await (await conn.execute("SELECT current_user AS u")).fetchone()
    assert row["u"] != APP_ROLE
    async with db.transaction() as conn:  # SET LOCAL ended with the system transaction
        row = await (await conn.execute("SELECT current_user AS u")).fetchone()
    assert row["u"] == APP_ROLE


async def test_a_query_without_project_filter_sees_only_its_project(db, db_url):
    _seed(db_url)
    async with db.transaction(project_id="A") as conn:
        events = await (await conn.execute("SELECT project_id FROM events")).fetchall()
        facts = await (await conn.execute("SELECT project_id FROM facts")).fetchall()
        named = await (
            await conn.execute("SELECT count(*) AS n FROM facts WHERE project_id = 'B'")
        ).fetchone()
    assert [r["project_id"] for r in events] == ["A"]
    assert [r["project_id"] for r in facts] == ["A"]
    assert named["n"] == 0


async def test_updates_and_deletes_cannot_reach_another_project(db, db_url):
    _seed(db_url)
    async with db.transaction(project_id="A") as conn:
        updated = await conn.execute("UPDATE facts SET status = 'deleted'")
        deleted = await conn.execute("DELETE FROM events")
        assert updated.rowcount == 1 and deleted.rowcount == 1
    with psycopg.connect(db_url) as conn:
        rows = conn.execute("SELECT project_id, status FROM facts ORDER BY project_id").fetchall()
        events = conn.execute("SELECT project_id FROM events").fetchall()
    assert rows == [("A", "deleted"), ("B", "active")]
    assert events == [("B",)]


async def test_writes_into_another_project_are_refused(db):
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        async with db.transaction(project_id="A") as conn:
            await conn.execute(
                "INSERT INTO facts (project_id, subject_id, predicate, value) VALUES ('B', 'u', 'p', '1')"
            )
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        async with db.transaction(project_id="A") as conn:
            await conn.execute(
                "INSERT INTO facts (project_id, subject_id, predicate, value) VALUES ('A', 'u', 'p', '1')"
            )
            await conn.execute("UPDATE facts SET project_id = 'B'")


async def test_a_project_reads_its_own_active_space_and_sets_none(db, db_url):
    """project_embedding_spaces (migration 0171): the application role reads its
    project's row only; only the owner (the re-embedding job) writes it."""
    with psycopg.connect(db_url) as conn:
        conn.execute(
            "INSERT INTO embedding_spaces (provider, model, dimensions) VALUES "
            "('hash', 'a', 384), ('hash', 'b', 768)"
        )
        conn.execute(
            "INSERT INTO project_embedding_spaces (project_id, space) "
            "SELECT p, id FROM (VALUES ('A', 'a'), ('B', 'b')) v(p, m) "
            "JOIN embedding_spaces s ON s.model = v.m"
        )
    async with db.transaction(project_id="A") as conn:
        cur = await conn.execute("SELECT project_id FROM project_embedding_spaces")
        assert [r["project_id"] for r in await cur.fetchall()] == ["A"]
        cur = await conn.execute("UPDATE project_embedding_spaces SET space = space")
        assert cur.rowcount == 0  # no policy lets the application role write
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        async with db.transaction(project_id="C") as conn:
            await conn.execute(
                "INSERT INTO project_embedding_spaces (project_id, space) "
                "SELECT 'C', min(id) FROM embedding_spaces"
            )


async def test_no_project_means_no_tenant_rows(db, db_url):
    _seed(db_url)
    async with db.transaction() as conn:
        n = await (await conn.execute("SELECT count(*) AS n FROM facts")).fetchone()
    assert n["n"] == 0
    # A setting left over from an earlier transaction on the same connection reads as ''.
    async with db.transaction(project_id="A"):
        pass
    async with db.transaction() as conn:
        n = await (await conn.execute("SELECT count(*) AS n FROM events")).fetchone()
    assert n["n"] == 0
    async with db.transaction(system=True) as conn:
        n = await (await conn.execute("SELECT count(*) AS n FROM events")).fetchone()
    assert n["n"] == 2


async def test_system_and_project_are_exclusive(db):
    with pytest.raises(ValueError):
        async with db.transaction(project_id="A", system=True):
            pass


def test_every_table_with_a_project_has_row_level_security(db_url):
    with psycopg.connect(db_url) as conn:
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.columns "
                "WHERE table_schema = 'public' AND column_name = 'project_id'"
            )
        }
        protected = {
            r[0]
            for r in conn.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = 'public' AND c.relrowsecurity "
                "AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid)"
            )
        }
        owner_only = {
            r[0]
            for r in conn.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = 'public' AND c.relrowsecurity "
                "AND NOT EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid)"
            )
        }
    assert {"events", "facts", "episode_chunks", "context_traces"} <= tables
    assert owner_only == OWNER_ONLY_TABLES
    assert tables - SYSTEM_TABLES - OWNER_ONLY_TABLES - protected == set()
    assert not (SYSTEM_TABLES & protected)


def test_the_app_role_owns_nothing_and_cannot_log_in(db_url):
    with psycopg.connect(db_url) as conn:
        login, bypass, superuser = conn.execute(
            "SELECT rolcanlogin, rolbypassrls, rolsuper FROM pg_roles WHERE rolname = %s",
            (APP_ROLE,),
        ).fetchone()
        owned = conn.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = %s",
            (APP_ROLE,),
        ).fetchone()[0]
    assert (login, bypass, superuser, owned) == (False, False, False, 0)
