"""Canonical predicates: built-in aliases, learned aliases, then a semantic match.

A predicate outside the built-in vocabulary (typically from an LLM
extractor: "city_of_residence", "favourite_colour") is compared with the
predicates the project already uses. At cosine >= ``PREDICATE_MATCH_COSINE``
between the embeddings of their readable forms it is taken as the same
predicate, and the pair is stored in ``predicate_aliases`` so the match is
learned once and no longer depends on the embedder.

The threshold is set for the local all-MiniLM-L6-v2 embedder, where related
but distinct predicates score high ("favorite book"/"favorite movie" 0.73,
"home city"/"hometown" 0.72, "pet"/"dog" 0.80) and spelling variants score
above 0.9 ("favorite color"/"favourite colour" 0.94). A wrong merge would
supersede a true fact, so only near-synonyms may pass.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from ..providers.embed import Embedder
from ..storage import Connection
from .predicates import SPECS, normalise_predicate, spec

PREDICATE_MATCH_COSINE = 0.88
MAX_KNOWN_PREDICATES = 1000

LOAD_ALIASES = """
SELECT alias, predicate FROM predicate_aliases
WHERE project_id = %(project_id)s AND alias = ANY(%(aliases)s)"""

KNOWN_PREDICATES = """
SELECT DISTINCT predicate FROM facts
WHERE project_id = %(project_id)s AND status IN ('candidate', 'active', 'superseded', 'disputed')
ORDER BY predicate
LIMIT %(limit)s"""

LEARN_ALIAS = """
INSERT INTO predicate_aliases (project_id, alias, predicate) VALUES (%(project_id)s, %(alias)s, %(predicate)s)
ON CONFLICT (project_id, alias) DO NOTHING"""


async def canonical_predicates(
    conn: Connection, embedder: Embedder, project_id: str, predicates: Iterable[str]
) -> dict[str, str]:
    """Map each raw predicate to the predicate its facts are stored under."""
    raw = sorted(set(predicates))
    mapping = {p: normalise_predicate(p) for p in raw}
    open_names = sorted({n for n in mapping.values() if n not in SPECS})
    if not open_names:
        return mapping
    cur = await conn.execute(LOAD_ALIASES, {"project_id": project_id, "aliases": open_names})
    learned = {row["alias"]: row["predicate"] for row in await cur.fetchall()}
    cur = await conn.execute(
        KNOWN_PREDICATES, {"project_id": project_id, "limit": MAX_KNOWN_PREDICATES}
    )
    known = sorted(set(SPECS) | {row["predicate"] for row in await cur.fetchall()})
    unresolved = [n for n in open_names if n not in learned and n not in known]
    if unresolved:
        learned.update(await _semantic_matches(conn, embedder, project_id, unresolved, known))
    return {p: learned.get(n, n) for p, n in mapping.items()}


async def _semantic_matches(
    conn: Connection, embedder: Embedder, project_id: str, names: list[str], known: list[str]
) -> dict[str, str]:
    texts = [spec(n).readable for n in names] + [spec(k).readable for k in known]
    vectors = await asyncio.to_thread(embedder.embed_documents, texts)
    new, old = vectors[: len(names)], vectors[len(names) :]
    sims = new @ old.T
    matches: dict[str, str] = {}
    for i, name in enumerate(names):
        # Highest cosine wins; the known list is sorted, so ties go to the first name.
        best = int(sims[i].argmax())
        if float(sims[i, best]) >= PREDICATE_MATCH_COSINE:
            matches[name] = known[best]
            await conn.execute(
                LEARN_ALIAS, {"project_id": project_id, "alias": name, "predicate": known[best]}
            )
    return matches
