"""Seeding helpers for the context tests: rows inserted directly with SQL.

The assembler does not depend on the ledger or the consolidator, so tests
write facts, episode chunks and conflict sets themselves, embedding their
text with the real local embedder (the same one the ``client`` app uses).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from haki.api.app import create_app
from haki.config import load_settings
from haki.providers import Providers
from haki.storage import Database

PROJECT = "proj"
SUBJECT = "alice"
NOW = datetime.now(UTC)

INSERT_FACT = """
INSERT INTO facts (id, project_id, subject_id, predicate, value, status, confidence, valid_from, valid_to,
                   recorded_from, volatility, fact_kind, last_reinforced_at, source_event_ids, search_text, embedding)
VALUES (%(id)s, %(project_id)s, %(subject_id)s, %(predicate)s, %(value)s, %(status)s, %(confidence)s,
        %(valid_from)s, %(valid_to)s, %(recorded_from)s, %(volatility)s, %(fact_kind)s, %(last_reinforced_at)s,
        %(source_event_ids)s, %(search_text)s, %(embedding)s)"""

INSERT_EVENT = """
INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key)
VALUES (%(id)s, %(project_id)s, %(subject_id)s, %(kind)s, %(occurred_at)s, %(payload)s, 'sha256:test', %(key)s)"""

INSERT_CHUNK = """
INSERT INTO episode_chunks (event_id, ordinal, project_id, subject_id, kind, occurred_at, text, embedding)
VALUES (%(event_id)s, 0, %(project_id)s, %(subject_id)s, %(kind)s, %(occurred_at)s, %(text)s, %(embedding)s)"""

INSERT_CONFLICT = """
INSERT INTO conflict_sets (project_id, subject_id, fact_ids, status, kind)
VALUES (%(project_id)s, %(subject_id)s, %(fact_ids)s, %(status)s, 'contradiction') RETURNING id"""


class Seeder:
    def __init__(self, db: Database, embedder: Any):
        self.db = db
        self.embedder = embedder

    async def fact(
        self,
        value: str,
        *,
        predicate: str = "note",
        project_id: str = PROJECT,
        subject_id: str = SUBJECT,
        status: str = "active",
        confidence: float = 0.8,
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        recorded_from: datetime | None = None,
        volatility: str = "stable",
        fact_kind: str = "attribute",
        last_reinforced_at: datetime | None = None,
        source_event_ids: list[uuid.UUID] | None = None,
        embed: bool = True,
    ) -> uuid.UUID:
        fid = uuid.uuid4()
        text = f"{predicate.replace('_', ' ')} {value}"
        params = {
            "id": fid,
            "project_id": project_id,
            "subject_id": subject_id,
            "predicate": predicate,
            "value": json.dumps(value),
            "status": status,
            "confidence": confidence,
            "valid_from": valid_from,
            "valid_to": valid_to,
            "recorded_from": recorded_from or NOW,
            "volatility": volatility,
            "fact_kind": fact_kind,
            "last_reinforced_at": last_reinforced_at,
            "source_event_ids": source_event_ids or [],
            "search_text": text,
            "embedding": self.embedder.embed_query(text) if embed else None,
        }
        async with self.db.transaction(project_id=project_id) as conn:
            await conn.execute(INSERT_FACT, params)
        return fid

    async def episode(
        self,
        text: str,
        *,
        occurred_at: datetime | None = None,
        project_id: str = PROJECT,
        subject_id: str = SUBJECT,
        kind: str = "conversation.message",
    ) -> uuid.UUID:
        eid = uuid.uuid4()
        when = occurred_at or NOW - timedelta(days=1)
        async with self.db.transaction(project_id=project_id) as conn:
            await conn.execute(
                INSERT_EVENT,
                {
                    "id": eid,
                    "project_id": project_id,
                    "subject_id": subject_id,
                    "kind": kind,
                    "occurred_at": when,
                    "payload": json.dumps({"text": text}),
                    "key": str(eid),
                },
            )
            await conn.execute(
                INSERT_CHUNK,
                {
                    "event_id": eid,
                    "project_id": project_id,
                    "subject_id": subject_id,
                    "kind": kind,
                    "occurred_at": when,
                    "text": text,
                    "embedding": self.embedder.embed_query(text),
                },
            )
        return eid

    async def conflict(
        self,
        *fact_ids: uuid.UUID,
        status: str = "open",
        project_id: str = PROJECT,
        subject_id: str = SUBJECT,
    ) -> uuid.UUID:
        async with self.db.transaction(project_id=project_id) as conn:
            cur = await conn.execute(
                INSERT_CONFLICT,
                {
                    "project_id": project_id,
                    "subject_id": subject_id,
                    "fact_ids": list(fact_ids),
                    "status": status,
                },
            )
            row = await cur.fetchone()
        return row["id"]

    async def fetchval(
        self, sql: str, params: dict[str, Any] | None = None, project_id: str = PROJECT
    ) -> Any:
        async with self.db.transaction(project_id=project_id) as conn:
            cur = await conn.execute(sql, params or {})
            row = await cur.fetchone()
        return None if row is None else next(iter(row.values()))


@pytest.fixture
def seed(db: Database, local_embedder) -> Seeder:
    return Seeder(db, local_embedder)


@pytest.fixture
def hash_seed(db: Database, hash_embedder) -> Seeder:
    """Token-hashing vectors: similarity is shared words only, so nearness is predictable."""
    return Seeder(db, hash_embedder)


@pytest.fixture
def app_client(db_url: str, providers) -> Callable[..., Any]:
    """An HTTP client on an app built with extra settings (e.g. the recall gate)."""

    @asynccontextmanager
    async def make(embedder: Any = None, **overrides: Any) -> AsyncIterator[Api]:
        settings = load_settings(auth="off", database_url=None, **overrides)
        bundle = providers if embedder is None else Providers(embedder=embedder)
        app = create_app(settings, database_url=db_url, providers=bundle, background=False)
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c,
        ):
            yield Api(c)

    return make


class Api:
    """The context endpoints as the tests call them."""

    def __init__(self, client: httpx.AsyncClient):
        self.client = client

    async def ask(self, query: str, **extra: Any) -> dict[str, Any]:
        body = {"project_id": PROJECT, "subject_id": SUBJECT, "query": query} | extra
        r = await self.client.post("/v1/context", json=body)
        assert r.status_code == 200, r.text
        return r.json()

    async def inspect(self, trace_id: str, **scope: str) -> dict[str, Any]:
        params = {"project_id": PROJECT, "subject_id": SUBJECT} | scope
        r = await self.client.get(f"/v1/inspect/{trace_id}", params=params)
        assert r.status_code == 200, r.text
        return r.json()

    async def ask_and_inspect(
        self, query: str, **extra: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        out = await self.ask(query, **extra)
        return out, await self.inspect(out["trace_id"])

    @staticmethod
    def decision(trace: dict[str, Any], item_id: uuid.UUID | str) -> dict[str, Any]:
        [d] = [d for d in trace["decisions"] if d["id"] == str(item_id)]
        return d

    @staticmethod
    def fact_ids(out: dict[str, Any]) -> list[str]:
        return [f["id"] for f in out["packet"]["facts"]]


@pytest.fixture
def api(client: httpx.AsyncClient) -> Api:
    return Api(client)
