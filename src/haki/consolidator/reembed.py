"""Keeping stored facts' text current: after the rendering changes, and when a
subject's name becomes known.

A fact's ``search_text`` and embedding come from fact_text, which names the
subject once the subject said its name. A fact is stale when its stored
``search_text`` differs from the sentence fact_text renders now (with the
subject's current first name); rewriting only stale facts makes every pass
idempotent and resumable. ``reembed_facts`` runs over every fact (``haki
facts reembed``, after an upgrade), a batch per transaction, as the table
owner; ``rerender_subject`` runs inside a write that may have changed the
subject's name (a job or a person asserting ``name``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from ..providers.embed import Embedder
from ..storage import Connection, Database
from ..storage.spaces import hold_written_space
from .embedding import embed_texts
from .fact_text import fact_embedding_text, fact_sentence, first_name

BATCH = """
SELECT id, project_id, subject_id, predicate, value, qualifiers, search_text FROM facts
WHERE id > %(after)s AND (%(project_id)s::text IS NULL OR project_id = %(project_id)s)
ORDER BY id
LIMIT %(limit)s"""

SUBJECT_FACTS = """
SELECT id, project_id, subject_id, predicate, value, qualifiers, search_text FROM facts
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
ORDER BY id"""

# The subject's own name: its active ``name`` fact not said about someone
# else (no ``speaker``), the latest if several.
SUBJECT_NAMES = """
SELECT DISTINCT ON (f.project_id, f.subject_id) f.project_id, f.subject_id, f.value
FROM facts f
JOIN unnest(%(projects)s::text[], %(subjects)s::text[]) AS s(project_id, subject_id)
  ON f.project_id = s.project_id AND f.subject_id = s.subject_id
WHERE f.status = 'active' AND f.predicate = 'name' AND NOT f.qualifiers ? 'speaker'
ORDER BY f.project_id, f.subject_id, f.valid_from DESC NULLS LAST, f.id"""

REWRITE = """
UPDATE facts SET search_text = %(search_text)s, embedding = %(embedding)s
WHERE id = %(id)s"""

COUNT = """
SELECT count(*) AS n FROM facts WHERE (%(project_id)s::text IS NULL OR project_id = %(project_id)s)"""

Names = dict[tuple[str, str], str | None]


@dataclass(frozen=True, slots=True)
class Reembedded:
    seen: int
    rewritten: int


async def subject_names(conn: Connection, scopes: Sequence[tuple[str, str]]) -> Names:
    """The first name of each (project, subject), None when it never said it."""
    unique = sorted(set(scopes))
    cur = await conn.execute(
        SUBJECT_NAMES,
        {"projects": [p for p, _ in unique], "subjects": [s for _, s in unique]},
    )
    found = {
        (r["project_id"], r["subject_id"]): first_name(r["value"]) for r in await cur.fetchall()
    }
    return {scope: found.get(scope) for scope in unique}


async def subject_name(conn: Connection, project_id: str, subject_id: str) -> str | None:
    return (await subject_names(conn, [(project_id, subject_id)]))[(project_id, subject_id)]


async def _rewrite(
    conn: Connection, embedder: Embedder, rows: Sequence[dict[str, Any]], names: Names
) -> int:
    """Rewrite the stale rows among ``rows``; return how many were."""
    stale = []
    for r in rows:
        name = names.get((r["project_id"], r["subject_id"]))
        sentence = fact_sentence(r["predicate"], r["value"], r["qualifiers"], name)
        if r["search_text"] != sentence:
            text = fact_embedding_text(r["predicate"], r["value"], r["qualifiers"], name)
            stale.append((r["id"], sentence, text))
    if not stale:
        return 0
    vectors = await embed_texts(embedder, [text for _, _, text in stale])
    async with conn.cursor() as write:
        await write.executemany(
            REWRITE,
            [
                {"id": fact_id, "search_text": sentence, "embedding": vectors[i]}
                for i, (fact_id, sentence, _) in enumerate(stale)
            ],
        )
    return len(stale)


async def rerender_subject(
    conn: Connection, embedder: Embedder, project_id: str, subject_id: str
) -> int:
    """Bring one subject's facts in line with its current name; return how many changed."""
    cur = await conn.execute(SUBJECT_FACTS, {"project_id": project_id, "subject_id": subject_id})
    rows = await cur.fetchall()
    names = await subject_names(conn, [(project_id, subject_id)])
    return await _rewrite(conn, embedder, rows, names)


async def count_facts(db: Database, project_id: str | None) -> int:
    async with db.transaction(system=True) as conn:
        cur = await conn.execute(COUNT, {"project_id": project_id})
        row = await cur.fetchone()
    return int(row["n"]) if row else 0


async def reembed_facts(
    db: Database,
    embedder: Embedder,
    *,
    project_id: str | None = None,
    space: int | None = None,
    batch: int = 256,
    on_batch: Callable[[int], None] | None = None,
) -> Reembedded:
    """Rewrite ``search_text`` and the embedding of every stale fact.

    ``space``: the embedding space ``embedder`` writes in, for ``project_id``'s
    facts. Each batch's transaction holds it first (``hold_written_space``),
    so a model switch committed since the caller read it raises SpaceMoved
    before any vector of the old model is written; the batches already
    committed stay (they were in the space then, and the switch's staging
    re-embeds them), and a rerun in the new space resumes.
    """
    after, seen, rewritten = UUID(int=0), 0, 0
    while True:
        async with db.transaction(system=True) as conn:
            if project_id is not None:
                await hold_written_space(conn, project_id, space, db.embedding_space)
            cur = await conn.execute(
                BATCH, {"after": after, "project_id": project_id, "limit": batch}
            )
            rows = await cur.fetchall()
            if not rows:
                break
            names = await subject_names(conn, [(r["project_id"], r["subject_id"]) for r in rows])
            rewritten += await _rewrite(conn, embedder, rows, names)
        after = rows[-1]["id"]
        seen += len(rows)
        if on_batch is not None:
            on_batch(len(rows))
    return Reembedded(seen, rewritten)
