"""A stub OpenAI-compatible model endpoint on loopback, for the gateway's tests and bench.

It answers from a fixed text (streamed word by word when asked), calls the
first tool when tools are offered, answers 404 for the model ``broken``, and
records every request body and credential it receives. A test that needs a
conversation of several steps (an agent calling a tool, then answering)
queues the assistant messages in ``script``: each request takes the next one.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Upstream:
    """A stub model endpoint: answers from a script and records what it received."""

    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    auth: list[str] = field(default_factory=list)
    answer: str = "Noted: you live in Lyon."
    script: list[dict[str, Any]] = field(default_factory=list)


def _completion(
    answer: str, body: dict[str, Any], scripted: dict[str, Any] | None = None
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer}
    finish = "stop"
    if scripted is not None:
        message = {"role": "assistant", "content": None, **scripted}
        finish = "tool_calls" if scripted.get("tool_calls") else "stop"
    elif body.get("tools"):
        tool = body["tools"][0]["function"]["name"]
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": tool, "arguments": json.dumps({"city": "Lyon"})},
                }
            ],
        }
        finish = "tool_calls"
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": body.get("model", "stub"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _chunks(answer: str, model: str) -> Iterator[bytes]:
    base = {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 1_700_000_000}
    words = answer.split(" ")
    for i, word in enumerate(words):
        piece = word if i == 0 else " " + word
        delta = {"role": "assistant", "content": piece} if i == 0 else {"content": piece}
        chunk = {**base, "model": model, "choices": [{"index": 0, "delta": delta}]}
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    end = {**base, "model": model, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    yield f"data: {json.dumps(end)}\n\n".encode()
    yield b"data: [DONE]\n\n"


def stub_app(state: Upstream) -> Starlette:
    async def completions(request: Request) -> Response:
        body = await request.json()
        state.requests.append(body)
        state.auth.append(request.headers.get("authorization", ""))
        if body.get("model") == "broken":
            return JSONResponse({"error": {"message": "no such model", "type": "invalid"}}, 404)
        if body.get("stream"):
            return StreamingResponse(
                _chunks(state.answer, body.get("model", "stub")), media_type="text/event-stream"
            )
        scripted = state.script.pop(0) if state.script else None
        return JSONResponse(_completion(state.answer, body, scripted))

    async def models(_: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": "stub-model", "object": "model"}]})

    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/models", models),
        ]
    )


@contextmanager
def serve_stub() -> Iterator[Upstream]:
    """The stub on a free loopback port, in a thread, for the duration of the block."""
    port = free_port()
    state = Upstream(url=f"http://127.0.0.1:{port}/v1")
    config = uvicorn.Config(stub_app(state), host="127.0.0.1", port=port, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield state
    finally:
        server.should_exit = True
        thread.join(5)
