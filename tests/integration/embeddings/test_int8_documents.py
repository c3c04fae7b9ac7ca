"""Documents on the int8 model by default (HAKI_EMBED_FAST_DOCUMENTS): its
vectors stay in the packaged model's embedding space, so a fresh database
starts there, and an upgraded one, whose vectors the packaged model wrote,
keeps answering from them and needs no re-embedding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import psycopg
import pytest
from memory_calls import TURNS, ask, fact_values, remember, serving
from pgvector.psycopg import register_vector

from haki.config import Settings, load_settings
from haki.consolidator.spaces import progress, use_embedder_space
from haki.providers.embed import LocalEmbedder
from haki.providers.embedders import build_embedder
from haki.storage import Database

QUERY = "Which city do I live in?"
MINILM = ("local", "all-MiniLM-L6-v2", 384)
NEW_TURN = "I drive a green Volvo."


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    # One built int8 model for the module's servers (data_dir/models).
    return tmp_path_factory.mktemp("haki-data")


def server_settings(data_dir: Path, **overrides: object) -> Settings:
    return load_settings(auth="off", database_url=None, data_dir=data_dir, **overrides)


def chunks(db_url: str) -> list[tuple[str, int, np.ndarray]]:
    with psycopg.connect(db_url) as conn:
        register_vector(conn)
        rows = conn.execute(
            "SELECT text, embedding_space, embedding FROM episode_chunks "
            "WHERE embedding IS NOT NULL ORDER BY occurred_at"
        ).fetchall()
    return [(t, s, np.asarray(v.to_numpy())) for t, s, v in rows]


def registered(db_url: str) -> list[tuple[int, str, str, int]]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT id, provider, model, dimensions FROM embedding_spaces ORDER BY id"
        ).fetchall()
    return [tuple(r) for r in rows]


def every_vector_space(db_url: str, project: str) -> set[int | None]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT DISTINCT embedding_space FROM ("
            " SELECT project_id, embedding, embedding_space FROM facts UNION ALL"
            " SELECT project_id, embedding, embedding_space FROM episode_chunks UNION ALL"
            " SELECT project_id, embedding, embedding_space FROM events) r"
            " WHERE project_id = %s AND embedding IS NOT NULL",
            (project,),
        ).fetchall()
    return {s for (s,) in rows}


async def semantic_of(client, packet_query: str, value: str) -> float:
    """The semantic score the context call gave the fact whose value is ``value``."""
    r = await client.post(
        "/v1/context", json={"project_id": "p1", "subject_id": "u1", "query": packet_query}
    )
    assert r.status_code == 200, r.text
    answer = r.json()
    found = [f for f in answer["packet"]["facts"] if f["value"] == value]
    assert found, answer
    trace = await client.get(
        f"/v1/inspect/{answer['trace_id']}", params={"project_id": "p1", "subject_id": "u1"}
    )
    assert trace.status_code == 200, trace.text
    included = {d["id"]: d for d in trace.json()["decisions"] if d["action"] == "included"}
    return float(included[found[0]["id"]]["score"]["semantic"])


def test_documents_default_to_the_int8_model(data_dir):
    settings = server_settings(data_dir)
    assert settings.embed_fast_documents
    embedder = build_embedder(settings)
    assert isinstance(embedder, LocalEmbedder)
    assert embedder.name.endswith("+int8-documents")
    # The setting off keeps the packaged model.
    packaged = build_embedder(server_settings(data_dir, embed_fast_documents=False))
    assert not packaged.name.endswith("+int8-documents")


async def test_a_fresh_database_embeds_on_the_int8_model_in_the_minilm_space(db_url, data_dir):
    settings = server_settings(data_dir)
    async with serving(settings, db_url) as c:
        await remember(c, "p1", TURNS)
        assert "Lisbon" in fact_values(await ask(c, "p1", QUERY))
        assert await semantic_of(c, QUERY, "Lisbon") > 0

    assert [r[1:] for r in registered(db_url)] == [MINILM]
    rows = chunks(db_url)
    assert [t for t, _, _ in rows] == TURNS
    int8 = LocalEmbedder(fast_documents=True, model_cache=data_dir / "models")
    packaged = LocalEmbedder(fast_documents=False)
    for text, space, vector in rows:
        assert space == registered(db_url)[0][0]
        # The int8 model's vector of the text alone, not the packaged model's.
        np.testing.assert_allclose(vector, int8.embed_documents([text])[0], atol=1e-6)
        assert not np.allclose(vector, packaged.embed_documents([text])[0], atol=1e-4)


async def test_an_upgraded_database_answers_from_its_packaged_vectors(db_url, data_dir):
    """Vectors written by the packaged model (the former default), then a
    server with the new default: the project stays in its space, its context
    calls compare the int8 question with the packaged vectors (semantic
    evidence, not full text alone), new turns join the same space, and there
    is nothing to re-embed."""
    before = server_settings(data_dir, embed_fast_documents=False)
    async with serving(before, db_url) as old:
        await remember(old, "p1", TURNS)
    packaged = {t: v for t, _, v in chunks(db_url)}
    (space,) = every_vector_space(db_url, "p1")
    assert space is not None

    after = server_settings(data_dir)
    assert after.embed_fast_documents
    async with serving(after, db_url) as new:
        assert await semantic_of(new, QUERY, "Lisbon") > 0
        await remember(new, "p1", [NEW_TURN], at=10)
        assert await semantic_of(new, QUERY, "Lisbon") > 0

    # One space still: the old rows kept their vectors, the new turn joined them.
    assert [r[1:] for r in registered(db_url)] == [MINILM]
    assert every_vector_space(db_url, "p1") == {space}
    now = {t: v for t, _, v in chunks(db_url)}
    for text in TURNS:
        np.testing.assert_array_equal(now[text], packaged[text])
    int8 = LocalEmbedder(fast_documents=True, model_cache=data_dir / "models")
    np.testing.assert_allclose(now[NEW_TURN], int8.embed_documents([NEW_TURN])[0], atol=1e-6)

    # `haki embeddings status|reembed` under the new default: the project is
    # complete in the configured space, so reembed stages and moves nothing.
    db = Database(db_url, min_size=1, max_size=2)
    await db.open()
    try:
        configured = await use_embedder_space(db, build_embedder(after))
        assert configured == space
        state = await progress(db, configured, "p1")
        assert state.complete and state.in_space == state.total and sum(state.total.values()) > 0
    finally:
        await db.close()
