"""Numbered SQL migrations, applied in order, each once, in its own transaction.

Files live in ``storage/migrations/NNNN_name.sql``. A session advisory lock
serialises concurrent starters, so two processes booting at once never apply
the same file twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg

from ..errors import ConfigError

_LOCK_KEY = 0x48414B49  # "HAKI"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)"""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def available() -> list[Migration]:
    files = resources.files("haki.storage").joinpath("migrations")
    found = []
    for entry in files.iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    return sorted(found, key=lambda mig: mig.version)


def check_pgvector(conn: psycopg.Connection) -> None:
    row = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    if row is None:
        raise ConfigError(
            "the PostgreSQL server has no 'vector' extension; install pgvector >= 0.5 "
            "(https://github.com/pgvector/pgvector) or unset HAKI_DATABASE_URL to use the embedded server",
            field="HAKI_DATABASE_URL",
        )


def upgrade(url: str) -> list[Migration]:
    """Apply every pending migration; return those applied (empty when up to date)."""
    applied: list[Migration] = []
    with psycopg.connect(url, autocommit=True) as conn:
        check_pgvector(conn)
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            conn.execute(CREATE_TABLE)
            done = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
            for mig in available():
                if mig.version in done:
                    continue
                try:
                    with conn.transaction():
                        conn.execute(mig.sql)  # a trusted package file, not user input
                        conn.execute(
                            "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                            (mig.version, mig.name),
                        )
                except psycopg.Error as exc:
                    # Typically missing privileges on an external server: say
                    # which migration and what to do, in one line.
                    diag = exc.diag
                    hint = f" ({diag.message_hint})" if diag.message_hint else ""
                    raise ConfigError(
                        f"migration {mig.version:04d}_{mig.name} failed: {diag.message_primary or exc}{hint}",
                        field="HAKI_DATABASE_URL",
                    ) from exc
                applied.append(mig)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
    return applied


def current_version(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        return int(row[0]) if row else 0
