"""The plans a context statement runs, nested function bodies included."""

from __future__ import annotations

from typing import Any

import psycopg
from pgvector.psycopg import register_vector

from haki.context.candidates import read_settings
from haki.context.config import DEFAULT
from haki.storage.db import local_settings


def nested_plans(
    db_url: str, sql: str, params: Any, settings: tuple[str, ...] = (), project: str = "proj"
) -> tuple[str, list[Any]]:
    """Every plan ``sql`` runs with ``settings``, as the application role, and its rows.

    auto_explain logs the plans of the statements inside the context
    functions (context_fact_lexical, context_episode_lexical), which a plain
    EXPLAIN shows only as a Function Scan.
    """
    notices: list[str] = []
    with psycopg.connect(db_url, autocommit=True) as conn:
        register_vector(conn)
        conn.execute("LOAD 'auto_explain'")  # superuser only: see the superuser marker
        for setting in ("log_min_duration = 0", "log_nested_statements = on", "log_analyze = on"):
            conn.execute(f"SET auto_explain.{setting}")
        conn.execute("SET client_min_messages = log")
        conn.add_notice_handler(lambda diag: notices.append(diag.message_primary or ""))
        with conn.transaction():
            conn.execute("SET LOCAL ROLE haki_app")
            conn.execute(*local_settings(read_settings(DEFAULT), project))
            for setting in settings:
                conn.execute(f"SET LOCAL {setting}")
            rows = conn.execute(sql, params).fetchall()
    return "\n".join(notices), rows
