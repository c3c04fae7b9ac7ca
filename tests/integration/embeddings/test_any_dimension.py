"""Vectors of any indexed size (migration 0170), end to end against an
OpenAI-compatible endpoint on a local socket: capture → consolidate →
context answers with the fact, every vector of the endpoint's size; and a
vector of another size than its space's is refused with nothing written."""

from __future__ import annotations

import httpx
import psycopg
import pytest
from memory_calls import TURNS, ask, endpoint_settings, fact_values, remember, stored_sizes
from psycopg.rows import dict_row

from haki.api.app import create_app
from haki.consolidator.doubt import ABOUT
from haki.errors import EmbeddingDimensionMismatch
from haki.providers.bundle import build_providers
from haki.storage import Database
from haki.storage.spaces import EmbeddingSpace, register_space


@pytest.mark.parametrize("dims", [768, 1536])
async def test_capture_consolidate_context_at_any_size(db_url, monkeypatch, bow_endpoint, dims):
    settings = endpoint_settings(monkeypatch, bow_endpoint(dims).url, dims)
    providers = build_providers(settings)
    assert providers.embedder.dim == dims
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://haki.test") as c,
    ):
        await remember(c, "p1", TURNS)
        packet = await ask(c, "p1", "Where do I live?")
    assert "Lisbon" in fact_values(packet), packet["facts"]
    assert any("cello" in e["text"] for e in packet["episodes"])
    with psycopg.connect(db_url) as conn:
        (space,) = conn.execute(
            "SELECT id FROM embedding_spaces WHERE dimensions = %s", (dims,)
        ).fetchone()
    assert stored_sizes(db_url, "p1") == {(dims, space)}


async def test_a_vector_of_another_size_than_its_space_is_refused(db_url):
    db = Database(db_url, min_size=1, max_size=2, timeout=5)
    await db.open()
    try:
        await register_space(db, EmbeddingSpace("openai", "stub", 768))
        before = await _count(db_url)
        with pytest.raises(EmbeddingDimensionMismatch, match="384 dimensions"):
            async with db.transaction("p1") as conn:
                await conn.execute(
                    "INSERT INTO events (project_id, subject_id, kind, occurred_at, payload, hash,"
                    " idempotency_key) VALUES ('p1', 'u1', 'm', now(), '{}', 'h', 'k')"
                )
                await conn.execute(
                    "UPDATE events SET embedding = %s::vector WHERE project_id = 'p1'",
                    (str([0.05] * 384),),
                )
        assert await _count(db_url) == before  # the event went with the rollback
    finally:
        await db.close()


async def _count(db_url: str) -> int:
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT count(*) FROM events").fetchone()
    assert row is not None
    return int(row[0])


def test_doubt_compares_a_turn_with_facts_of_its_space_only(db_url):
    """A fact of a 768-d space and a turn of a 384-d one (a project moved
    between them): the doubt rule's similarity is NULL, not an error."""
    with psycopg.connect(db_url) as conn:
        small, large = (
            conn.execute(
                "INSERT INTO embedding_spaces (provider, model, dimensions) VALUES ('hash', %s, %s)"
                " RETURNING id",
                (f"m{dims}", dims),
            ).fetchone()[0]
            for dims in (384, 768)
        )
        conn.execute("SELECT set_config('haki.embedding_space', %s, false)", (str(large),))
        conn.execute(
            "INSERT INTO facts (project_id, subject_id, predicate, value, status, valid_from, embedding)"
            " VALUES ('p1', 'u1', 'home_city', '\"Lisbon\"', 'active', now() - interval '1 day',"
            " %s::vector)",
            (str([0.03] * 768),),
        )
        conn.execute("SELECT set_config('haki.embedding_space', %s, false)", (str(small),))
        (event,) = conn.execute(
            "INSERT INTO events (project_id, subject_id, kind, occurred_at, payload, hash,"
            " idempotency_key, embedding) VALUES ('p1', 'u1', 'm', now(), '{}', 'h', 'k', %s::vector)"
            " RETURNING id",
            (str([0.05] * 384),),
        ).fetchone()
        rows = (
            conn.cursor(row_factory=dict_row)
            .execute(
                ABOUT,
                {
                    "event_id": event,
                    "project_id": "p1",
                    "subject_id": "u1",
                    "named": [],
                    "unnamed": True,
                },
            )
            .fetchall()
        )
    assert [(r["predicate"], r["similarity"]) for r in rows] == [("home_city", None)]


def test_a_staged_vector_of_another_size_than_its_space_is_refused(db_url):
    with psycopg.connect(db_url) as conn:
        (space,) = conn.execute(
            "INSERT INTO embedding_spaces (provider, model, dimensions)"
            " VALUES ('openai', 'stub', 1536) RETURNING id"
        ).fetchone()
        with pytest.raises(psycopg.Error, match="staged chunk vector has 768 dimensions") as err:
            conn.execute(
                "INSERT INTO embedding_staging (space, kind, row_id, project_id, embedding)"
                " VALUES (%s, 'chunk', gen_random_uuid(), 'p1', %s::vector)",
                (space, str([0.03] * 768)),
            )
        assert err.value.sqlstate == "HK001"
