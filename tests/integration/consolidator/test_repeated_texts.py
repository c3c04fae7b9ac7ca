"""Repeated turns embedded once: a job's facts and stored vectors stay those of a fresh model pass."""

import numpy as np
from consolidator_helpers import add_events

from haki.consolidator import consolidate
from haki.providers.embed import LocalEmbedder
from haki.providers.extraction import RulesExtractor

TURNS = [
    "Okay, got it.",
    "I live in Lyon.",
    "Okay, got it.",
    "Thanks, that helps a lot.",
    "I live in Lyon.",
    "I love hiking.",
    "Okay, got it.",
]

STORED = """
SELECT (SELECT jsonb_agg(jsonb_build_object('predicate', f.predicate, 'value', f.value,
                                            'status', f.status) ORDER BY f.predicate, f.value::text)
        FROM facts f) AS facts,
       (SELECT array_agg(c.text ORDER BY e.occurred_at, c.ordinal)
        FROM episode_chunks c JOIN events e ON e.id = c.event_id) AS texts,
       (SELECT array_agg(c.embedding::text ORDER BY e.occurred_at, c.ordinal)
        FROM episode_chunks c JOIN events e ON e.id = c.event_id) AS vectors"""


async def run(db, project_id: str, embedder: LocalEmbedder):
    ids, _ = await add_events(db, [{"text": t} for t in TURNS], project_id=project_id)
    async with db.transaction(project_id=project_id) as conn:
        await consolidate(
            conn,
            project_id=project_id,
            event_ids=ids,
            embedder=embedder,
            extractor=RulesExtractor(),
        )
        cur = await conn.execute(STORED)
        return await cur.fetchone()


async def test_repeated_turns_give_the_facts_and_vectors_of_uncached_runs(db, local_embedder):
    local_embedder._documents.clear()
    local_embedder.embed_documents(["I live in Lyon.", "Okay, got it."])  # an earlier job's
    cached = await run(db, "p1", local_embedder)
    fresh = LocalEmbedder()
    fresh._documents = type(fresh._documents)(size=0)  # every text runs the model
    uncached = await run(db, "p2", fresh)
    assert cached["facts"] and cached["facts"] == uncached["facts"]
    assert cached["texts"] == uncached["texts"]
    assert cached["texts"].count("Okay, got it.") == 3
    got = np.array([np.fromstring(v.strip("[]"), sep=",") for v in cached["vectors"]])
    want = np.array([np.fromstring(v.strip("[]"), sep=",") for v in uncached["vectors"]])
    np.testing.assert_allclose(got, want, atol=1e-6)
