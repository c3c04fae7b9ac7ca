"""The schema is ready to be sharded by project: the test behind docs/scaling.md.

Citus (or any hash-partitioning by ``project_id``) needs every distributed
table to carry the distribution column, and every primary key, unique key
and foreign key to include it, so that each constraint is checked inside one
shard. This reads the migrated schema from the catalog, so a table or
constraint added later is held to the same rule.
"""

from __future__ import annotations

import psycopg

# Bookkeeping of the schema itself, the deployment's own secrets (one per
# server, e.g. the forget receipts' key) and its registry of embedding models
# (embedding_spaces): reference tables under Citus, not tenant data. A
# distributed table may reference them by a key without project_id.
NOT_SHARDED = {"schema_migrations", "server_secrets", "embedding_spaces"}

CONSTRAINTS = """
SELECT c.conrelid::regclass::text AS tbl, c.conname, c.contype,
       array_agg(a.attname ORDER BY a.attnum) AS cols, c.confrelid::regclass::text AS ref
FROM pg_constraint c
JOIN pg_namespace n ON n.oid = c.connamespace
JOIN LATERAL unnest(c.conkey) AS k(attnum) ON true
JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
WHERE n.nspname = 'public' AND c.contype IN ('p', 'u', 'f')
GROUP BY 1, 2, 3, 5
ORDER BY 1, 2
"""

UNIQUE_INDEXES = """
SELECT t.relname AS tbl, i.relname AS idx,
       array_agg(a.attname ORDER BY a.attnum) AS cols
FROM pg_index x
JOIN pg_class i ON i.oid = x.indexrelid
JOIN pg_class t ON t.oid = x.indrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
JOIN LATERAL unnest(x.indkey) AS k(attnum) ON true
JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
WHERE n.nspname = 'public' AND x.indisunique
GROUP BY 1, 2
ORDER BY 1, 2
"""

TABLES = """
SELECT c.relname,
       bool_or(a.attname = 'project_id' AND a.attnotnull) AS has_project
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
GROUP BY 1
ORDER BY 1
"""


def test_every_table_key_and_reference_includes_the_project(db_url: str) -> None:
    with psycopg.connect(db_url) as conn:
        tables = conn.execute(TABLES).fetchall()
        constraints = conn.execute(CONSTRAINTS).fetchall()
        unique = conn.execute(UNIQUE_INDEXES).fetchall()
    problems = [
        f"{name}: no NOT NULL project_id"
        for name, has_project in tables
        if name not in NOT_SHARDED and not has_project
    ]
    problems += [
        f"{tbl}.{name} ({kind}): {cols} lacks project_id"
        for tbl, name, kind, cols, ref in constraints
        if tbl not in NOT_SHARDED and "project_id" not in cols and ref not in NOT_SHARDED
    ]
    problems += [
        f"{tbl}.{idx} (unique index): {cols} lacks project_id"
        for tbl, idx, cols in unique
        if tbl not in NOT_SHARDED and "project_id" not in cols
    ]
    assert tables, "no tables found: the schema was not migrated"
    assert problems == [], "\n".join(problems)
