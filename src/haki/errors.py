"""Typed errors, one hierarchy, mapped to HTTP in one place (``api.errors``).

HakiError                      500 internal
├── ConfigError                500 config_error (start-up only)
├── InvalidPayload             422 invalid_payload
│   ├── MissingScope           422 missing_scope
│   ├── BudgetExceeded         422 budget_exceeded
│   ├── IllegalStatusTransition 422 illegal_status_transition
│   └── EmbeddingSpaceMismatch 422 embedding_space_mismatch (an import's vectors)
├── PayloadTooLarge            413 payload_too_large
├── Unauthorized               401 unauthorized
├── ForbiddenScope             403 forbidden_scope
├── NotFound                   404 not_found
│   └── KeyNotFound            404 key_not_found
├── VersionConflict            409 version_conflict
│   └── ConflictAlreadyResolved 409 conflict_already_resolved
├── ConsolidationPending       409 consolidation_pending
├── ConcurrentUpdate           409 concurrent_update
├── RateLimited                429 rate_limited
├── DatabaseUnavailable        503 database_unavailable
├── DatabaseOverloaded         503 database_overloaded (SQLSTATE 53xxx but disk full)
├── InsufficientStorage        507 insufficient_storage (SQLSTATE 53100 disk full)
├── ProviderError              502 provider_error
│   └── EmbeddingDimensionMismatch 502 embedding_dimension_mismatch (SQLSTATE HK001)
└── UpstreamUnavailable        502 upstream_unavailable (gateway)

Each class carries its wire ``code`` and HTTP ``status``; the envelope is
``{"error": {"type": code, "message": str, "field": str | None}}``.
"""

from __future__ import annotations

from typing import Any


class HakiError(Exception):
    code = "internal"
    status = 500

    def __init__(
        self, message: str, *, field: str | None = None, headers: dict[str, str] | None = None
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.headers = headers or {}

    def envelope(self) -> dict[str, Any]:
        return {"error": {"type": self.code, "message": self.message, "field": self.field}}


class ConfigError(HakiError):
    code = "config_error"


class InvalidPayload(HakiError):
    code, status = "invalid_payload", 422


class MissingScope(InvalidPayload):
    code = "missing_scope"


class BudgetExceeded(InvalidPayload):
    code = "budget_exceeded"


class IllegalStatusTransition(InvalidPayload):
    code = "illegal_status_transition"


class EmbeddingSpaceMismatch(InvalidPayload):
    """Vectors made in another embedding space than the one their target
    project compares within (an import): nothing was written."""

    code = "embedding_space_mismatch"


class PayloadTooLarge(HakiError):
    code, status = "payload_too_large", 413


class Unauthorized(HakiError):
    code, status = "unauthorized", 401


class ForbiddenScope(HakiError):
    code, status = "forbidden_scope", 403


class NotFound(HakiError):
    code, status = "not_found", 404


class KeyNotFound(NotFound):
    code = "key_not_found"


class VersionConflict(HakiError):
    code, status = "version_conflict", 409


class ConsolidationPending(HakiError):
    """Jobs queued before a "consolidate now" call are still unfinished when it gives up."""

    code, status = "consolidation_pending", 409


class ConflictAlreadyResolved(VersionConflict):
    code = "conflict_already_resolved"


class ConcurrentUpdate(HakiError):
    """The database broke a lock cycle or a serialisation conflict, still after retries."""

    code, status = "concurrent_update", 409


class RateLimited(HakiError):
    code, status = "rate_limited", 429


class DatabaseUnavailable(HakiError):
    code, status = "database_unavailable", 503


class DatabaseOverloaded(HakiError):
    """The database answers but lacks a resource for this work (memory,
    connections): it may pass on a later try, unlike an outage it is not healed
    by waiting for the server to come back."""

    code, status = "database_overloaded", 503


class InsufficientStorage(HakiError):
    """The database's disk is full: writes fail until someone frees space, so
    this carries no ``Retry-After`` (a retry loop would only add load)."""

    code, status = "insufficient_storage", 507


class ProviderError(HakiError):
    code, status = "provider_error", 502


class EmbeddingDimensionMismatch(ProviderError):
    """A vector of another size than its embedding space declares: the
    database refused it (migration 0170's guard) and wrote nothing. The
    embedder in use is not the space's model."""

    code = "embedding_dimension_mismatch"


class UpstreamUnavailable(HakiError):
    code, status = "upstream_unavailable", 502
