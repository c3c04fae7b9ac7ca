"""Replay export lines into a project: idempotent, all or nothing.

Every row keeps its id: keys are ``(id, project_id)``, so an id is free in
any project but the one it came from, and a row the target project already
holds (a second import of the same file) is left as it is. A row that
collides with the target's own rows on another key (an event whose
idempotency key the target already holds) is skipped too: the target's copy
stands. The caller runs this in one transaction, so a rejected line writes
nothing.

Vectors come in the space they were made in (the header describes each by
provider, model and dimensions). A vector of the space the target project
compares within is written as it is, stamped with the target's id of that
space. A vector of another space is never stored: without an embedder the
import is refused (``EmbeddingSpaceMismatch``, naming both spaces); with one
(``haki import --reembed``) the row is written without it and embedded in
the target's space once every line is read, in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from ..consolidator.spaces import embed_rows
from ..errors import EmbeddingSpaceMismatch, InvalidPayload
from ..forget.service import subject_reference
from ..providers.embed import Embedder
from ..storage import Connection, Database
from ..storage.spaces import SpaceMoved, hold_space
from .format import COMPUTED, FORMAT, SPACE, TABLES, VERSION

BATCH = 500
# Reads of the project's space an import makes when switches keep landing
# between its read and its transaction.
SPACE_READS = 3
COLUMNS = """
SELECT attname FROM pg_attribute
WHERE attrelid = %(table)s::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
ORDER BY attnum"""
SET_SPACE = "SELECT set_config('haki.embedding_space', %(space)s, true)"
DESCRIBE = "SELECT provider, model, dimensions FROM embedding_spaces WHERE id = %(space)s"
# The kind of vector row each table holds, as consolidator.spaces names them.
VECTOR_KINDS = {"events": "event", "episode_chunks": "chunk", "facts": "fact"}


@dataclass(slots=True)
class ImportCounts:
    """Rows per table: written now, and already there (left as they were)."""

    written: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    skipped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    # Vectors of another space, embedded again in the target's (by kind).
    reembedded: dict[str, int] = field(default_factory=dict)


def describe(space: dict[str, Any]) -> str:
    return f"{space.get('provider')}:{space.get('model')}:{space.get('dimensions')}"


@dataclass(slots=True)
class _Batch:
    table: str
    space: int | None
    rows: list[dict[str, Any]] = field(default_factory=list)


def _parse(number: int, text: str) -> dict[str, Any]:
    where = f"line {number}"
    try:
        line = json.loads(text)
    except ValueError:
        raise InvalidPayload(f"{where} is not JSON", field=where) from None
    if not isinstance(line, dict) or line.get("kind") not in {"header", "row", "end"}:
        raise InvalidPayload(f"{where} is not an export line", field=where)
    return line


class _Importer:
    def __init__(
        self,
        conn: Connection,
        project_id: str,
        receipt_key: bytes,
        space: int,
        embedder: Embedder | None,
    ) -> None:
        self.conn = conn
        self.project_id = project_id
        self.receipt_key = receipt_key
        self.space = space
        self.target: dict[str, Any] = {}
        self.embedder = embedder
        self.counts = ImportCounts()
        self.seen = dict.fromkeys(TABLES, 0)
        self.spaces: dict[str, dict[str, Any]] = {}
        self.columns: dict[str, list[str]] = {}
        self.batch: _Batch | None = None
        # Rows written without their vector, to embed in the target's space.
        self.unembedded: dict[str, list[Any]] = {}

    async def describe_target(self) -> None:
        cur = await self.conn.execute(DESCRIBE, {"space": self.space})
        row = await cur.fetchone()
        if row is None:
            raise InvalidPayload(f"embedding space {self.space} is not registered")
        self.target = dict(row)

    def header(self, line: dict[str, Any]) -> None:
        if line.get("format") != FORMAT or line.get("version") != VERSION:
            raise InvalidPayload(
                f"line 1 is not a {FORMAT} version {VERSION} header", field="line 1"
            )
        spaces = line.get("spaces")
        self.spaces = spaces if isinstance(spaces, dict) else {}

    def _space(self, where: str, table: str, row: dict[str, Any]) -> int | None:
        """The target's space for the row's vector (None: no vector, or one
        dropped to be embedded again in the target's space)."""
        if row.get("embedding") is None:
            return None
        source = str(row.get(SPACE) or 1)  # NULL reads as space 1 (migration 0120)
        space = self.spaces.get(source)
        if not isinstance(space, dict):
            raise InvalidPayload(
                f"{where}: embedding space {source} is not in the header", field=where
            )
        if all(space.get(k) == self.target[k] for k in ("provider", "model", "dimensions")):
            return self.space
        if self.embedder is None:
            raise EmbeddingSpaceMismatch(
                f"{where}: the file's vectors are in embedding space {describe(space)}, and "
                f"project {self.project_id} compares within {describe(self.target)}; nothing "
                "was imported (--reembed embeds the file's rows in the project's space)",
                field=where,
            )
        row["embedding"] = None
        self.unembedded.setdefault(VECTOR_KINDS[table], []).append(row["id"])
        return None

    async def row(self, number: int, line: dict[str, Any]) -> None:
        where = f"line {number}"
        table, row = line.get("table"), line.get("row")
        if table not in TABLES or not isinstance(row, dict) or not row.get("id"):
            raise InvalidPayload(f"{where} is not a row of an exported table", field=where)
        assert isinstance(table, str)
        if self.batch is not None and TABLES.index(table) < TABLES.index(self.batch.table):
            raise InvalidPayload(
                f"{where}: {table} rows come before {self.batch.table}", field=where
            )
        row = {k: v for k, v in row.items() if k not in COMPUTED}
        row["project_id"] = self.project_id
        subject = line.get("subject")
        if table == "forget_receipts" and isinstance(subject, str):
            row["subject_id"] = subject_reference(self.receipt_key, self.project_id, subject)
        space = self._space(where, table, row)
        row.pop(SPACE, None)  # the target's trigger stamps it
        self.seen[table] += 1
        if self.batch is None or (self.batch.table, self.batch.space) != (table, space):
            await self.flush()
            self.batch = _Batch(table, space)
        self.batch.rows.append(row)
        if len(self.batch.rows) >= BATCH:
            await self.flush()
            self.batch = _Batch(table, space)

    async def _columns(self, table: str) -> list[str]:
        if table not in self.columns:
            cur = await self.conn.execute(COLUMNS, {"table": table})
            names = [r["attname"] for r in await cur.fetchall()]
            self.columns[table] = [n for n in names if n != SPACE]
        return self.columns[table]

    async def flush(self) -> None:
        batch, self.batch = self.batch, None
        if batch is None or not batch.rows:
            return
        keys = {k for row in batch.rows for k in row}
        # Only the columns the export carries: a column it lacks (added by a
        # later migration) takes its default.
        names = [c for c in await self._columns(batch.table) if c in keys]
        columns = sql.SQL(", ").join(map(sql.Identifier, names))
        query = sql.SQL(
            "INSERT INTO {table} ({columns}) SELECT {columns} "
            "FROM jsonb_populate_recordset(NULL::{table}, %(rows)s) ON CONFLICT DO NOTHING"
        ).format(table=sql.Identifier(batch.table), columns=columns)
        await self.conn.execute(
            SET_SPACE, {"space": "" if batch.space is None else str(batch.space)}
        )
        cur = await self.conn.execute(query, {"rows": Jsonb(batch.rows)})
        written = max(cur.rowcount, 0)
        self.counts.written[batch.table] += written
        self.counts.skipped[batch.table] += len(batch.rows) - written

    async def embed(self) -> None:
        """Embed, in the target's space, the rows whose vector was of another."""
        if self.embedder is None or not self.unembedded:
            return
        await self.conn.execute(SET_SPACE, {"space": str(self.space)})
        done = await embed_rows(self.conn, self.embedder, self.project_id, self.unembedded)
        self.counts.reembedded = {kind: n for kind, n in done.items() if n}

    def end(self, number: int, line: dict[str, Any]) -> None:
        counts = line.get("counts")
        if not isinstance(counts, dict) or {t: counts.get(t, 0) for t in TABLES} != self.seen:
            raise InvalidPayload(
                f"line {number}: the end line's counts do not match the rows read",
                field=f"line {number}",
            )


async def import_lines(
    conn: Connection,
    lines: Iterable[str],
    *,
    project_id: str,
    receipt_key: bytes,
    space: int,
    embedder: Embedder | None = None,
) -> ImportCounts:
    """Write the export ``lines`` into ``project_id``, whose vectors are in
    ``space``; raise InvalidPayload on a bad or cut file, EmbeddingSpaceMismatch
    on a vector of another space when no ``embedder`` (of ``space``) is given."""
    importer = _Importer(conn, project_id, receipt_key, space, embedder)
    await importer.describe_target()
    ended = False
    number = 0
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        if ended:
            raise InvalidPayload(f"line {number} follows the end line", field=f"line {number}")
        line = _parse(number, text)
        if number == 1:
            if line["kind"] != "header":
                raise InvalidPayload("line 1 is not the export header", field="line 1")
            importer.header(line)
        elif line["kind"] == "row":
            await importer.row(number, line)
        elif line["kind"] == "end":
            await importer.flush()
            importer.end(number, line)
            await importer.embed()
            ended = True
        else:
            raise InvalidPayload(f"line {number}: a second header", field=f"line {number}")
    if not ended:
        raise InvalidPayload(
            f"the export stops at line {number} without its end line: it was cut short",
            field=f"line {number}",
        )
    return importer.counts


async def import_into(
    db: Database,
    open_lines: Callable[[], AbstractContextManager[Iterable[str]]],
    *,
    project_id: str,
    receipt_key: bytes,
    resolve: Callable[[], Awaitable[tuple[int, Embedder | None]]],
) -> ImportCounts:
    """``import_lines`` in one transaction of its own, in the project's space.

    ``resolve`` reads the project's space (and, to re-embed, builds its
    embedder) outside the transaction; the transaction then holds the space
    (``storage.spaces.hold_space``), so no switch commits before the import
    does, and a switch that committed since the read is seen there: the
    space is read again rather than stamped on the vectors."""
    for _ in range(SPACE_READS):
        space, embedder = await resolve()
        async with db.transaction(project_id=project_id) as conn:
            if await hold_space(conn, project_id, db.embedding_space) != space:
                continue
            with open_lines() as lines:
                return await import_lines(
                    conn,
                    lines,
                    project_id=project_id,
                    receipt_key=receipt_key,
                    space=space,
                    embedder=embedder,
                )
    raise SpaceMoved(project_id)
