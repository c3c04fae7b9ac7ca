"""Typed SDK errors: every server error carries the envelope's type, message and field.

HakiError
├── HakiConnectionError        the server could not be reached (refused, DNS, timeout)
└── HakiApiError               the server answered with an error envelope
    ├── InvalidRequestError    400, 413, 422 (``invalid_payload``, ``missing_scope``…)
    ├── AuthenticationError    401
    ├── PermissionDeniedError  403
    ├── NotFoundError          404
    ├── ConflictError          409
    ├── RateLimitError         429 (after the client's retries)
    └── ServerError            5xx

The names ``HakiError``, ``HakiApiError`` and ``HakiConnectionError`` and the
attributes ``status_code``, ``error_type``, ``field`` and ``payload`` are
those of the original ``gethaki`` client, so code written against it keeps
catching the same things.
"""

from __future__ import annotations

from typing import Any


class HakiError(Exception):
    """Base class of every SDK error."""


class HakiConnectionError(HakiError):
    """The server could not be reached: connection refused, DNS failure, timeout."""


class HakiApiError(HakiError):
    """The server answered with ``{"error": {"type", "message", "field"}}``."""

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        error_type: str | None = None,
        field: str | None = None,
        payload: dict[str, Any] | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.error_type = error_type
        self.field = field
        self.payload = payload or {}
        self.request_id = request_id

    @property
    def type(self) -> str | None:
        """The envelope's ``type`` (same as ``error_type``)."""
        return self.error_type

    def __str__(self) -> str:
        where = f" (field {self.field})" if self.field else ""
        label = (
            f"{self.status_code} {self.error_type}" if self.error_type else str(self.status_code)
        )
        return f"[{label}] {self.message}{where}"


class InvalidRequestError(HakiApiError):
    """The request was refused as malformed (400, 413, 422)."""


class AuthenticationError(HakiApiError):
    """No key, or an unknown or revoked key (401)."""


class PermissionDeniedError(HakiApiError):
    """The key may not act on that project (403)."""


class NotFoundError(HakiApiError):
    """No such resource in this project (404)."""


class ConflictError(HakiApiError):
    """A concurrent change won, e.g. a stale ``expected_version`` (409)."""


class RateLimitError(HakiApiError):
    """Still rate limited after the client's retries (429)."""


class ServerError(HakiApiError):
    """The server failed or is unavailable (5xx)."""


_BY_STATUS: dict[int, type[HakiApiError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: InvalidRequestError,
    422: InvalidRequestError,
    429: RateLimitError,
}


def error_class(status_code: int) -> type[HakiApiError]:
    if status_code >= 500:
        return ServerError
    return _BY_STATUS.get(status_code, HakiApiError)
