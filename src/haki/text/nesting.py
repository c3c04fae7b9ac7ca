"""How deep a JSON document nests (pure, stdlib only).

One limit, ``MAX_JSON_DEPTH``, for every JSON document the API accepts (a
request body, and so a fact value, an event payload, a gateway body, an MCP
message): past it the document is refused before anything is written. The
limit sits far below what the serializer handles (pydantic stops at 255
levels): a stored value is answered inside a few levels of envelope (a
context packet, an MCP tool result) and must still serialize there, or every
read of its subject fails. A row written before the limit existed is read
back as its JSON text (``storage.db.json_loads``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

MAX_JSON_DEPTH = 64
"""The deepest nesting of objects and arrays a JSON document may have (the
top-level object counts as one)."""


def value_too_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a decoded JSON value nests deeper than ``limit``.

    Level by level, without recursion; each level is one C-level pass
    (``extend``) and one comprehension, so 300,000 containers take
    milliseconds.
    """
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list[Any] = []
        for item in level:
            below.extend(item.values() if isinstance(item, dict) else item)
        level = [child for child in below if isinstance(child, dict | list)]
    return False


def flatten_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> Any:
    """``value`` with every container at depth ``limit`` replaced by its JSON text.

    The structure above stays as it was (an event's payload is still an
    object), and nothing is lost: the deep part reads as a string holding it.
    """
    if not isinstance(value, dict | list):
        return value
    if limit <= 1:
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return {k: flatten_deep(v, limit - 1) for k, v in value.items()}
    return [flatten_deep(v, limit - 1) for v in value]


def document_too_deep(
    raw: bytes, loads: Callable[[bytes], Any] = json.loads, limit: int = MAX_JSON_DEPTH
) -> bool:
    """Whether the JSON text ``raw`` nests deeper than ``limit``.

    A document with no more brackets than the limit cannot be too deep and
    is not parsed. Others are parsed by a C parser (``loads``, then the
    standard library's if it refuses) and walked; a parser that gives up on
    the depth itself answers yes. Text that is not JSON answers no: the
    parser that reads it next refuses it with its own message.
    """
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    parsers = (loads,) if loads is json.loads else (loads, json.loads)
    for parse in parsers:
        try:
            value = parse(raw)
        except RecursionError:
            return True
        except ValueError:
            continue
        return value_too_deep(value, limit)
    return False
