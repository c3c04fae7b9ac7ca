"""The guard's verdict on a turn, carried to the episode that serves its words (pure).

An episode's marks are read from its words when it is chunked (``text.injection.marks``),
before any extractor or the guard has looked at the turn. The guard reads more: a
condition, a pronoun pointing back, an order no verb list names. When it holds a
candidate of a turn (a threat, a risky instruction, an order waiting for
confirmation), the same words must not come back through the packet as an
unmarked episode in the person's trusted voice, which a model would read as a
current order. So the chunks of that turn take the verdict as a mark: a quote
mark (``QUOTE_MARKS``) frames the episode as a quote, never an instruction.

Only the chunks that hold the candidate's words take it (a long transcript is
not marked whole for one turn); when none can be told apart, every chunk of
the speaker's in that event does.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from ..providers.extraction.types import EventRow
from ..text.injection import THREAT_KINDS, marks, with_mark
from .chunking import chunk_event
from .guard import UNCONFIRMED
from .turn_words import words_of
from .types import Chunk, Quarantined


def verdict_mark(reason: str) -> str:
    """The episode mark of a quarantine reason: the threat, ``risky_instruction``, or the hold."""
    if reason in THREAT_KINDS:
        return reason
    if reason == UNCONFIRMED:
        return UNCONFIRMED
    return "risky_instruction"


def _speaks(chunk: Chunk, role: str) -> bool:
    """Whether the chunk is the role's words: its ``role:`` prefix, or free text (one speaker)."""
    head = chunk.text.split(":", 1)[0]
    return head == role or " " in head or ":" not in chunk.text


def _holding(chunks: Sequence[Chunk], held: Quarantined) -> list[Chunk]:
    cand = held.sourced.candidate
    own = [c for c in chunks if _speaks(c, cand.role)] or list(chunks)
    span = words_of(cand.evidence_span)
    if not span.strip():
        return own
    return [c for c in own if span in words_of(c.text) or words_of(c.text) in span] or own


def verdict_marks(
    events: Sequence[EventRow], held: Sequence[Quarantined]
) -> list[tuple[UUID, int, tuple[str, ...]]]:
    """``(event_id, ordinal, marks)`` for every chunk whose turn had a candidate held,
    its marks with the verdict added; in event then ordinal order."""
    by_event = {e.id: e for e in events}
    added: dict[tuple[UUID, int], set[str]] = {}
    texts: dict[tuple[UUID, int], str] = {}
    for q in held:
        event = by_event.get(q.sourced.event.id)
        if event is None:
            continue
        for chunk in _holding(chunk_event(event), q):
            key = (chunk.event_id, chunk.ordinal)
            texts[key] = chunk.text
            added.setdefault(key, set()).add(verdict_mark(q.reason))
    out = []
    for key in sorted(added, key=lambda k: (str(k[0]), k[1])):
        found = marks(texts[key])
        for mark in sorted(added[key]):
            found = with_mark(found, mark)
        out.append((key[0], key[1], found))
    return out
