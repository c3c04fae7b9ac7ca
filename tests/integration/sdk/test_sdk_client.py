"""The SDK against a live server: typed results, errors, retries, idempotent replay."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from haki.client import (
    AsyncHakiClient,
    ConflictError,
    HakiClient,
    HakiConnectionError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    RetryPolicy,
    render,
)

MESSAGES = [
    {"role": "user", "content": "I live in Lyon and I prefer tea to coffee."},
    {"role": "assistant", "content": "Noted: tea it is."},
    {"role": "user", "content": "My sister Lena is visiting next week.", "name": "Sam"},
]

FAST = RetryPolicy(max_retries=3, backoff_base_s=0.01, backoff_max_s=0.02)


class Flaky(httpx.BaseTransport):
    """Forwards to the real server, but answers the first ``fail`` calls itself.

    With ``after=True`` the request is served first and the answer replaced,
    which is the case a retry must survive: the write happened, the caller
    never heard of it.
    """

    def __init__(self, status: int, fail: int, *, after: bool, retry_after: str = "0"):
        self.inner = httpx.HTTPTransport()
        self.status, self.fail, self.after, self.retry_after = status, fail, after, retry_after
        self.seen: list[bytes] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request.read())
        if self.fail > 0:
            self.fail -= 1
            if self.after:
                self.inner.handle_request(request).read()
            return httpx.Response(
                self.status,
                headers={"Retry-After": self.retry_after},
                json={"error": {"type": "injected", "message": "try later", "field": None}},
            )
        return self.inner.handle_request(request)


def test_add_context_render_round_trip(live_url):
    with HakiClient(live_url, project_id="p1") as client:
        assert client.health().status == "ok"
        captured = client.add(MESSAGES, subject_id="u1", thread_id="t1")
        assert len(captured.event_ids) == 3 and not any(e.deduplicated for e in captured.events)
        done = client.consolidate_subject(subject_id="u1")
        assert done.processed == 1 and done.jobs == {"done": 1}
        assert not done.already_consolidated and done.note is None
        # Nothing left to run (as when the server's worker got there first): the
        # result says so instead of a bare processed=0.
        again = client.consolidate_subject(subject_id="u1")
        assert again.processed == 0 and again.already_consolidated
        assert again.note and "already consolidated" in again.note

        timeline = client.timeline("u1")
        assert [e.payload for e in timeline.events] == MESSAGES  # as sent, in order
        assert [e.actor_type for e in timeline.events] == ["user", "agent", "user"]
        assert [e.origin_trust for e in timeline.events] == ["trusted", "semi_trusted", "trusted"]
        assert {e.thread_id for e in timeline.events} == {"t1"}

        result = client.context("u1", "where does the user live? who is visiting?")
        assert result.trace_id and result.token_count > 0
        excerpts = [e.excerpt for e in result.packet.episodes]
        assert any(x.startswith("user: I live in Lyon") for x in excerpts)
        assert any(x.startswith("Sam: My sister Lena") for x in excerpts)
        block = render(result, subject_id="u1")
        assert block.startswith("<haki_memory>\nMemory about subject u1.")
        assert "Sam: My sister Lena is visiting next week." in block
        assert render(result) == render(result.raw["packet"])  # typed or JSON, one output

        trace = client.inspect(result.trace_id, subject_id="u1")
        assert trace.trace_id == result.trace_id
        assert {d.kind for d in trace.decisions} <= {"fact", "episode"}


def test_errors_are_typed_with_the_envelope(live_url):
    with HakiClient(live_url, project_id="p1", retry=FAST) as client:
        with pytest.raises(NotFoundError) as missing:
            client.event("00000000-0000-0000-0000-000000000000")
        assert missing.value.status_code == 404 and missing.value.type == "not_found"
        with pytest.raises(InvalidRequestError) as bad:
            client.context("u1", "q", budget_tokens=0)
        assert bad.value.error_type == "budget_exceeded"
        with pytest.raises(InvalidRequestError) as scope:
            client.capture([{"kind": "note", "occurred_at": "2026-01-01T00:00:00Z", "payload": {}}])
        assert scope.value.type == "missing_scope"
        assert scope.value.field == "events[0].subject_id"
    with (
        HakiClient("http://127.0.0.1:9", retry=FAST) as down,
        pytest.raises(HakiConnectionError),
    ):
        down.health()


def test_capture_retried_after_a_lost_answer_writes_once(live_url):
    flaky = Flaky(503, fail=2, after=True)
    with HakiClient(live_url, project_id="p1", transport=flaky, retry=FAST) as client:
        result = client.add(MESSAGES[:1], subject_id="u2")
    assert len(flaky.seen) == 3 and flaky.seen[0] == flaky.seen[2]  # same body, same keys
    assert result.events[0].deduplicated  # the first, unheard write is the one kept
    with HakiClient(live_url, project_id="p1") as client:
        assert len(client.timeline("u2").events) == 1


def test_retry_after_is_honoured_and_other_4xx_are_not_retried(live_url, monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr("haki.client._sync.time.sleep", waits.append)
    flaky = Flaky(429, fail=1, after=False, retry_after="7")
    with HakiClient(live_url, project_id="p1", transport=flaky) as client:
        assert client.health().status == "ok"
    assert waits == [7.0]

    flaky = Flaky(429, fail=10, after=False, retry_after="0")
    with (
        HakiClient(live_url, transport=flaky, max_retries=2) as client,
        pytest.raises(RateLimitError),
    ):
        client.health()
    assert len(flaky.seen) == 3

    flaky = Flaky(409, fail=1, after=False)
    with HakiClient(live_url, transport=flaky) as client, pytest.raises(ConflictError):
        client.health()
    assert len(flaky.seen) == 1


def test_env_settings_and_no_unknown_fields(live_url, monkeypatch):
    monkeypatch.setenv("HAKI_URL", live_url)
    with HakiClient(project_id="p1") as client:
        captured = client.capture(
            [
                {
                    "subject_id": "u3",
                    "kind": "note",
                    "occurred_at": "2026-01-01T00:00:00Z",
                    "payload": {"text": "hello"},
                }
            ]
        )
        key = client.timeline("u3").events[0].idempotency_key
        assert key is not None and key.startswith("sdk-")
        replay = client.capture(
            [
                {
                    "subject_id": "u3",
                    "kind": "note",
                    "occurred_at": "2026-01-01T00:00:00Z",
                    "payload": {"text": "hello"},
                    "idempotency_key": key,
                }
            ]
        )
        assert replay.event_ids == captured.event_ids and replay.events[0].deduplicated


async def test_async_client_matches_sync(live_url):
    async with AsyncHakiClient(live_url, project_id="p1", retry=FAST) as client:
        assert (await client.health()).database == "ok"
        await client.add(MESSAGES, subject_id="u4")
        await client.consolidate_subject(subject_id="u4")
        events = [e async for e in client.iter_timeline("u4", page_size=2)]
        assert [e.payload for e in events] == MESSAGES
        facts = await client.facts(subject_id="u4")
        assert all(f.project_id == "p1" for f in facts.facts)
        result = await client.context("u4", "where does the user live?")
        assert "Lyon" in render(result)
        with pytest.raises(NotFoundError):
            await client.revoke_key("00000000-0000-0000-0000-000000000000")


def test_capture_stamps_a_missing_occurred_at(live_url):
    with HakiClient(live_url, project_id="p1") as client:
        before = datetime.now(UTC)
        client.capture([{"subject_id": "u5", "kind": "note", "payload": {"text": "hi"}}])
        (event,) = client.timeline("u5").events
        assert before <= event.occurred_at <= datetime.now(UTC)


def test_create_fact_asserts_a_trusted_fact(live_url):
    with HakiClient(live_url, project_id="p1") as client:
        made = client.create_fact(
            "u6",
            "home_city",
            "Lyon",
            valid_from=datetime(2026, 3, 1, tzinfo=UTC),
            reason="told at the desk",
        )
        assert (made.value, made.status, made.origin_trust) == ("Lyon", "active", "trusted")
        assert made.valid_from == datetime(2026, 3, 1, tzinfo=UTC)
        assert client.fact(made.id).version == made.version
        with pytest.raises(InvalidRequestError) as bad:
            client.create_fact("u6", "home_city", None)
        assert bad.value.type == "invalid_payload"
        assert [f.value for f in client.facts(subject_id="u6").facts] == ["Lyon"]
