"""Run tests against a separately started PostgreSQL, as a non-superuser application role.

What CI checks beside the default run: Haki does not need a superuser. A
second embedded PostgreSQL is started in a temp directory; as its superuser
this script does once what a managed database's administrator does
(docs/deploy.md): a LOGIN role with CREATEDB only, the ``haki_app`` role
granted to it, and ``vector`` created in ``template1``. The tests then run
with ``HAKI_TEST_DATABASE_URL`` naming that role.

    .venv/bin/python scripts/external_pg_tests.py                    # the CI subset
    .venv/bin/python scripts/external_pg_tests.py tests              # the whole suite
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

from haki.storage.embedded import start_embedded

ROLE = "haki_ci"
# The suite's parts that exercise the database the most: the ledger, the
# context assembler, consolidation, auth and row-level security, and the
# many-process and fault tests. Tests marked ``superuser`` (creating roles,
# loading auto_explain) need one by design, so they stay in the default run.
SUBSET = [
    "tests/integration/ledger",
    "tests/integration/context",
    "tests/integration/consolidator",
    "tests/integration/auth",
    "tests/integration/scale",
    "tests/integration/test_schema_sharding.py",
]
NOT_SUPERUSER = ["-m", "not superuser"]


def prepare(admin_url: str) -> str:
    """The administrator's part; returns the application role's maintenance URL."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {ROLE} LOGIN CREATEDB NOSUPERUSER NOBYPASSRLS")
        conn.execute("CREATE ROLE haki_app NOLOGIN")
        conn.execute(f"GRANT haki_app TO {ROLE}")
        conn.execute(f"CREATE DATABASE {ROLE} OWNER {ROLE}")
    template1 = psycopg.conninfo.make_conninfo(admin_url, dbname="template1")
    with psycopg.connect(template1, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return psycopg.conninfo.make_conninfo(admin_url, user=ROLE, dbname=ROLE)


def main() -> int:
    targets = sys.argv[1:] or SUBSET
    with tempfile.TemporaryDirectory(prefix="haki-external-pg-") as tmp:
        server = start_embedded(Path(tmp))
        try:
            url = prepare(server.server.get_uri())  # type: ignore[attr-defined]
            env = {**os.environ, "HAKI_TEST_DATABASE_URL": url}
            print(f"tests against a second PostgreSQL as non-superuser {ROLE}", flush=True)
            return subprocess.call(
                [sys.executable, "-m", "pytest", "-q", *NOT_SUPERUSER, *targets], env=env
            )
        finally:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
