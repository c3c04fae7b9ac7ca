"""Engram's distilled static table served as an OpenAI-compatible embeddings endpoint.

``bench/embedders.py`` compares embedders through the server's ``openai``
provider; this puts the static table (src/haki/engram/semantic.py: each word
piece's MiniLM vector, distilled once per machine by ``engram distil``, 256
dimensions, a text's vector the weighted mean of its pieces' rows) behind
``POST /v1/embeddings`` in a thread of the bench process, so the server embeds
with it exactly as it would with any endpoint. No model runs per text.

A text with no known word piece (emoji only, say) has no vector in the table;
it gets the first unit axis, the same for all of them, so it is stored and
never closer to a real text than any other.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from haki.engram.semantic import Table, open_table

MODEL = "engram-static"


def _vectors(table: Table, texts: list[str]) -> list[list[float]]:
    out = []
    for text in texts:
        vector = table.embed([(text, 1)])
        if vector is None:
            vector = [1.0] + [0.0] * (table.dim - 1)
        out.append(vector)
    return out


def _handler(table: Table, lock: threading.Lock) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, body: dict[str, Any]) -> None:
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:
            if self.path.rstrip("/") in ("/health", "/v1/models"):
                self._send(200, {"status": "ok", "data": [{"id": MODEL}]})
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            if self.path.rstrip("/") != "/v1/embeddings":
                self._send(404, {"error": {"message": "not found"}})
                return
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            with lock:  # the table's caches are plain dicts
                vectors = _vectors(table, [str(t) for t in texts])
            self._send(
                200,
                {
                    "object": "list",
                    "model": MODEL,
                    "data": [
                        {"object": "embedding", "index": i, "embedding": v}
                        for i, v in enumerate(vectors)
                    ],
                    "usage": {"prompt_tokens": 0, "total_tokens": 0},
                },
            )

    return Handler


@contextlib.contextmanager
def static_server() -> Iterator[tuple[str, int]]:
    """The endpoint's ``/v1`` base URL and the table's dimensions, while the block runs."""
    table = open_table()
    if table is None:
        raise SystemExit("no static table on this machine: run `engram distil` first")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(table, threading.Lock()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", table.dim
    finally:
        server.shutdown()
        server.server_close()
