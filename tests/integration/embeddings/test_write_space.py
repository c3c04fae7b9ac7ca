"""Writers stamp vectors with the space their own transaction holds: a
consolidation job whose project was switched between its read of the space
and its transaction embeds again in the new space, and a switch never
strands rows written after the staging in the old space."""

from __future__ import annotations

import sys
from pathlib import Path

import psycopg
from test_spaces import app_client

from haki.consolidator.project_spaces import ProjectSpaces
from haki.consolidator.spaces import progress, stage_project, switch_project, use_embedder_space
from haki.storage import Database

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "consolidator"))

PROJECT = "p1"


def said(subject: str, text: str) -> dict[str, object]:
    return {
        "project_id": PROJECT,
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": "2024-05-01T12:00:00Z",
        "payload": {"text": text},
    }


def chunk_spaces(db_url: str) -> dict[int, int]:
    """Chunks of the project per stamped space."""
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT coalesce(embedding_space, 1), count(*) FROM episode_chunks "
            "WHERE project_id = %s GROUP BY 1 ORDER BY 1",
            (PROJECT,),
        ).fetchall()
    return {int(space): int(n) for space, n in rows}


async def test_a_switch_between_a_jobs_read_and_its_transaction_is_read_again(
    db_url, local_embedder, hash_embedder, monkeypatch
):
    db = Database(db_url, min_size=1, max_size=2)
    await db.open()
    try:
        async with app_client(db_url, local_embedder) as minilm:
            target = await use_embedder_space(db, hash_embedder)
            read = ProjectSpaces.for_project
            reads: list[int | None] = []

            async def stale_then_switched(self, project_id, *, fresh=True):
                found = await read(self, project_id, fresh=fresh)
                reads.append(found[0])
                if len(reads) == 2:
                    # Another process switches the project after the job's
                    # read (the first read chooses whether to prime an
                    # embedder for the batch), before its transaction opens.
                    with psycopg.connect(db_url) as conn:
                        conn.execute(
                            "INSERT INTO project_embedding_spaces (project_id, space) "
                            "VALUES (%s, %s)",
                            (PROJECT, target),
                        )
                return found

            monkeypatch.setattr(ProjectSpaces, "for_project", stale_then_switched)
            r = await minilm.post("/v1/capture", json={"events": [said("u1", "I live in Paris.")]})
            assert r.status_code == 202, r.text
            r = await minilm.post("/v1/consolidate")
            assert r.status_code == 200, r.text
            assert r.json()["jobs"] == {"done": 1}, r.text
    finally:
        await db.close()
    # The first read (the serving process's space) was not used to write:
    # the job read the space again and embedded in the hash space.
    assert reads[:2] == [reads[0], reads[0]] and reads[0] != target
    assert reads[2:] == [target]
    assert chunk_spaces(db_url) == {target: 1}


async def test_a_switch_stages_rows_written_after_the_staging_first(
    db_url, local_embedder, hash_embedder
):
    async with app_client(db_url, local_embedder) as minilm:
        r = await minilm.post("/v1/capture", json={"events": [said("u1", "I live in Paris.")]})
        assert r.status_code == 202
        assert (await minilm.post("/v1/consolidate")).status_code == 200
        db = Database(db_url, min_size=1, max_size=2)
        await db.open()
        try:
            space = await use_embedder_space(db, hash_embedder)
            await stage_project(db, hash_embedder, space, PROJECT)
            assert (await progress(db, space, PROJECT)).complete
            # Written in the old space after the staging.
            r = await minilm.post(
                "/v1/capture", json={"events": [said("u2", "I work at Initech.")]}
            )
            assert r.status_code == 202
            assert (await minilm.post("/v1/consolidate")).status_code == 200
            before = chunk_spaces(db_url)
            assert await switch_project(db, space, PROJECT) is None
            assert chunk_spaces(db_url) == before  # nothing moved
            await stage_project(db, hash_embedder, space, PROJECT)
            moved = await switch_project(db, space, PROJECT)
            assert moved is not None and moved["chunk"] == 2
            after = await progress(db, space, PROJECT)
        finally:
            await db.close()
    assert after.complete and after.in_space["chunk"] == 2
    assert chunk_spaces(db_url) == {space: 2}


async def test_an_asserted_fact_is_embedded_in_the_space_its_transaction_holds(
    db_url, local_embedder, hash_embedder, monkeypatch
):
    db = Database(db_url, min_size=1, max_size=2)
    await db.open()
    try:
        target = await use_embedder_space(db, hash_embedder)
    finally:
        await db.close()
    read = ProjectSpaces.for_project
    reads: list[int | None] = []

    async def stale_then_switched(self, project_id, *, fresh=True):
        found = await read(self, project_id, fresh=fresh)
        reads.append(found[0])
        if len(reads) == 1:  # switched after the route's read, before its transaction
            with psycopg.connect(db_url) as conn:
                conn.execute(
                    "INSERT INTO project_embedding_spaces (project_id, space) VALUES (%s, %s)",
                    (PROJECT, target),
                )
        return found

    async with app_client(db_url, local_embedder) as minilm:
        monkeypatch.setattr(ProjectSpaces, "for_project", stale_then_switched)
        fact = {
            "project_id": PROJECT,
            "subject_id": "u1",
            "predicate": "home_city",
            "value": "Lyon",
        }
        r = await minilm.post("/v1/facts", json=fact)
        assert r.status_code == 201, r.text
    assert reads[0] != target and reads[1:] == [target]
    with psycopg.connect(db_url) as conn:
        (space,) = conn.execute(
            "SELECT embedding_space FROM facts WHERE project_id = %s", (PROJECT,)
        ).fetchone()
    assert space == target


async def test_facts_reembed_stops_before_writing_when_the_project_switched(
    db_url, local_embedder, hash_embedder
):
    from haki.consolidator.reembed import reembed_facts
    from haki.storage.spaces import SpaceMoved

    async with app_client(db_url, local_embedder) as minilm:
        fact = {
            "project_id": PROJECT,
            "subject_id": "u1",
            "predicate": "home_city",
            "value": "Lyon",
        }
        assert (await minilm.post("/v1/facts", json=fact)).status_code == 201
    with psycopg.connect(db_url) as conn:  # written by an older rendering
        conn.execute(
            "UPDATE facts SET search_text = 'home_city: Lyon' WHERE project_id = %s", (PROJECT,)
        )
    other = Database(db_url, min_size=1, max_size=1)
    await other.open()
    try:
        target = await use_embedder_space(other, hash_embedder)
    finally:
        await other.close()
    db = Database(db_url, min_size=1, max_size=2)
    await db.open()
    try:
        space = await use_embedder_space(db, local_embedder)
        assert space != target
        # Switched after the command read the project's space (``space``).
        with psycopg.connect(db_url) as conn:
            conn.execute(
                "INSERT INTO project_embedding_spaces (project_id, space) VALUES (%s, %s)",
                (PROJECT, target),
            )
        try:
            await reembed_facts(db, local_embedder, project_id=PROJECT, space=space)
            raise AssertionError("a rewrite in the old space went through")
        except SpaceMoved:
            pass
        with psycopg.connect(db_url) as conn:
            (text,) = conn.execute(
                "SELECT search_text FROM facts WHERE project_id = %s", (PROJECT,)
            ).fetchone()
        assert text == "home_city: Lyon"  # nothing written with MiniLM's vector
        with psycopg.connect(db_url) as conn:
            conn.execute("DELETE FROM project_embedding_spaces WHERE project_id = %s", (PROJECT,))
        done = await reembed_facts(db, local_embedder, project_id=PROJECT, space=space)
    finally:
        await db.close()
    assert done.rewritten == 1
