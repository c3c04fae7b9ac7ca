"""Facts copied straight into a test database, for tests that need many.

Each text becomes an active ``note`` fact of one scope, valid and recorded
one minute after the previous one (starting thirty days ago), with its
vector; the table is analysed afterwards, so the full-text legs read
planner statistics as they do in service.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from pgvector.psycopg import register_vector


def copy_facts(
    db_url: str, project: str, subject: str, texts: Sequence[str], vectors: Sequence[Any]
) -> None:
    start = datetime.now(UTC) - timedelta(days=30)
    with psycopg.connect(db_url, autocommit=True) as owner:
        register_vector(owner)
        with (
            owner.cursor() as cur,
            cur.copy(
                "COPY facts (project_id, subject_id, predicate, value, status, confidence, "
                "valid_from, recorded_from, search_text, embedding) FROM STDIN"
            ) as copy,
        ):
            for i, (text, vec) in enumerate(zip(texts, vectors, strict=True)):
                when = start + timedelta(minutes=i)
                row = (project, subject, "note", json.dumps(text), "active", 0.8, when, when)
                copy.write_row((*row, text, vec))
        owner.execute("ANALYZE facts")
