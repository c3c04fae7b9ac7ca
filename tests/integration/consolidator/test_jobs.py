"""The queue and the pipeline's idempotency: replay, chunks, retries, reclaim."""

import asyncio

from consolidator_helpers import add_events, fake

from haki import jobs
from haki.consolidator import Worker, consolidate, run_pending
from haki.consolidator.backlog import enqueue_unconsolidated
from haki.providers.extraction import RulesExtractor

SNAPSHOT = """
SELECT (SELECT coalesce(jsonb_agg(to_jsonb(f) - 'embedding' - 'updated_at' ORDER BY f.id), '[]')
        FROM facts f) AS facts,
       (SELECT coalesce(jsonb_agg(jsonb_build_object('event', c.event_id, 'ordinal', c.ordinal, 'text', c.text)
                                  ORDER BY c.event_id, c.ordinal), '[]') FROM episode_chunks c) AS chunks,
       (SELECT coalesce(jsonb_agg(to_jsonb(s) - 'id' - 'created_at' ORDER BY s.created_at), '[]')
        FROM conflict_sets s) AS conflicts"""


async def snapshot(db, project_id="p1"):
    async with db.transaction(project_id=project_id) as conn:
        cur = await conn.execute(SNAPSHOT)
        return await cur.fetchone()


async def job_row(db, job_id):
    async with db.transaction() as conn:
        cur = await conn.execute("SELECT * FROM jobs WHERE id = %s", (job_id,))
        return await cur.fetchone()


async def test_replaying_a_job_changes_nothing(db, hash_embedder):
    ids, _ = await add_events(
        db,
        [
            {"text": "I live in Paris. My sister Anna is great."},
            {"text": "I moved to Lyon. I live in Lyon now."},
            {"text": "I love hiking."},
        ],
    )
    extractor = RulesExtractor()

    async def run():
        async with db.transaction(project_id="p1") as conn:
            return await consolidate(
                conn, project_id="p1", event_ids=ids, embedder=hash_embedder, extractor=extractor
            )

    first = await run()
    before = await snapshot(db)
    second = await run()
    assert await snapshot(db) == before
    assert first.chunks == 3 and second.chunks == 0
    assert second.actions == {"replay": first.candidates}


async def test_chunks_are_idempotent_and_rendered_per_turn(db, fake_worker):
    transcript = {
        "messages": [
            {"role": "user", "content": "Hi there"},
            {"role": "assistant", "content": "Hello!"},
        ]
    }
    turn = {"speaker": "Caroline", "text": "Look at this.", "blip_caption": "a photo of a sunset"}
    ids, _ = await add_events(db, [transcript, turn, {"text": "para one\n\npara two"}])
    await run_pending(fake_worker)
    async with db.transaction(project_id="p1") as conn:
        await jobs.enqueue(conn, project_id="p1", event_ids=ids)
    await run_pending(fake_worker)
    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute(
            "SELECT event_id, ordinal, text, embedding IS NOT NULL AS e,"
            " search_vector IS NOT NULL AS tsv FROM episode_chunks ORDER BY occurred_at, ordinal"
        )
        chunks = await cur.fetchall()
        cur = await conn.execute("SELECT count(*) AS n FROM events WHERE embedding IS NOT NULL")
        embedded = (await cur.fetchone())["n"]
    assert [c["text"] for c in chunks] == [
        "user: Hi there",
        "assistant: Hello!",
        "Caroline: Look at this. [shares image: a photo of a sunset]",
        "para one\n\npara two",
    ]
    assert all(c["e"] and c["tsv"] for c in chunks) and embedded == 3


async def test_failures_back_off_then_fail_with_the_error_visible(
    db, hash_embedder, worker_settings, client
):
    class Broken:
        name = "broken"

        async def extract(self, events):
            raise RuntimeError("model exploded")

    worker = Worker(
        db, embedder=hash_embedder, extractor=Broken(), settings=worker_settings, name="w-broken"
    )
    _, job_id = await add_events(db, [{"text": "I live in Paris."}])
    for attempt in range(1, 4):
        summary = await run_pending(worker)
        assert summary.jobs == ({"failed": 1} if attempt == 3 else {"retry": 1})
        row = await job_row(db, job_id)
        assert row["attempts"] == attempt and row["last_error"] == "RuntimeError: model exploded"
        if attempt < 3:
            assert row["status"] == "pending" and row["run_after"] > row["created_at"]
            async with db.transaction() as conn:  # skip the backoff wait
                await conn.execute("UPDATE jobs SET run_after = now() WHERE id = %s", (job_id,))
    assert row["status"] == "failed"
    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM episode_chunks")
        assert (await cur.fetchone())["n"] == 0  # a failed job leaves nothing half-written

    r = await client.get("/v1/jobs", params={"project_id": "p1", "status": "failed"})
    assert r.status_code == 200
    body = r.json()
    assert body["counts"] == {"failed": 1}
    assert body["jobs"][0]["last_error"] == "RuntimeError: model exploded"


async def test_an_expired_claim_is_reclaimed_and_a_live_one_is_not(
    db, fake_worker, worker_settings, hash_embedder
):
    _, job_id = await add_events(db, [fake("employer", "Acme")])
    (job,) = await fake_worker.claim()
    assert await fake_worker.claim() == []  # claimed: invisible to others
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE jobs SET claimed_at = now() - interval '1 hour' WHERE id = %s", (job_id,)
        )
    other = Worker(
        db,
        embedder=hash_embedder,
        extractor=fake_worker.extractor,
        settings=worker_settings,
        name="w2",
    )
    summary = await run_pending(other)
    assert summary.jobs == {"done": 1}
    assert (await fake_worker.run_job(job)).outcome == "lost"  # the first worker's claim is gone
    row = await job_row(db, job_id)
    assert row["status"] == "done" and row["attempts"] == 2 and row["claimed_by"] == "w2"


async def test_concurrent_workers_take_disjoint_jobs(
    db, fake_worker, worker_settings, hash_embedder
):
    for i in range(12):
        await add_events(db, [fake("employer", f"Company {i}")], subject_id=f"s{i}")
    workers = [
        Worker(
            db,
            embedder=hash_embedder,
            extractor=fake_worker.extractor,
            settings=worker_settings,
            name=f"w{i}",
        )
        for i in range(3)
    ]
    summaries = await asyncio.gather(*(run_pending(w) for w in workers))
    assert sum(s.jobs.get("done", 0) for s in summaries) == 12
    async with db.transaction() as conn:
        cur = await conn.execute("SELECT status, count(*) AS n FROM jobs GROUP BY status")
        assert await cur.fetchall() == [{"status": "done", "n": 12}]


async def test_a_replay_does_not_bring_back_a_disabled_fact(db, fake_worker):
    from haki.ledger.transitions import set_status

    ids, _ = await add_events(db, [fake("employer", "Acme")])
    await run_pending(fake_worker)
    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute("SELECT id FROM facts")
        (fact,) = await cur.fetchall()
        await set_status(conn, project_id="p1", fact_id=fact["id"], status="disabled")
        await jobs.enqueue(conn, project_id="p1", event_ids=ids)
    summary = await run_pending(fake_worker)
    assert summary.actions == {"replay": 1}
    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute("SELECT status FROM facts")
        assert await cur.fetchall() == [{"status": "disabled"}]


class CountingEmbedder:
    """The hash embedder, recording the size of every call."""

    def __init__(self, inner, fail: bool = False):
        self.inner, self.name, self.dim, self.fail = inner, inner.name, inner.dim, fail
        self.calls: list[int] = []

    def embed_documents(self, texts):
        self.calls.append(len(texts))
        if self.fail:
            raise RuntimeError("inference failed")
        return self.inner.embed_documents(texts)

    def embed_query(self, text):
        return self.embed_documents([text])[0]


async def test_claimed_jobs_embed_their_chunks_in_one_call(db, hash_embedder, worker_settings):
    for subject in ("a", "b", "c"):
        await add_events(
            db,
            [{"text": f"{subject} turn one"}, {"text": f"{subject} turn two"}],
            subject_id=subject,
        )
    counting = CountingEmbedder(hash_embedder)
    worker = Worker(
        db, embedder=counting, extractor=RulesExtractor(), settings=worker_settings, name="w-batch"
    )
    summary = await run_pending(worker)
    assert summary.jobs == {"done": 3} and summary.chunks == 6
    assert counting.calls == [6]  # one call for every chunk of the three jobs, none per job

    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n, count(embedding) AS embedded FROM episode_chunks"
        )
        assert await cur.fetchone() == {"n": 6, "embedded": 6}


async def test_failed_inference_ahead_leaves_each_job_to_fail_on_its_own(
    db, hash_embedder, worker_settings
):
    for subject in ("a", "b"):
        await add_events(db, [{"text": f"{subject} says hello"}], subject_id=subject)
    failing = CountingEmbedder(hash_embedder, fail=True)
    worker = Worker(
        db, embedder=failing, extractor=RulesExtractor(), settings=worker_settings, name="w-fail"
    )
    ran = await worker.run_batch()
    assert [r.outcome for r in ran] == ["retry", "retry"]
    async with db.transaction() as conn:
        cur = await conn.execute("SELECT last_error FROM jobs ORDER BY subject_id")
        assert [r["last_error"] for r in await cur.fetchall()] == [
            "RuntimeError: inference failed"
        ] * 2
    assert failing.calls == [2, 1, 1]  # ahead for both, then each job on its own


async def test_jobs_queued_in_one_statement_run_in_the_order_given(db):
    """Jobs of one transaction share ``created_at``: the order they were given still holds."""
    given = [[f"e{i}"] for i in range(8)]
    async with db.transaction(project_id="p1") as conn:
        await jobs.enqueue_many(conn, [jobs.NewJob("default", "p1", "u1", tuple(e)) for e in given])
    ran = []
    for _ in given:
        async with db.transaction(project_id="p1") as conn:
            claimed = await jobs.claim(conn, worker="w", limit=len(given))
            # A subject's job waits for the one queued before it.
            assert len(claimed) == 1
            await jobs.complete(conn, claimed[0], {})
        ran.append(claimed[0].event_ids)
    assert ran == given


async def test_the_backlog_sweep_consolidates_a_subject_oldest_first(db, rules_worker):
    """Never-consolidated events queued one per job, in one statement: each move supersedes the last."""
    cities = ["Paris", "Lyon", "Oslo", "Porto", "Turin", "Ghent"]
    await add_events(db, [{"text": f"I live in {c} now."} for c in cities], enqueue=False)
    async with db.transaction(project_id="p1") as conn:
        assert await enqueue_unconsolidated(conn, project_id="p1", batch=1) == len(cities)
    await run_pending(rules_worker)
    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute(
            "SELECT f.value #>> '{}' AS city, f.status, p.value #>> '{}' AS replaced"
            " FROM facts f LEFT JOIN facts p ON p.id = f.supersedes_id"
            " WHERE f.predicate = 'home_city' ORDER BY f.valid_from, f.id"
        )
        rows = await cur.fetchall()
    assert [(r["city"], r["status"], r["replaced"]) for r in rows] == [
        (c, "active" if i == len(cities) - 1 else "superseded", cities[i - 1] if i else None)
        for i, c in enumerate(cities)
    ]
