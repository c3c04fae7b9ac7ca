"""Migration 0040 on an external server where the migrating user is not a superuser."""

import uuid

import psycopg
import pytest
from psycopg import sql

from haki.errors import ConfigError
from haki.storage.migrate import upgrade


@pytest.fixture
def non_superuser_db(pg_maintenance_url, template_url):
    """A database owned by a fresh LOGIN role without superuser; pgvector installed by an admin."""
    name = f"haki_mig_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_maintenance_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
        admin.execute(
            sql.SQL("CREATE DATABASE {} OWNER {}").format(
                sql.Identifier(name), sql.Identifier(name)
            )
        )
    info = psycopg.conninfo.conninfo_to_dict(pg_maintenance_url)
    admin_url = psycopg.conninfo.make_conninfo(**{**info, "dbname": name})
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute("CREATE EXTENSION vector")
    yield name, admin_url, psycopg.conninfo.make_conninfo(**{**info, "dbname": name, "user": name})
    with psycopg.connect(pg_maintenance_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))


@pytest.mark.superuser
def test_an_ungranted_user_gets_a_clear_error_then_migrates_once_granted(
    non_superuser_db, pg_maintenance_url
):
    name, _admin_url, user_url = non_superuser_db
    # haki_app already exists in this cluster (template_url created it), so
    # the user needs an administrator's grant: the migration says so.
    with pytest.raises(ConfigError) as err:
        upgrade(user_url)
    message = str(err.value)
    assert "\n" not in message and message.startswith("migration 0040_row_level_security failed")
    assert "cannot be granted role haki_app" in message
    assert f"GRANT haki_app TO {name}" in message

    with psycopg.connect(pg_maintenance_url, autocommit=True) as admin:
        admin.execute(sql.SQL("GRANT haki_app TO {}").format(sql.Identifier(name)))
    applied = upgrade(user_url)
    assert [m.version for m in applied][-1] >= 40
    with psycopg.connect(user_url) as conn:
        conn.execute(
            "INSERT INTO facts (project_id, subject_id, predicate, value) VALUES ('A', 's', 'p', '1'), ('B', 's', 'p', '1')"
        )
        conn.execute("SET ROLE haki_app")
        conn.execute("SELECT set_config('app.project_id', 'A', true)")
        assert conn.execute("SELECT project_id FROM facts").fetchall() == [("A",)]
