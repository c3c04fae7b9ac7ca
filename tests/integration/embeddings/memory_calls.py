"""Remembering turns and asking about them through the API, shared by the
embedding tests that run against local OpenAI-compatible endpoints."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

import httpx
import psycopg

from haki.api.app import create_app
from haki.config import Settings, load_settings
from haki.providers.bundle import build_providers

TURNS = ["I live in Lisbon.", "My sister plays the cello every Sunday.", "I work at Initech."]


def endpoint_env(url: str, dims: int) -> dict[str, str]:
    return {
        "HAKI_EMBED_PROVIDER": "openai",
        "HAKI_EMBED_BASE_URL": url,
        "HAKI_EMBED_MODEL": f"stub-bow-{dims}",
        "HAKI_EMBED_DIMENSIONS": str(dims),
    }


def endpoint_settings(monkeypatch, url: str, dims: int) -> Settings:
    for key, value in endpoint_env(url, dims).items():
        monkeypatch.setenv(key, value)
    return load_settings(auth="off", database_url=None)


def event(text: str, minute: int, project: str) -> dict:
    # Recent turns: facts past their volatility horizon are hidden.
    at = datetime.now(UTC) - timedelta(hours=1) + timedelta(minutes=minute)
    return {
        "project_id": project,
        "subject_id": "u1",
        "kind": "conversation.message",
        "occurred_at": at.isoformat(),
        "payload": {"text": text},
    }


async def remember(client: httpx.AsyncClient, project: str, turns: list[str], at: int = 0) -> None:
    events = [event(t, at + i, project) for i, t in enumerate(turns)]
    r = await client.post("/v1/capture", json={"events": events})
    assert r.status_code == 202, r.text
    r = await client.post(
        "/v1/consolidate/subject", params={"project_id": project, "subject_id": "u1"}
    )
    assert r.status_code == 200 and r.json()["jobs"] == {"done": 1}, r.text


async def ask(client: httpx.AsyncClient, project: str, query: str) -> dict:
    r = await client.post(
        "/v1/context", json={"project_id": project, "subject_id": "u1", "query": query}
    )
    assert r.status_code == 200, r.text
    return r.json()["packet"]


def fact_values(packet: dict) -> list[str]:
    return [f["value"] for f in packet["facts"]]


def stored_sizes(db_url: str, project: str) -> set[tuple[int, int | None]]:
    """(dimensions, space) of every vector the project holds."""
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT vector_dims(embedding), embedding_space FROM ("
            " SELECT project_id, embedding, embedding_space FROM facts UNION ALL"
            " SELECT project_id, embedding, embedding_space FROM episode_chunks UNION ALL"
            " SELECT project_id, embedding, embedding_space FROM events) r"
            " WHERE project_id = %s AND embedding IS NOT NULL",
            (project,),
        ).fetchall()
    return {(int(d), s) for d, s in rows}


@asynccontextmanager
async def serving(settings: Settings, db_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """A client of an app started with ``settings`` on ``db_url``, in this process."""
    app = create_app(
        settings, database_url=db_url, providers=build_providers(settings), background=False
    )
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://haki.test") as c,
    ):
        yield c
