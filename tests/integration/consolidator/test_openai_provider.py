"""The ``openai`` provider against a stub endpoint on a real local socket."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from consolidator_helpers import add_events

from haki.consolidator import Worker, run_pending
from haki.errors import ProviderError
from haki.providers.extraction.openai import OpenAIExtractor
from haki.providers.llm import ChatClient

ANSWER = {
    "facts": [
        {"predicate": "home_city", "value": "Lyon", "confidence": 0.9},
        {"predicate": "likes", "value": 42, "fact_kind": "nonsense"},  # invalid: dropped
    ]
}


class Stub:
    """Scripted answers, one per request: (status, headers, body, delay_s)."""

    def __init__(self, script):
        self.script = list(script)
        self.requests: list[dict] = []


def _handler(stub: Stub):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("content-length", 0))
            stub.requests.append(
                {
                    "path": self.path,
                    "auth": self.headers.get("authorization"),
                    "body": json.loads(self.rfile.read(length)),
                }
            )
            status, headers, body, delay = (
                stub.script.pop(0) if stub.script else (200, {}, ANSWER, 0)
            )
            time.sleep(delay)
            payload = json.dumps(
                {"choices": [{"message": {"content": json.dumps(body)}}]}
                if status == 200
                else {"error": body}
            ).encode()
            try:
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def log_message(self, *args):
            pass

    return Handler


@pytest.fixture
def stub_server() -> Iterator:
    servers = []

    def start(script) -> tuple[str, Stub]:
        stub = Stub(script)
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/v1", stub

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def client_for(url: str, sleeps: list[float], **kw) -> ChatClient:
    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    return ChatClient(url, model="stub-model", api_key="sk-test", sleep=sleep, **kw)


async def test_429_with_retry_after_then_success(stub_server):
    url, stub = stub_server([(429, {"Retry-After": "3"}, "slow down", 0)])
    sleeps: list[float] = []
    client = client_for(url, sleeps)
    answer = await client.complete_json([{"role": "user", "content": "hi"}])
    await client.aclose()
    assert answer == ANSWER and sleeps == [3.0] and len(stub.requests) == 2
    first = stub.requests[0]
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer sk-test"
    assert first["body"]["model"] == "stub-model" and first["body"]["response_format"] == {
        "type": "json_object"
    }


async def test_timeout_and_5xx_are_retried_with_backoff(stub_server):
    url, _stub = stub_server([(200, {}, ANSWER, 1.0), (503, {}, "down", 0)])
    sleeps: list[float] = []
    client = client_for(url, sleeps, timeout_s=0.3)
    assert await client.complete_json([{"role": "user", "content": "hi"}]) == ANSWER
    await client.aclose()
    assert len(sleeps) == 2 and sleeps[0] <= 0.5 and sleeps[1] <= 1.0


async def test_client_errors_are_not_retried_and_exhaustion_raises(stub_server):
    url, stub = stub_server([(400, {}, "bad request", 0)])
    sleeps: list[float] = []
    client = client_for(url, sleeps)
    with pytest.raises(ProviderError, match="HTTP 400"):
        await client.complete_json([{"role": "user", "content": "hi"}])
    assert sleeps == [] and len(stub.requests) == 1
    await client.aclose()

    url, stub = stub_server([(500, {}, "x", 0)] * 3)
    client = client_for(url, sleeps, max_retries=2)
    with pytest.raises(ProviderError, match="after 3 attempts: HTTP 500"):
        await client.complete_json([{"role": "user", "content": "hi"}])
    await client.aclose()


async def test_openai_extractor_feeds_the_pipeline(stub_server, db, hash_embedder, worker_settings):
    url, stub = stub_server([(429, {"Retry-After": "0"}, "busy", 0)])
    extractor = OpenAIExtractor(client_for(url, []))
    worker = Worker(
        db, embedder=hash_embedder, extractor=extractor, settings=worker_settings, name="w-llm"
    )
    await add_events(
        db, [{"speaker": "Caroline", "text": "I just moved to Lyon!"}], subject_id="conv"
    )
    summary = await run_pending(worker)
    assert summary.jobs == {"done": 1} and summary.actions == {"insert": 1}
    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute("SELECT predicate, value, qualifiers, search_text FROM facts")
        (fact,) = await cur.fetchall()
    assert fact == {
        "predicate": "home_city",
        "value": "Lyon",
        "qualifiers": {"speaker": "Caroline"},
        "search_text": "Caroline lives in Lyon.",
    }
    assert "Caroline: I just moved to Lyon!" in stub.requests[-1]["body"]["messages"][1]["content"]
