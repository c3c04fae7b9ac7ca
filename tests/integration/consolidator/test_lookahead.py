"""A one-subject drain embeds the next job's chunks while a job runs, and changes no fact."""

from collections import Counter

from consolidator_helpers import add_events

from haki.consolidator import Worker, consolidate, run_pending, stages
from haki.providers.extraction import RulesExtractor

JOBS = [
    ["I live in Lyon.", "Okay, got it.", "I love hiking."],
    ["Okay, got it.", "I moved to Paris.", "My sister Anna is a nurse."],
    ["I live in Paris now.", "Thanks, that helps a lot.", "Okay, got it."],
]

STORED = """
SELECT (SELECT jsonb_agg(jsonb_build_object('predicate', f.predicate, 'value', f.value,
                                            'status', f.status) ORDER BY f.predicate, f.value::text)
        FROM facts f) AS facts,
       (SELECT array_agg(c.text || ' ' || c.embedding::text ORDER BY e.occurred_at, c.ordinal)
        FROM episode_chunks c JOIN events e ON e.id = c.event_id) AS chunks"""


class Counting:
    """The embedder's calls, each text with the stage (of its task) that asked for it."""

    def __init__(self, inner):
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.asked: list[tuple[str | None, str]] = []

    def embed_documents(self, texts):
        self.asked.extend((stages.current(), t) for t in texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text):
        return self.inner.embed_query(text)


def said(text):
    return {"messages": [{"role": "user", "content": text}]}


async def stored(db, project_id):
    async with db.transaction(project_id=project_id) as conn:
        return await (await conn.execute(STORED)).fetchone()


async def test_the_next_jobs_chunks_are_embedded_ahead_once(db, hash_embedder, worker_settings):
    queued = []
    for k, turns in enumerate(JOBS):
        ids, _ = await add_events(db, [said(t) for t in turns], start=10 * k)
        queued.append(ids)
    embedder = Counting(hash_embedder)
    worker = Worker(
        db, embedder=embedder, extractor=RulesExtractor(), settings=worker_settings, name="w-ahead"
    )
    summary = await run_pending(worker, project_id="p1", subject_id="u1")
    assert summary.jobs == {"done": 3} and summary.events == 9

    chunks = Counter(where for where, t in embedder.asked if t.startswith("user: "))
    assert chunks == {"embedding": 3, "embedding ahead": 6}
    # Job 1's chunks are embedded before it runs; jobs 2 and 3 follow one at a
    # time, and their chunks are embedded ahead, while the job before runs.
    ahead = [t for where, t in embedder.asked if where == "embedding ahead"]
    assert ahead == [f"user: {t}" for t in JOBS[1] + JOBS[2]]

    # The same turns consolidated job by job, no worker: the same facts and chunks.
    for k, turns in enumerate(JOBS):
        ids, _ = await add_events(
            db, [said(t) for t in turns], project_id="p2", start=10 * k, enqueue=False
        )
        async with db.transaction(project_id="p2") as conn:
            await consolidate(
                conn,
                project_id="p2",
                event_ids=ids,
                embedder=hash_embedder,
                extractor=RulesExtractor(),
            )
    drained, alone = await stored(db, "p1"), await stored(db, "p2")
    assert drained["facts"] and drained == alone
