"""Moving a project to another embedding space without stopping it.

``stage_project`` embeds, with the target space's embedder, every chunk and
fact of a project whose vector is of another space, a batch per
transaction, into ``embedding_staging`` (migration 0120); the rows keep
their vectors, so context calls keep answering in the old space meanwhile.
It is resumable: what is staged stays staged, and a run picks up the rows
not staged yet, including those written since the last run. Events get the
normalised mean of their chunks' new vectors, as the consolidator computes
them. ``switch_project`` then moves the staged vectors into the rows in one
transaction (the stamp trigger records the target space) and empties the
project's staging, and makes the target the project's active space
(``project_embedding_spaces``): readers see the old space until it commits,
the new one after, whatever space the process serving them is configured for
(``project_spaces``).

Every process resolves the project's space before it embeds for it, so
rows written after the switch are in the new space too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..providers.embed import Embedder
from ..providers.embedders import check_indexed, embedder_recipe, embedding_space
from ..storage import Connection, Database
from ..storage.spaces import (
    EmbeddingSpace,
    lock_space_switch,
    register_space,
    set_project_space,
)
from .embedding import embed_texts
from .fact_text import fact_embedding_text
from .reembed import subject_names

OFF_SPACE = "coalesce({a}.embedding_space, 1::smallint) <> %(space)s AND {a}.embedding IS NOT NULL"


def _to_stage(kind: str, table: str, columns: str) -> str:
    """The next rows of a project whose vector is of another space and not staged yet."""
    return f"""
SELECT {columns} FROM {table} r
WHERE r.project_id = %(project_id)s AND r.id > %(after)s AND {OFF_SPACE.format(a="r")}
  AND NOT EXISTS (
    SELECT 1 FROM embedding_staging s
    WHERE s.space = %(space)s AND s.project_id = %(project_id)s AND s.kind = '{kind}'
      AND s.row_id = r.id)
ORDER BY r.id
LIMIT %(limit)s"""


CHUNKS_TO_STAGE = _to_stage("chunk", "episode_chunks", "r.id, r.text")
FACTS_TO_STAGE = _to_stage(
    "fact", "facts", "r.id, r.project_id, r.subject_id, r.predicate, r.value, r.qualifiers"
)

STAGE = """
INSERT INTO embedding_staging (space, kind, row_id, project_id, embedding)
VALUES (%(space)s, %(kind)s, %(row_id)s, %(project_id)s, %(embedding)s)
ON CONFLICT DO NOTHING"""

# An event's vector: the normalised mean of its chunks' (episodes.event_vector).
STAGE_EVENTS = f"""
INSERT INTO embedding_staging (space, kind, row_id, project_id, embedding)
SELECT %(space)s, 'event', e.id, e.project_id, l2_normalize(avg(s.embedding))
FROM events e
JOIN episode_chunks c ON c.project_id = e.project_id AND c.event_id = e.id
JOIN embedding_staging s
  ON s.space = %(space)s AND s.project_id = e.project_id AND s.kind = 'chunk' AND s.row_id = c.id
WHERE e.project_id = %(project_id)s AND {OFF_SPACE.format(a="e")}
GROUP BY e.id, e.project_id
ON CONFLICT DO NOTHING"""

SWITCH = {
    kind: f"""
UPDATE {table} t SET embedding = s.embedding
FROM embedding_staging s
WHERE s.space = %(space)s AND s.project_id = %(project_id)s AND s.kind = '{kind}'
  AND t.project_id = %(project_id)s AND t.id = s.row_id"""
    for kind, table in (("chunk", "episode_chunks"), ("event", "events"), ("fact", "facts"))
}

CLEAR = "DELETE FROM embedding_staging WHERE space = %(space)s AND project_id = %(project_id)s"

COUNTS = """
SELECT kind, coalesce(embedding_space, 1::smallint) AS space, count(*) AS n FROM (
    SELECT 'chunk' AS kind, embedding_space FROM episode_chunks
    WHERE project_id = %(project_id)s AND embedding IS NOT NULL
    UNION ALL SELECT 'event', embedding_space FROM events
    WHERE project_id = %(project_id)s AND embedding IS NOT NULL
    UNION ALL SELECT 'fact', embedding_space FROM facts
    WHERE project_id = %(project_id)s AND embedding IS NOT NULL) r
GROUP BY 1, 2 ORDER BY 1, 2"""

STAGED = """
SELECT kind, count(*) AS n FROM embedding_staging
WHERE space = %(space)s AND project_id = %(project_id)s GROUP BY kind ORDER BY kind"""

PROJECTS = """
SELECT DISTINCT project_id FROM episode_chunks
UNION SELECT DISTINCT project_id FROM facts ORDER BY 1"""

SPACES = "SELECT id, provider, model, dimensions FROM embedding_spaces ORDER BY id"

KINDS = ("chunk", "event", "fact")

UNEMBEDDED_CHUNKS = """
SELECT id, text FROM episode_chunks
WHERE project_id = %(project_id)s AND id = ANY(%(ids)s) AND embedding IS NULL ORDER BY id"""
UNEMBEDDED_FACTS = """
SELECT id, project_id, subject_id, predicate, value, qualifiers FROM facts
WHERE project_id = %(project_id)s AND id = ANY(%(ids)s) AND embedding IS NULL ORDER BY id"""
EMBED_ROW = {
    kind: f"""
UPDATE {table} SET embedding = %(embedding)s
WHERE project_id = %(project_id)s AND id = %(id)s AND embedding IS NULL"""
    for kind, table in (("chunk", "episode_chunks"), ("fact", "facts"))
}
# An event's vector, as the consolidator computes it (episodes.event_vector).
EMBED_EVENTS = """
UPDATE events e SET embedding = m.embedding
FROM (
    SELECT c.event_id, l2_normalize(avg(c.embedding)) AS embedding FROM episode_chunks c
    WHERE c.project_id = %(project_id)s AND c.event_id = ANY(%(ids)s) AND c.embedding IS NOT NULL
    GROUP BY c.event_id) m
WHERE e.project_id = %(project_id)s AND e.id = m.event_id AND e.embedding IS NULL"""


@dataclass(frozen=True, slots=True)
class SpaceProgress:
    """Rows of a project per kind: in the target space, staged for it, and in total."""

    project_id: str
    space: int
    in_space: dict[str, int]
    staged: dict[str, int]
    total: dict[str, int]

    @property
    def done(self) -> int:
        return sum(self.in_space.values()) + sum(self.staged.values())

    @property
    def complete(self) -> bool:
        return all(self.in_space[k] + self.staged[k] >= self.total[k] for k in KINDS)

    def as_dict(self) -> dict[str, Any]:
        total = sum(self.total.values())
        return {
            "project_id": self.project_id,
            "space": self.space,
            "in_space": self.in_space,
            "staged": self.staged,
            "total": self.total,
            "progress": round(self.done / total, 4) if total else 1.0,
            "complete": self.complete,
        }


async def use_embedder_space(db: Database, embedder: Embedder) -> int:
    """Register ``embedder``'s space and make it ``db``'s: this process's rows
    are stamped with it and its context reads compare within it."""
    space = EmbeddingSpace(*embedding_space(embedder))
    return await register_space(db, space, embedder_recipe(embedder))


async def progress(db: Database, space: int, project_id: str) -> SpaceProgress:
    async with db.transaction(system=True) as conn:
        return await _progress(conn, space, project_id)


async def _progress(conn: Connection, space: int, project_id: str) -> SpaceProgress:
    cur = await conn.execute(COUNTS, {"project_id": project_id})
    counts = await cur.fetchall()
    cur = await conn.execute(STAGED, {"space": space, "project_id": project_id})
    staged = {r["kind"]: int(r["n"]) for r in await cur.fetchall()}
    total = dict.fromkeys(KINDS, 0)
    in_space = dict.fromkeys(KINDS, 0)
    for r in counts:
        total[r["kind"]] += int(r["n"])
        if r["space"] == space:
            in_space[r["kind"]] += int(r["n"])
    return SpaceProgress(project_id, space, in_space, {k: staged.get(k, 0) for k in KINDS}, total)


async def projects(db: Database) -> list[str]:
    async with db.transaction(system=True) as conn:
        cur = await conn.execute(PROJECTS)
        return [r["project_id"] for r in await cur.fetchall()]


async def spaces(db: Database) -> list[dict[str, Any]]:
    async with db.transaction(system=True) as conn:
        cur = await conn.execute(SPACES)
        return [dict(r) for r in await cur.fetchall()]


_ZERO = "00000000-0000-0000-0000-000000000000"
Cursor = tuple[str, Any]  # (kind, the last id staged)


async def _texts(conn: Connection, kind: str, rows: Sequence[dict[str, Any]]) -> list[str]:
    """What a chunk's or a fact's vector embeds, as the consolidator writes it."""
    if kind == "chunk":
        return [r["text"] for r in rows]
    names = await subject_names(conn, [(r["project_id"], r["subject_id"]) for r in rows])
    return [
        fact_embedding_text(
            r["predicate"], r["value"], r["qualifiers"], names[(r["project_id"], r["subject_id"])]
        )
        for r in rows
    ]


async def embed_rows(
    conn: Connection,
    embedder: Embedder,
    project_id: str,
    ids: Mapping[str, Sequence[Any]],
    *,
    batch: int = 256,
) -> dict[str, int]:
    """Embed the project's chunks and facts of ``ids`` (by kind) that have no
    vector, then give each event of ``ids`` the normalised mean of its
    chunks', in ``conn``'s transaction and space; return the rows embedded."""
    done = dict.fromkeys(KINDS, 0)
    for kind, statement in (("chunk", UNEMBEDDED_CHUNKS), ("fact", UNEMBEDDED_FACTS)):
        wanted = list(ids.get(kind, ()))
        for start in range(0, len(wanted), batch):
            cur = await conn.execute(
                statement, {"project_id": project_id, "ids": wanted[start : start + batch]}
            )
            rows = await cur.fetchall()
            vectors = await embed_texts(embedder, await _texts(conn, kind, rows))
            async with conn.cursor() as write:
                await write.executemany(
                    EMBED_ROW[kind],
                    [
                        {"project_id": project_id, "id": r["id"], "embedding": vectors[i]}
                        for i, r in enumerate(rows)
                    ],
                )
            done[kind] += len(rows)
    events = list(ids.get("event", ()))
    if events:
        cur = await conn.execute(EMBED_EVENTS, {"project_id": project_id, "ids": events})
        done["event"] = max(cur.rowcount, 0)
    return done


async def _stage_batch(
    conn: Connection, embedder: Embedder, space: int, project_id: str, cursor: Cursor, limit: int
) -> tuple[int, Cursor | None]:
    """Stage one batch of chunks, then of facts; return (rows staged, the next cursor)."""
    kind, after = cursor
    cur = await conn.execute(
        CHUNKS_TO_STAGE if kind == "chunk" else FACTS_TO_STAGE,
        {"space": space, "project_id": project_id, "after": after, "limit": limit},
    )
    rows = await cur.fetchall()
    if not rows:
        return 0, (("fact", _ZERO) if kind == "chunk" else None)
    vectors = await embed_texts(embedder, await _texts(conn, kind, rows))
    async with conn.cursor() as write:
        await write.executemany(
            STAGE,
            [
                {
                    "space": space,
                    "kind": kind,
                    "row_id": r["id"],
                    "project_id": project_id,
                    "embedding": vectors[i],
                }
                for i, r in enumerate(rows)
            ],
        )
    return len(rows), (kind, rows[-1]["id"])


async def stage_project(
    db: Database,
    embedder: Embedder,
    space: int,
    project_id: str,
    *,
    batch: int = 256,
    on_batch: Callable[[int], None] | None = None,
) -> int:
    """Stage the project's rows not in ``space`` yet; return how many were staged."""
    check_indexed(embedder.dim)
    staged = 0
    cursor: Cursor | None = ("chunk", _ZERO)
    while cursor is not None:
        async with db.transaction(system=True) as conn:
            n, cursor = await _stage_batch(conn, embedder, space, project_id, cursor, batch)
        staged += n
        if n and on_batch is not None:
            on_batch(n)
    async with db.transaction(system=True) as conn:
        await conn.execute(STAGE_EVENTS, {"space": space, "project_id": project_id})
    return staged


async def switch_project(db: Database, space: int, project_id: str) -> dict[str, int] | None:
    """Move the project's staged vectors into its rows, in one transaction;
    None, and nothing moved, when rows written since the staging are not
    staged yet (stage again, then switch).

    ``db`` must carry ``space`` (``Database.embedding_space``): the stamp
    trigger records the space of the transaction that writes a vector.
    """
    if db.embedding_space != space:
        raise ValueError("switch through a Database of the target space")
    moved: dict[str, int] = {}
    params = {"space": space, "project_id": project_id}
    async with db.transaction(system=True) as conn:
        # Before the rows: an import holding the project's space finishes
        # first, and none starts in the old space until this commits.
        await lock_space_switch(conn, project_id)
        # Writers hold the space until they commit, so once the lock is ours
        # no row joins the old space: what is complete now stays complete.
        if not (await _progress(conn, space, project_id)).complete:
            return None
        for kind, statement in SWITCH.items():
            cur = await conn.execute(statement, params)
            moved[kind] = cur.rowcount
        await conn.execute(CLEAR, params)
        # The project's active space, in the same commit as its vectors: every
        # process embeds its next call for the project in the new space.
        await set_project_space(conn, project_id, space)
    return moved
