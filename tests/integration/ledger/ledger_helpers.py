"""Direct SQL helpers for the ledger's integration tests (rows the consolidator would write)."""

from __future__ import annotations

import psycopg


def sql_rows(db_url: str, sql: str, *params) -> list[tuple]:
    with psycopg.connect(db_url) as conn:
        return conn.execute(sql, params).fetchall()


def insert_fact(
    db_url: str,
    *,
    project_id: str = "p1",
    subject_id: str = "u1",
    predicate: str = "home_city",
    value: str = '"Lyon"',
    status: str = "active",
    **cols,
) -> str:
    names = ["project_id", "subject_id", "predicate", "value", "status", *cols]
    values = [project_id, subject_id, predicate, value, status, *cols.values()]
    placeholders = ", ".join(["%s"] * len(values))
    with psycopg.connect(db_url) as conn:
        (fact_id,) = conn.execute(
            f"INSERT INTO facts ({', '.join(names)}) VALUES ({placeholders}) RETURNING id::text",
            values,
        ).fetchone()
    return fact_id
