"""Server secrets: from a setting when given, else generated once and kept in the database.

The database is the one place every process of a deployment shares (an API
server, workers, the CLI), so a secret generated there is the same for all
of them and survives restarts. Only the table owner reads ``server_secrets``.
"""

from __future__ import annotations

import secrets

from .db import Database

# The key of the HMAC forget receipts keep instead of a subject id.
RECEIPT_KEY = "forget_receipt_key"

ENSURE = """
INSERT INTO server_secrets (name, value) VALUES (%(name)s, %(value)s)
ON CONFLICT (name) DO NOTHING"""

READ = "SELECT value FROM server_secrets WHERE name = %(name)s"


async def server_secret(db: Database, name: str, configured: str | None = None) -> bytes:
    """``configured`` when set; else the stored secret ``name``, created on first use."""
    if configured:
        return configured.encode("utf-8")
    async with db.transaction(system=True) as conn:
        await conn.execute(ENSURE, {"name": name, "value": secrets.token_hex(32)})
        cur = await conn.execute(READ, {"name": name})
        row = await cur.fetchone()
    assert row is not None
    return str(row["value"]).encode("utf-8")
