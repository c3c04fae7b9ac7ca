"""The OpenAPI document, kept true to what the API answers.

Every error status a route can answer is documented with the one error
envelope. ``document_errors`` derives the common ones from each operation
(every ``/v1`` operation: 401, 403, 422, 500, 503; a body: 413; a path
parameter: 404; a rate-limited path: 429), so a new route is documented
without anyone remembering to; a route adds its own (409, 502) with
``responses=errors(409)``. The bearer scheme is declared once and required
on every ``/v1`` operation but the public ones (device login start and
poll, which answer neither 401 nor 403, and are limited per client address:
429), which gives the docs page its "Authorize" button.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field

from . import glossary
from .auth import PUBLIC_V1_PATHS, RATE_LIMITED_PATHS

BEARER = "bearer"
PUBLIC = frozenset({"/health"}) | PUBLIC_V1_PATHS  # every other operation takes the bearer key


class ErrorDetail(BaseModel):
    type: str = Field(description="Stable machine-readable error type (see docs/api.md).")
    message: str = Field(description="What went wrong, for a human; never echoes secrets.")
    field: str | None = Field(
        description="The offending field in dotted form (`events[0].occurred_at`), or null."
    )


class ErrorOut(BaseModel):
    """The one error envelope every non-2xx answer uses."""

    error: ErrorDetail = Field(description="What went wrong.")


# What each status means on this API; the types it carries are in docs/api.md.
ERROR_MEANINGS: dict[int, str] = {
    401: "`unauthorized`: missing or invalid API key.",
    403: "`forbidden_scope`: the key may not act on that project (or needs the admin key).",
    404: "`not_found`: no such resource in this project.",
    409: (
        "`version_conflict`, `conflict_already_resolved` or `consolidation_pending`: "
        "the resource changed state, or jobs are still running."
    ),
    413: "`payload_too_large`: the body or batch is over its limit.",
    422: (
        "`invalid_payload`, `missing_scope`, `budget_exceeded` or "
        "`illegal_status_transition`: the request is malformed; `field` names where."
    ),
    429: "`rate_limited`: too many calls for this key (or, without a key, from this "
    "address); see `Retry-After`.",
    500: "`internal`: a server fault; the message carries the request id.",
    502: "`provider_error` or `upstream_unavailable`: the LLM provider or the gateway's "
    "upstream failed or is not configured.",
    503: (
        "`database_unavailable`: the database is down or restarting; `database_overloaded`: "
        "it lacks memory or connections for this work. See `Retry-After`."
    ),
    507: (
        "`insufficient_storage`: the database's disk is full; writes fail until space is "
        "freed (no `Retry-After`: retrying does not help)."
    ),
}

_RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "schema": {"type": "integer"},
    }
}


_REF = "#/components/schemas/"


def _envelope_schemas() -> dict[str, Any]:
    schema = ErrorOut.model_json_schema(ref_template=_REF + "{model}")
    defs: dict[str, Any] = schema.pop("$defs", {})
    return {**defs, "ErrorOut": schema}


def errors(*statuses: int, notes: dict[int, str] | None = None) -> dict[int | str, dict[str, Any]]:
    """A ``responses=`` mapping documenting ``statuses`` with the error envelope;
    ``notes`` replaces the generic meaning of a status where a route says more."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        entry: dict[str, Any] = {
            "description": (notes or {}).get(status, ERROR_MEANINGS[status]),
            "content": {"application/json": {"schema": {"$ref": f"{_REF}ErrorOut"}}},
        }
        if status in (429, 503):
            entry["headers"] = _RETRY_AFTER
        out[status] = entry
    return out


# The methods whose body the body cap reads (``api.middleware.BodyLimitMiddleware``),
# whether the operation declares a body or not.
_CAPPED = frozenset({"post", "put", "patch", "delete"})


def _statuses(path: str, method: str, operation: dict[str, Any]) -> list[int]:
    if not path.startswith("/v1"):
        return []
    found = {422, 500, 503, 507} if path in PUBLIC_V1_PATHS else {401, 403, 422, 500, 503, 507}
    if "requestBody" in operation or method in _CAPPED:
        found.add(413)
    if any(p.get("in") == "path" for p in operation.get("parameters", [])):
        found.add(404)
    if path in RATE_LIMITED_PATHS or path in PUBLIC_V1_PATHS:
        found.add(429)
    return sorted(found)


def document_errors(schema: dict[str, Any]) -> None:
    """Add the error statuses every operation can answer, with the envelope.

    Read off the generated document (a body, a path parameter, the path),
    so it needs nothing from the route objects and covers routes added later.
    FastAPI's own 422 body (``{"detail": [...]}``) is never what we answer:
    it is replaced, and its schemas dropped.
    """
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status, entry in errors(*_statuses(path, method, operation)).items():
                current = responses.get(str(status))
                if current is None or _is_fastapi_422(current):
                    responses[str(status)] = entry
    schemas = schema.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)


def describe_fields(schema: dict[str, Any]) -> None:
    """Give every field still without a description the glossary's meaning."""
    for name, model in schema.get("components", {}).get("schemas", {}).items():
        for field, prop in model.get("properties", {}).items():
            if not prop.get("description"):
                meaning = glossary.BY_MODEL.get(f"{name}.{field}") or glossary.BY_NAME.get(field)
                if meaning:
                    prop["description"] = meaning


def _is_fastapi_422(response: dict[str, Any]) -> bool:
    content = response.get("content", {}).get("application/json", {})
    return bool(content.get("schema", {}).get("$ref", "").endswith("/HTTPValidationError"))


def install_openapi(app: FastAPI) -> None:
    """Error responses on every route, the bearer scheme on every ``/v1`` operation."""

    def build() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
            tags=app.openapi_tags,
        )
        document_errors(schema)
        describe_fields(schema)
        components = schema.setdefault("components", {})
        components.setdefault("schemas", {}).update(_envelope_schemas())
        components.setdefault("securitySchemes", {})[BEARER] = {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A project key (`hk_...`) or the admin key (`HAKI_ADMIN_KEY`). "
                "Not needed in dev mode (auth off)."
            ),
        }
        for path, operations in schema.get("paths", {}).items():
            if path not in PUBLIC:
                for operation in operations.values():
                    operation["security"] = [{BEARER: []}]
        app.openapi_schema = schema
        return schema

    app.openapi = build  # type: ignore[method-assign]
