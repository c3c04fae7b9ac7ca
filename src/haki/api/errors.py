"""The one place where exceptions become HTTP responses.

Starlette walks the exception's MRO to find a handler, so the handler for
``HakiError`` covers every subclass. Validation errors and driver failures
are translated into the same envelope; anything unexpected is a 500 with the
request id and no stack trace.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from psycopg_pool import PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ..errors import (
    ConcurrentUpdate,
    DatabaseUnavailable,
    HakiError,
    InvalidPayload,
    MissingScope,
    PayloadTooLarge,
)
from ..logs import request_id
from ..storage.db import CONFLICTS, short_of_resources

log = logging.getLogger(__name__)


def error_response(exc: HakiError) -> JSONResponse:
    return JSONResponse(exc.envelope(), status_code=exc.status, headers=exc.headers or None)


def _dotted(loc: tuple[Any, ...] | list[Any]) -> str:
    parts: list[str] = []
    # The first item says where (body, query, ...); a field may itself be named ``query``.
    if loc and loc[0] in ("body", "query", "path", "header", "cookie"):
        loc = loc[1:]
    for item in loc:
        if isinstance(item, int):
            parts[-1:] = [f"{parts[-1]}[{item}]"] if parts else [f"[{item}]"]
        else:
            parts.append(str(item))
    return ".".join(parts)


# Scope fields: missing or blank is ``missing_scope``, wherever they sit.
_SCOPE_FIELDS = frozenset({"project_id", "subject_id"})
_NOT_AN_OBJECT = frozenset({"model_attributes_type", "dict_type", "model_type"})


def _where_json_broke(doc: object, pos: int) -> str:
    text = doc.decode("utf-8", "replace") if isinstance(doc, bytes) else str(doc)
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {column}"


def validation_error(exc: RequestValidationError) -> InvalidPayload:
    """The first validation error, as ``invalid_payload`` (or ``missing_scope``) naming its
    field in dotted form (``events[0].occurred_at``)."""
    first = exc.errors()[0]
    kind = first.get("type", "")
    loc = tuple(first.get("loc", ()))
    if kind == "json_invalid":
        pos = loc[-1] if loc and isinstance(loc[-1], int) else 0
        reason = (first.get("ctx") or {}).get("error", "invalid JSON")
        return InvalidPayload(
            f"the body is not valid JSON: {reason} at {_where_json_broke(exc.body, pos)}"
        )
    field = _dotted(loc) or None
    if field is None and loc[:1] == ("body",):
        if kind == "missing":
            return InvalidPayload("a JSON object body is required")
        if kind in _NOT_AN_OBJECT:
            return InvalidPayload("the body must be a JSON object sent as application/json")
    leaf = field.rsplit(".", 1)[-1] if field else None
    if kind in ("missing", "blank", "string_too_short") and leaf in _SCOPE_FIELDS:
        verb = "is required" if kind == "missing" else "must not be blank"
        return MissingScope(f"{field} {verb}", field=field)
    if kind == "missing":
        return InvalidPayload(f"{field} is required", field=field)
    if kind == "extra_forbidden":
        return InvalidPayload(f"{field}: unknown field", field=field)
    msg = first.get("msg", "invalid value")
    return InvalidPayload(f"{field}: {msg}" if field else msg, field=field)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HakiError)
    async def _haki(_: Request, exc: HakiError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(validation_error(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {
            404: "not_found",
            405: "method_not_allowed",
            401: "unauthorized",
        }
        if exc.status_code == 400:
            # FastAPI's answer to a body it cannot decode at all (not UTF-8, say).
            return error_response(
                InvalidPayload("the body could not be read as JSON text (UTF-8 expected)")
            )
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # Starlette names the methods of the first route matching the
            # path; a path served by several routes (GET and POST /v1/facts)
            # supports all of theirs.
            headers["Allow"] = ", ".join(allowed_methods(request))
        err = HakiError(str(exc.detail), headers=headers)
        err.code, err.status = codes.get(exc.status_code, "http_error"), exc.status_code
        return error_response(err)

    async def _rollback(_: Request, exc: Exception) -> JSONResponse:
        # A deadlock or a serialisation failure is a conflict between writers,
        # not an outage: the database is up, the request may simply be retried.
        log.warning("transaction rolled back: %s", exc.__class__.__name__)
        return error_response(
            ConcurrentUpdate(
                "a concurrent write conflicted with this one; retry",
                headers={"Retry-After": "1"},
            )
        )

    for conflict in CONFLICTS:
        app.add_exception_handler(conflict, _rollback)

    @app.exception_handler(psycopg.OperationalError)
    @app.exception_handler(PoolTimeout)
    async def _db(request: Request, exc: Exception) -> JSONResponse:
        db = getattr(getattr(request.app.state, "haki", None), "db", None)
        if db is not None and isinstance(exc, psycopg.Error) and short_of_resources(exc):
            return error_response(db.short_of(exc))  # a full disk is not an outage
        log.warning("database unavailable: %s", exc.__class__.__name__)
        return error_response(
            db.unavailable()
            if db is not None
            else DatabaseUnavailable("the database is unavailable; retry later")
        )

    @app.exception_handler(psycopg.errors.ProgramLimitExceeded)
    async def _limit(_: Request, exc: Exception) -> JSONResponse:
        # An OperationalError by class, but the database is up: what the
        # request asked for is past one of its limits.
        log.warning("database limit exceeded: %s", exc.__class__.__name__)
        return error_response(
            PayloadTooLarge("the request is too large for the database to process")
        )

    @app.exception_handler(psycopg.DataError)
    async def _data(_: Request, exc: Exception) -> JSONResponse:
        # The field types refuse what PostgreSQL cannot store; this is the net
        # under them, so a value they miss is still the caller's 422, not a 500.
        log.warning("database refused a value: %s", exc.__class__.__name__)
        return error_response(
            InvalidPayload("a value is out of range or holds characters the database refuses")
        )

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return error_response(internal_error())


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app fully answers on this request's path.

    Asked of the routes themselves, method by method: FastAPI may wrap
    included routers, so their methods are not an attribute to read.
    """
    routes = request.app.router.routes
    allowed = []
    for method in METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] is Match.FULL for route in routes):
            allowed.append(method)
    return allowed


def internal_error() -> HakiError:
    return HakiError(f"internal error (request id {request_id.get()})")
