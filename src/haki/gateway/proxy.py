"""One chat completion through the gateway: fetch memory, forward, remember the turn.

The steps, in order:
1. the query is the last user message; the memory block for it is fetched
   and prepended to the system message (or becomes the first one);
2. the request goes to the upstream as the client wrote it, but for those
   messages; the answer comes back unchanged, streamed or not;
3. once the answer is complete, the turn (user + assistant) is captured.

Memory never blocks a call: if it fails, the request is forwarded without it
and marked ``X-Haki-Memory: disabled``. The upstream failing is the caller's
business: an unreachable one is ``502 upstream_unavailable``, and its own
error answers pass through as they are.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..client import HakiError
from ..errors import InvalidPayload
from .messages import StreamText, inject, last_user_text, message_text
from .upstream import Upstream, chunks, passthrough_headers

log = logging.getLogger(__name__)

MemoryState = Literal["active", "degraded", "disabled"]


@dataclass(frozen=True, slots=True)
class Recalled:
    block: str  # the rendered <haki_memory> block, "" for an empty packet
    trace_id: str | None
    degraded: bool  # the packet carried warnings


class Memory(Protocol):
    """Haki seen from the gateway: one subject's memory."""

    async def recall(self, query: str) -> Recalled: ...

    async def remember(self, user_text: str, assistant_text: str) -> None: ...


@dataclass(slots=True)
class Forwarded:
    """What the route sends back: status, headers, and a body or a stream of it."""

    status: int
    headers: dict[str, str]
    body: bytes = b""
    stream: AsyncIterator[bytes] | None = None
    after: Callable[[], Awaitable[None]] | None = None  # runs once the body is sent
    memory: MemoryState = "disabled"
    extra: dict[str, str] = field(default_factory=dict)


def parse_request(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise InvalidPayload(f"the body is not valid JSON ({exc})") from exc
    if not isinstance(body, dict):
        raise InvalidPayload("the body must be a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidPayload("messages must be a non-empty list", field="messages")
    return body


async def _recall(memory: Memory | None, query: str) -> tuple[Recalled | None, MemoryState, float]:
    if memory is None or not query:
        return None, "disabled", 0.0
    started = time.perf_counter()
    try:
        recalled = await memory.recall(query)
    except HakiError as exc:
        # A typed answer (the API refused the call, e.g. an over-long subject id, or
        # was unreachable) says all there is to say: one line, no traceback.
        log.warning("gateway: memory unavailable, forwarding without it: %s", exc)
        return None, "disabled", (time.perf_counter() - started) * 1000
    except Exception:  # memory must never take the call down with it
        log.warning("gateway: memory unavailable, forwarding without it", exc_info=True)
        return None, "disabled", (time.perf_counter() - started) * 1000
    state: MemoryState = "degraded" if recalled.degraded else "active"
    return recalled, state, (time.perf_counter() - started) * 1000


def _remember_later(
    memory: Memory, user_text: str, text: Callable[[], str]
) -> Callable[[], Awaitable[None]]:
    async def remember() -> None:
        answer = text()
        if not answer:
            return
        try:
            await memory.remember(user_text, answer)
        except HakiError as exc:
            log.warning("gateway: the turn could not be captured: %s", exc)
        except Exception:
            log.warning("gateway: the turn could not be captured", exc_info=True)

    return remember


async def chat_completions(raw: bytes, memory: Memory | None, upstream: Upstream) -> Forwarded:
    body = parse_request(raw)
    query = last_user_text(body["messages"])
    recalled, state, context_ms = await _recall(memory, query)
    if recalled is not None and recalled.block:
        body["messages"] = inject(body["messages"], recalled.block)
    extra = {"X-Haki-Memory": state, "X-Haki-Context-Ms": f"{context_ms:.1f}"}
    if recalled is not None and recalled.trace_id:
        extra["X-Haki-Trace-Id"] = recalled.trace_id
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    streamed = body.get("stream") is True
    response = await upstream.send("POST", "chat/completions", payload, stream=streamed)
    headers = passthrough_headers(response.headers)
    ok = response.status_code == 200 and memory is not None and state != "disabled"
    if not streamed:
        content = response.content
        after = None
        if ok:
            try:
                answer = message_text(json.loads(content))
            except ValueError:
                answer = ""
            after = _remember_later(memory, query, lambda: answer)  # type: ignore[arg-type]
        return Forwarded(response.status_code, headers, content, None, after, state, extra)
    if response.status_code != 200:
        content = await response.aread()
        await response.aclose()
        return Forwarded(response.status_code, headers, content, None, None, state, extra)
    seen = StreamText()

    async def relay() -> AsyncIterator[bytes]:
        async for chunk in chunks(response):
            seen.feed(chunk)
            yield chunk

    after = _remember_later(memory, query, lambda: seen.text) if ok else None  # type: ignore[arg-type]
    return Forwarded(200, headers, b"", relay(), after, state, extra)


async def models(upstream: Upstream) -> Forwarded:
    response = await upstream.send("GET", "models")
    return Forwarded(response.status_code, passthrough_headers(response.headers), response.content)
