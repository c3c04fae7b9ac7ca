"""The one place where exceptions become HTTP responses.

Starlette walks the exception's MRO to find a handler, so the handler for
``HakiError`` covers every subclass. Validation errors and driver failures
are translated into the same envelope; anything unexpected is a 500 with the
request id and no stack trace.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from psycopg_pool import PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import ConcurrentUpdate, DatabaseUnavailable, HakiError, InvalidPayload
from ..logs import request_id
from ..storage.db import CONFLICTS

log = logging.getLogger(__name__)


def error_response(exc: HakiError) -> JSONResponse:
    return JSONResponse(exc.envelope(), status_code=exc.status, headers=exc.headers or None)


def _dotted(loc: Sequence[object]) -> str:
    parts: list[str] = []
    for item in loc:
        if item in ("body", "query", "path", "header") and not parts:
            continue
        if isinstance(item, int):
            parts[-1:] = [f"{parts[-1]}[{item}]"] if parts else [f"[{item}]"]
        else:
            parts.append(str(item))
    return ".".join(parts)


def validation_error(exc: RequestValidationError) -> InvalidPayload:
    first = exc.errors()[0]
    field = _dotted(first.get("loc", ())) or None
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
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {
            404: "not_found",
            405: "method_not_allowed",
            401: "unauthorized",
            400: "invalid_payload",
        }
        err = HakiError(str(exc.detail))
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
    async def _db(_: Request, exc: Exception) -> JSONResponse:
        log.warning("database unavailable: %s", exc.__class__.__name__)
        return error_response(DatabaseUnavailable("the database is unavailable; retry later"))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return error_response(HakiError(f"internal error (request id {request_id.get()})"))
