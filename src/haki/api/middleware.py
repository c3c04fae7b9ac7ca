"""ASGI middleware: request ids and security headers, one access-log line and
the request series (``haki_http_*``) per request, body caps.

``RequestIdMiddleware`` sits inside Starlette's outermost error middleware, so
it answers an unhandled exception itself: the 500 then carries the request id
in its ``x-request-id`` header and in the message, like every other response.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

import orjson

from ..errors import HakiError, InvalidPayload, PayloadTooLarge
from ..logs import request_id
from ..observability import metrics
from ..text.nesting import MAX_JSON_DEPTH, document_too_deep

log = logging.getLogger("haki.access")
errors_log = logging.getLogger("haki.api")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


async def send_error(send: Send, exc: HakiError, extra: Mapping[str, str] | None = None) -> None:
    """Answer with the error envelope straight from ASGI (outside FastAPI's handlers)."""
    body = orjson.dumps(exc.envelope())
    headers = {**exc.headers, **(extra or {})}
    raw = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()),
    ]
    await send({"type": "http.response.start", "status": exc.status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


# On every response, unless it set its own (the console's pages carry a full
# policy): no page of this server may be framed by another site (Swagger UI at
# /docs, static files, 404 pages included), and no type is sniffed.
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
)


def with_security_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    present = {name.lower() for name, _ in headers}
    return headers + [(k, v) for k, v in SECURITY_HEADERS if k not in present]


class RequestIdMiddleware:
    """The request id on every response (and in its log lines), with the security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        usable = incoming.isascii() and incoming.isprintable() and incoming.strip()
        rid = incoming[:64] if usable else uuid.uuid4().hex[:16]
        token = request_id.set(rid)
        start = time.perf_counter()
        status = 500
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                status, started = message["status"], True
                headers = [*message.get("headers", []), (b"x-request-id", rid.encode())]
                message["headers"] = with_security_headers(headers)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            errors_log.exception("unhandled error")
            if not started:
                err = HakiError(f"internal error (request id {rid})")
                await send_error(send_with_id, err)
        finally:
            seconds = time.perf_counter() - start
            log.info("%s %s %s %.1fms", scope["method"], scope["path"], status, seconds * 1000)
            metrics.observe_request(scope["method"], route_template(scope), status, seconds)
            request_id.reset(token)


def route_template(scope: Scope) -> str:
    """The path template of the route that answered (``/v1/facts/{fact_id}``), never
    the path itself: one series per route, whatever ids callers send. A request no
    route answered (an unknown path, a body refused before routing) is ``unmatched``."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) and path else "unmatched"


class BodyLimitMiddleware:
    """Refuses a request body over its route's cap, or a JSON body nested deeper
    than ``MAX_JSON_DEPTH``, before the app reads it.

    A declared ``Content-Length`` over the cap is answered at once; otherwise
    the body is read here, counting, and handed on only once it is known to
    fit (the app would buffer it whole anyway). Every JSON body passes here
    (API, gateway, MCP): one depth limit for all, checked before any parser
    recurses into it and before anything is written.
    """

    def __init__(self, app: ASGIApp, *, default: int, limits: Mapping[str, int]) -> None:
        self.app = app
        self.default = default
        self.limits = dict(limits)

    def cap(self, path: str) -> int:
        return self.limits.get(path, self.default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        cap = self.cap(scope["path"])
        too_large = PayloadTooLarge(f"request body over {cap} bytes; the limit for this route")
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > cap:
            # The client may still be sending: close the connection after answering.
            await send_error(send, too_large, {"Connection": "close"})
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                await send_error(send, too_large, {"Connection": "close"})
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if _may_be_json(scope) and document_too_deep(body, orjson.loads):
            await send_error(send, too_deep())
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _may_be_json(scope: Scope) -> bool:
    # A body without a type is parsed as JSON by the API; forms are not JSON.
    kind = dict(scope.get("headers") or []).get(b"content-type", b"").lower()
    return not kind.startswith((b"application/x-www-form-urlencoded", b"multipart/"))


def too_deep() -> InvalidPayload:
    return InvalidPayload(
        f"the body nests objects and arrays deeper than {MAX_JSON_DEPTH} levels, "
        "the limit for every JSON document"
    )


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
