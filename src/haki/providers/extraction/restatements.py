"""A sentence said again without its frame: a name in apposition, the words after a colon (pure).

Two of the readings of ``readings``: "I joined the union at work,
Teamsters Local 2785" names what it joined after a comma, and reads as
"I joined Teamsters Local 2785"; "grosse année : on a déménagé à Lyon"
states its fact after a lead-in and a colon, and reads as what follows.
"""

from __future__ import annotations

import re

# A definite noun phrase and, closing the sentence after a comma, its own
# name ("I joined the union at work, Teamsters Local 2785", "I started at
# the bakery on Church St, Hartley's"): the name stands for the phrase.
# The article is a word of its own: "theodore's place" and "lately" hold none.
_APPOSED = re.compile(
    r"\b(?:(?:the|la|le)\s+|l')(?![A-Z])"
    r"(?:(?!\b(?:my|your|his|her|our|their|mon|ma|mes|and|et|with|avec)\b)[^,;:]){2,50}?"
    r"(?P<rest>(?:\s+(?:last|this|earlier|yesterday|today|en|le mois|la semaine)\b[^,;:]{0,30})?),\s+"
    r"(?P<name>[A-Z][\w'’&.-]*(?:\s+(?:[A-Z][\w'’&.-]*|\d+|of|de|du|des))*)\s*[.!]?$"
)


def named_in_apposition(text: str) -> list[str]:
    """``text`` with the definite phrase its closing name stands for read as the name."""
    found = _APPOSED.search(text)
    if found is None or found.group("name").split()[-1].lower() in ("of", "de", "du", "des"):
        return []
    return [f"{text[: found.start()]}{found.group('name')}{found.group('rest')}"]


def after_colon(text: str) -> list[str]:
    """The words after the last colon of ``text``, as a sentence of their own (if two or more)."""
    if ": " not in text:
        return []
    tail = text.rsplit(": ", 1)[1].strip()
    return [tail[:1].upper() + tail[1:]] if len(tail.split()) >= 2 else []
