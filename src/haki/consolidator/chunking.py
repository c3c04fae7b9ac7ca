"""Stage 1a: cut an event into turn-sized episode chunks (pure).

One chunk per message (``"role: content"``, for a ``messages`` list or a
single ``{"role", "content"}`` payload) or per speaker turn
(``"Caroline: text [shares image: caption]"``); free text is split on
paragraphs, then sentences, then words, to stay near ``TARGET_CHARS`` and
never above ``MAX_CHARS``.
"""

from __future__ import annotations

import re

from ..providers.extraction.render import image_caption, utterances
from ..providers.extraction.types import EventRow
from .types import Chunk

TARGET_CHARS = 1000
MAX_CHARS = 1500

# Payload keys that name the speaker of their text (``{"user": "..."}``).
ROLE_KEYS = ("user", "assistant")

_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


def _hard_split(text: str) -> list[str]:
    """Split an over-long sentence on spaces (or anywhere, for one huge token)."""
    pieces: list[str] = []
    current = ""
    for word in text.split():
        while len(word) > MAX_CHARS:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(word[:MAX_CHARS])
            word = word[MAX_CHARS:]
        if current and len(current) + 1 + len(word) > TARGET_CHARS:
            pieces.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        pieces.append(current)
    return pieces


def _units(text: str) -> list[tuple[str, bool]]:
    """Pieces no longer than MAX_CHARS, each flagged when it starts a paragraph."""
    units: list[tuple[str, bool]] = []
    for paragraph in _PARAGRAPH.split(text):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        if len(paragraph) <= TARGET_CHARS:
            units.append((paragraph, True))
            continue
        first = True
        for sentence in _SENTENCE_END.split(paragraph):
            for piece in _hard_split(sentence) if len(sentence) > MAX_CHARS else [sentence.strip()]:
                if piece:
                    units.append((piece, first))
                    first = False
    return units


def split_text(text: str) -> list[str]:
    """Greedy packing of paragraphs/sentences into pieces of about TARGET_CHARS."""
    pieces: list[str] = []
    current = ""
    for unit, starts_paragraph in _units(text):
        sep = "\n\n" if starts_paragraph else " "
        if current and len(current) + len(sep) + len(unit) > TARGET_CHARS:
            pieces.append(current)
            current = unit
        else:
            current = f"{current}{sep}{unit}" if current else unit
    if current:
        pieces.append(current)
    return pieces


def _turn_texts(event: EventRow) -> list[str] | None:
    """One text per turn, or None when the payload is free text."""
    payload = event.payload
    said = utterances(payload)
    if (isinstance(payload.get("messages"), list) and said) or len(said) > 1:
        return [f"{u.role}: {u.text}" for u in said]
    if len(said) == 1 and said[0].speaker:
        text = f"{said[0].speaker}: {said[0].text}"
        caption = image_caption(payload)
        return [f"{text} [shares image: {caption}]" if caption else text]
    if len(said) == 1 and any(isinstance(payload.get(k), str) for k in ("role", *ROLE_KEYS)):
        # One chat message: the role is who spoke, kept like a transcript turn.
        return [f"{said[0].role}: {said[0].text}"]
    return None


def chunk_event(event: EventRow) -> list[Chunk]:
    """The event's chunks, numbered from 0 in reading order."""
    turns = _turn_texts(event)
    if turns is None:
        texts = [piece for u in utterances(event.payload) for piece in split_text(u.text)]
    else:
        # A turn stays whole unless it exceeds the hard maximum.
        texts = [
            piece
            for turn in turns
            for piece in ([turn] if len(turn) <= MAX_CHARS else split_text(turn))
        ]
    return [Chunk(event_id=event.id, ordinal=i, text=t) for i, t in enumerate(texts)]
