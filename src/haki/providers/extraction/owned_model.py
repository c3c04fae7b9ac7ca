"""A thing owned, named by its model after a generic noun: "bought a car, a used yaris".

People name what they bought twice, the kind first and the model after
("a car … used mazda 3", "une voiture, une petite clio"), often typed in
lowercase, so the capitalised rules read only the kind (``owns: car``).
When the turn names one model of the car lexicon after that kind, the
model is the value. A lowercase model that is also an everyday word
("golf", "focus", "jazz", "leaf") counts only when typed capitalised.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .lexicon import CARS
from .types import Candidate

# The generic nouns a model names, English and French.
_KINDS = frozenset({"car", "new car", "used car", "voiture", "bagnole", "caisse", "auto"})
# Models whose lowercase form is an everyday word.
_WORDS = frozenset(
    {"golf", "polo", "focus", "jazz", "leaf", "smart", "seat", "mini", "panda", "juke", "mg"}
)
_BY_LOWER = {c.lower(): c for c in CARS}
_MODEL = re.compile(
    r"(?<![\w-])(?P<m>" + "|".join(re.escape(c) for c in sorted(CARS, key=len, reverse=True)) + r")"
    r"(?P<n> \d{1,3}\b)?(?![\w-])",
    re.IGNORECASE,
)


def _model(text: str) -> str | None:
    """The one car model ``text`` names, in the lexicon's casing, with its number."""
    found = set()
    for m in _MODEL.finditer(text):
        word = m.group("m")
        if word.lower() in _WORDS and not word[0].isupper():
            continue
        found.add(_BY_LOWER[word.lower()] + (m.group("n") or ""))
    return found.pop() if len(found) == 1 else None


def named_model(text: str, found: list[Candidate]) -> list[Candidate]:
    """``found`` with an ``owns`` of a generic kind replaced by the model the turn names after it."""
    out = []
    for cand in found:
        value = str(cand.value).lower()
        if cand.predicate == "owns" and value in _KINDS:
            at = text.lower().find(value)
            model = _model(text[at + len(value) :]) if at >= 0 else None
            if model is not None:
                cand = replace(cand, value=model)
        out.append(cand)
    return out
