"""Rows copied straight into a test database, for tests that need many.

The table is analysed afterwards, so the full-text legs read planner
statistics as they do in service.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql


def copy_rows(
    db_url: str, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """``rows`` into ``table`` by COPY, as the owner, then ``ANALYZE table``."""
    names = sql.SQL(", ").join(map(sql.Identifier, columns))
    with psycopg.connect(db_url, autocommit=True) as owner:
        register_vector(owner)
        with (
            owner.cursor() as cur,
            cur.copy(
                sql.SQL("COPY {} ({}) FROM STDIN").format(sql.Identifier(table), names)
            ) as copy,
        ):
            for row in rows:
                copy.write_row(row)
        owner.execute(sql.SQL("ANALYZE {}").format(sql.Identifier(table)))


def copy_facts(
    db_url: str, project: str, subject: str, texts: Sequence[str], vectors: Sequence[Any]
) -> None:
    """Each text an active ``note`` fact of one scope, valid and recorded one
    minute after the previous one (starting thirty days ago), with its vector."""
    start = datetime.now(UTC) - timedelta(days=30)
    columns = (
        "project_id", "subject_id", "predicate", "value", "status", "confidence",
        "valid_from", "recorded_from", "search_text", "embedding",
    )  # fmt: skip
    rows = []
    for i, (text, vec) in enumerate(zip(texts, vectors, strict=True)):
        when = start + timedelta(minutes=i)
        rows.append(
            (project, subject, "note", json.dumps(text), "active", 0.8, when, when, text, vec)
        )
    copy_rows(db_url, "facts", columns, rows)
