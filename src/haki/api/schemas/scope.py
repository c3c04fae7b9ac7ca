"""Scope query parameters: missing ones are ``missing_scope``, not a generic 422."""

from __future__ import annotations

from ...errors import MissingScope


def required_scope(value: str | None, field: str) -> str:
    if value is None or not value.strip():
        raise MissingScope(f"{field} is required", field=field)
    return value
