"""The export format (``haki.export`` version 1), shared by the exporter and the importer.

One JSON object per line: a ``header`` (the project and subject exported,
and the embedding spaces the vectors were made in), then ``row`` lines
(``{"kind": "row", "table": ..., "row": {...}}``, a table's columns as
PostgreSQL renders them to JSON: vectors as their text), then an ``end`` line
with the number of rows per table, so a cut stream is told from a whole one.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

FORMAT = "haki.export"
VERSION = 1

# The tables exported, in the order an import writes them: every reference
# (chunk → event, fact → the fact it supersedes, transition → fact) points
# to a row written before it. Traces, feedback and jobs stay behind: they
# describe calls and work of the source server, not the subject's memory.
TABLES = (
    "events",
    "episode_chunks",
    "facts",
    "fact_transitions",
    "conflict_sets",
    "forget_receipts",
)

# Columns PostgreSQL computes (GENERATED ... STORED) or the import sets:
# never exported, never written.
COMPUTED = {"search_vector"}
# The space a vector was made in: exported as the source's id, which the
# header describes; an import keeps a vector only when that description is
# the target project's space (importer._space), stamped with the target's id.
SPACE = "embedding_space"

# Rows in one order per table, so two exports of the same rows are equal.
ORDER = {
    "events": "occurred_at, recorded_at, id",
    "episode_chunks": "occurred_at, event_id, ordinal, id",
    "facts": "version, recorded_from, id",
    "fact_transitions": "created_at, version, id",
    "conflict_sets": "created_at, id",
    "forget_receipts": "created_at, id",
}


def dump_line(line: dict[str, Any]) -> bytes:
    """One export line, newline-terminated. orjson refuses integers past 64 bits,
    which a JSON value may hold: those lines go through the standard library."""
    try:
        return orjson.dumps(line) + b"\n"
    except TypeError:
        return json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
