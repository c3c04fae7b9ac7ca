"""The words of a turn, as the guard and its helpers compare them (pure)."""

from __future__ import annotations

import re

from ..providers.extraction.render import extraction_text, utterances
from ..providers.extraction.types import EventRow
from ..text.injection import normalise


def turn_text(event: EventRow, role: str) -> str:
    """Everything said in one event by one role, as the extractor reads it."""
    said = [u.text for u in utterances(event.payload) if u.role == role]
    return extraction_text("\n".join(said))


_WORD = re.compile(r"\w+")


def words_of(text: str) -> str:
    """The words of ``text``, blank-separated with a blank at each end, so
    that one word sequence inside another is found on whole words only."""
    return " " + " ".join(_WORD.findall(normalise(text).casefold())) + " "
