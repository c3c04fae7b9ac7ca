"""Opaque keyset cursors: the sort key of the last row of a page.

A cursor is URL-safe base64 of a small JSON list tagged with the listing it
belongs to, so a timeline cursor is refused by the fact listing.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from ..errors import InvalidPayload


def encode(tag: str, *values: Any) -> str:
    raw = json.dumps([tag, *(str(v) for v in values)], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(tag: str, cursor: str, arity: int) -> list[str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        data = None
    if not (
        isinstance(data, list)
        and len(data) == arity + 1
        and data[0] == tag
        and all(isinstance(v, str) for v in data[1:])
    ):
        raise InvalidPayload("cursor: not a cursor of this listing", field="cursor")
    return data[1:]
