"""Pure pieces of the gateway: the query of a chat request, where the memory block goes,
and the assistant's text read back out of an SSE stream.

They take and return plain JSON values (the OpenAI chat shape), so the proxy
around them stays a thin pipe and these rules are unit-tested without a
network.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

Message = Mapping[str, Any]


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            p.get("text", "")
            for p in content
            if isinstance(p, Mapping) and p.get("type") == "text" and isinstance(p.get("text"), str)
        ]
        return "\n".join(part for part in parts if part)
    return ""


def last_user_text(messages: Sequence[Any]) -> str:
    """The query memory is fetched for: the text of the last user message."""
    for message in reversed(messages):
        if isinstance(message, Mapping) and message.get("role") == "user":
            return content_text(message.get("content")).strip()
    return ""


def inject(messages: Sequence[Any], block: str) -> list[Any]:
    """Messages with ``block`` prepended to the first system message, or as a new first one.

    An empty block changes nothing: an empty packet is no block at all.
    """
    out = list(messages)
    if not block:
        return out
    if out and isinstance(out[0], Mapping) and out[0].get("role") in ("system", "developer"):
        first = dict(out[0])
        content = first.get("content")
        if isinstance(content, str):
            first["content"] = f"{block}\n\n{content}" if content else block
        elif isinstance(content, list):
            first["content"] = [{"type": "text", "text": block}, *content]
        else:
            first["content"] = block
        out[0] = first
        return out
    return [{"role": "system", "content": block}, *out]


def message_text(completion: Mapping[str, Any]) -> str:
    """The assistant text of a non-streamed completion (first choice)."""
    choices = completion.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        return ""
    message = choices[0].get("message")
    return content_text(message.get("content")) if isinstance(message, Mapping) else ""


class StreamText:
    """Collects the assistant text from SSE bytes as they pass through, unchanged.

    Chunks may split lines anywhere; only complete ``data:`` lines are parsed,
    and anything that is not a chat-completion delta is ignored.
    """

    def __init__(self) -> None:
        self._pending = b""
        self._parts: list[str] = []
        self.done = False

    def feed(self, chunk: bytes) -> None:
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            self._line(line.strip())

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        data = line[5:].strip()
        if data == b"[DONE]":
            self.done = True
            return
        try:
            event = json.loads(data)
        except ValueError:
            return
        choices = event.get("choices") if isinstance(event, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return
        if choices[0].get("index", 0) != 0:
            return
        delta = choices[0].get("delta")
        if isinstance(delta, dict) and isinstance(delta.get("content"), str):
            self._parts.append(delta["content"])

    @property
    def text(self) -> str:
        return "".join(self._parts)
