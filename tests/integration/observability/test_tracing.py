"""OpenTelemetry spans of a capture → consolidate → context flow, collected with
the SDK's in-memory exporter: names, parents, and the SQL statements under them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from haki.api.app import create_app
from haki.config import Settings
from haki.observability import tracing
from haki.providers import Providers

PROJECT = "p-traced"
STAGES = {"haki.context.embed", "haki.context.facts", "haki.context.episodes"}


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracing.use(provider)
    try:
        yield memory
    finally:
        tracing.use(None)
        provider.shutdown()


@pytest.fixture
async def api(
    exporter: InMemorySpanExporter, db_url: str, settings: Settings, providers: Providers
) -> AsyncIterator[httpx.AsyncClient]:
    """The app, built once tracing is on: its pooled connections trace statements."""
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            yield client


async def capture_and_consolidate(api: httpx.AsyncClient, subject: str, text: str) -> None:
    event = {
        "project_id": PROJECT,
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": "2026-11-20T10:00:00Z",
        "payload": {"role": "user", "content": text},
    }
    assert (await api.post("/v1/capture", json={"events": [event]})).status_code == 202
    r = await api.post("/v1/consolidate", json={"project_id": PROJECT})
    assert r.status_code == 200 and r.json()["jobs"]["done"] == 1, r.text


def children(spans: list[ReadableSpan], parent: ReadableSpan) -> list[ReadableSpan]:
    return [s for s in spans if s.parent is not None and s.parent.span_id == parent.context.span_id]


def only(spans: list[ReadableSpan], name: str) -> ReadableSpan:
    found = [s for s in spans if s.name == name]
    assert len(found) == 1, [s.name for s in spans]
    return found[0]


def statements(spans: list[ReadableSpan], parent: ReadableSpan) -> list[str]:
    """The SQL operations directly under ``parent``."""
    return [
        str(s.attributes["db.operation.name"])
        for s in children(spans, parent)
        if s.attributes and s.attributes.get("db.system.name") == "postgresql"
    ]


async def test_capture_consolidate_context_spans(
    exporter: InMemorySpanExporter, api: httpx.AsyncClient
) -> None:
    await capture_and_consolidate(api, "u1", "I live in Lyon and work as a baker.")
    exporter.clear()  # the context call's spans alone below
    r = await api.post(
        "/v1/context",
        json={"project_id": PROJECT, "subject_id": "u1", "query": "where do I live?"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["token_count"] > 0
    context_spans = list(exporter.get_finished_spans())

    context = only(context_spans, "haki.context")
    assert context.parent is None
    assert context.attributes is not None and context.attributes["haki.project_id"] == PROJECT
    stages = {s.name: s for s in children(context_spans, context) if s.name in STAGES}
    assert set(stages) == STAGES
    # Each retrieval stage's statements are its children, in the same trace.
    assert "SELECT" in statements(context_spans, stages["haki.context.facts"])
    assert "SELECT" in statements(context_spans, stages["haki.context.episodes"])
    assert {s.context.trace_id for s in stages.values()} == {context.context.trace_id}


async def test_capture_and_job_spans_hold_their_statements(
    exporter: InMemorySpanExporter, api: httpx.AsyncClient
) -> None:
    await capture_and_consolidate(api, "u2", "My sister is called Ana.")
    spans = list(exporter.get_finished_spans())

    capture = only(spans, "haki.capture")
    assert capture.attributes is not None and capture.attributes["haki.events"] == 1
    assert "INSERT" in statements(spans, capture) or "WITH" in statements(spans, capture)
    job = only(spans, "haki.consolidate.job")
    assert job.attributes is not None
    assert job.attributes["haki.job_outcome"] == "done"
    assert job.attributes["haki.project_id"] == PROJECT
    assert len(statements(spans, job)) >= 3
    # Two requests, two traces: the job does not hang under the capture.
    assert job.context.trace_id != capture.context.trace_id
