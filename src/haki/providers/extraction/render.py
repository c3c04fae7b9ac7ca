"""Reading an event payload as utterances: who said what, in order.

Payloads are free JSON. The shapes recognised, in this order:

- ``{"messages": [{"role", "content"}, ...]}`` (chat transcripts; ``content``
  may be OpenAI-style parts);
- ``{"user": "...", "assistant": "..."}`` (a captured conversation turn);
- ``{"speaker": "Caroline", "text": "...", "blip_caption"?: "..."}``;
- ``{"role": "user", "content": "...", "name"?: "..."}`` (one chat message;
  ``name`` is the speaker);
- ``{"text": "..."}`` or ``{"content": "..."}``;
- anything else: a readable ``key: value`` rendering.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...text.contractions import expanded
from .types import Utterance

# The memory block Haki injects into prompts; when an agent's transcript is
# captured back, this text is what we served, not new evidence.
MEMORY_BLOCK = re.compile(r"<haki_memory>.*?</haki_memory>", re.DOTALL | re.IGNORECASE)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
        return "\n".join(p for p in parts if p)
    if content is None:
        return ""
    return json.dumps(content, ensure_ascii=False, sort_keys=True)


def _readable(payload: dict[str, Any]) -> str:
    lines = []
    for key in sorted(payload):
        value = payload[key]
        if value in (None, "", [], {}):
            continue
        text = (
            value
            if isinstance(value, str)
            else json.dumps(value, ensure_ascii=False, sort_keys=True)
        )
        lines.append(f"{key}: {text}")
    return "\n".join(lines)


def utterances(payload: dict[str, Any]) -> list[Utterance]:
    """The payload's utterances, in order; empty texts are dropped."""
    messages = payload.get("messages")
    if isinstance(messages, list) and messages:
        out = []
        for msg in messages:
            if not isinstance(msg, dict):
                continue
            text = _content_text(msg.get("content")).strip()
            if text:
                out.append(Utterance(str(msg.get("role") or "user"), msg.get("name"), text))
        return out
    if isinstance(payload.get("user"), str) or isinstance(payload.get("assistant"), str):
        pairs = [("user", payload.get("user")), ("assistant", payload.get("assistant"))]
        return [
            Utterance(role, None, text.strip())
            for role, text in pairs
            if isinstance(text, str) and text.strip()
        ]
    speaker = next(
        (payload[k] for k in ("speaker", "name") if isinstance(payload.get(k), str)), None
    )
    for key in ("text", "content"):
        if isinstance(payload.get(key), str) and payload[key].strip():
            given = payload.get("role")
            role = given if isinstance(given, str) else "user"
            return [Utterance(role, speaker, payload[key].strip())]
    text = _readable(payload)
    return [Utterance("", None, text)] if text else []


def image_caption(payload: dict[str, Any]) -> str | None:
    caption = payload.get("blip_caption")
    return caption.strip() if isinstance(caption, str) and caption.strip() else None


def extraction_text(text: str) -> str:
    """The words an extractor may read: the served memory block removed, chat contractions
    written out ("jsuis" → "je suis", ``text.contractions``)."""
    return expanded(MEMORY_BLOCK.sub(" ", text).strip())
