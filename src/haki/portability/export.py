"""Read a project's (or one subject's) memory as export lines, table by table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from psycopg import sql

from ..forget.service import subject_reference
from ..storage import Connection
from .format import COMPUTED, FORMAT, ORDER, TABLES, VERSION

SPACES = "SELECT id, provider, model, dimensions FROM embedding_spaces ORDER BY id"
SUBJECTS = """
SELECT subject_id FROM events WHERE project_id = %(project_id)s
UNION SELECT subject_id FROM facts WHERE project_id = %(project_id)s
ORDER BY 1"""
EXISTS = """
SELECT EXISTS (SELECT 1 FROM events WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s)
    OR EXISTS (SELECT 1 FROM facts WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s)
    AS found"""
# A subject's receipts: those naming it (by its reference) and those of its facts.
SUBJECT_RECEIPTS = """
project_id = %(project_id)s AND (subject_id = %(reference)s OR fact_id IN (
    SELECT id FROM facts WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s))"""


async def subject_exists(conn: Connection, project_id: str, subject_id: str) -> bool:
    cur = await conn.execute(EXISTS, {"project_id": project_id, "subject_id": subject_id})
    row = await cur.fetchone()
    return bool(row and row["found"])


def _where(table: str, subject_id: str | None) -> sql.Composable:
    if subject_id is None:
        return sql.SQL("project_id = %(project_id)s")
    if table == "forget_receipts":
        return sql.SQL(SUBJECT_RECEIPTS)
    return sql.SQL("project_id = %(project_id)s AND subject_id = %(subject_id)s")


async def _rows(
    conn: Connection, table: str, subject_id: str | None, params: dict[str, Any]
) -> AsyncIterator[dict[str, Any]]:
    query = sql.SQL("SELECT to_jsonb(t) AS row FROM {} AS t WHERE {} ORDER BY {}").format(
        sql.Identifier(table), _where(table, subject_id), sql.SQL(ORDER[table])
    )
    # A named (server-side) cursor: a large project streams, never held whole.
    async with conn.cursor(name=f"export_{table}") as cur:
        await cur.execute(query, params)
        async for record in cur:
            row: dict[str, Any] = record["row"]
            for column in COMPUTED:
                row.pop(column, None)
            yield row


async def export_lines(
    conn: Connection, *, project_id: str, subject_id: str | None, receipt_key: bytes
) -> AsyncIterator[dict[str, Any]]:
    """The header, every row of the exported tables, then the end line with the counts."""
    cur = await conn.execute(SPACES)
    spaces = {
        str(r["id"]): {
            "provider": r["provider"],
            "model": r["model"],
            "dimensions": r["dimensions"],
        }
        for r in await cur.fetchall()
    }
    if subject_id is None:
        cur = await conn.execute(SUBJECTS, {"project_id": project_id})
        subjects = [r["subject_id"] for r in await cur.fetchall()]
    else:
        subjects = [subject_id]
    # A receipt keeps an HMAC of its subject under this server's key; the
    # line names the subject when it is known here, so the target can
    # compute its own reference.
    named = {subject_reference(receipt_key, project_id, s): s for s in subjects}
    yield {
        "kind": "header",
        "format": FORMAT,
        "version": VERSION,
        "project_id": project_id,
        "subject_id": subject_id,
        "exported_at": datetime.now(UTC).isoformat(),
        "spaces": spaces,
    }
    params = {
        "project_id": project_id,
        "subject_id": subject_id,
        "reference": subject_reference(receipt_key, project_id, subject_id or ""),
    }
    counts: dict[str, int] = {}
    for table in TABLES:
        counts[table] = 0
        async for row in _rows(conn, table, subject_id, params):
            line: dict[str, Any] = {"kind": "row", "table": table, "row": row}
            if table == "forget_receipts" and row.get("subject_id") in named:
                line["subject"] = named[row["subject_id"]]
            counts[table] += 1
            yield line
    yield {"kind": "end", "counts": counts}
