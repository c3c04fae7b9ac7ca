"""The user's own name corrected or changed (pure).

The readings of ``doubt_plan`` leave the ``name`` fact alone: any
capitalised word after a cue would rename the user. People still change
what they are called, in frames that say whose name it is: "Actually
everyone calls me Katie, please use Katie", "I go by Sam these days",
"appelle-moi Juju", "on m'appelle Juju maintenant"; or respell it with a
word that says the first spelling was wrong: "It's John with an h,
sorry" against "Jon". Only these two readings reach the name:

- a **naming frame** of the speaker ("call(s) me", "go(es) by", "I prefer
  to be called", "appelle-moi", "on m'appelle", "je me fais appeler")
  followed by one capitalised word that is no stop word, calendar word or
  the held name, the only one the turn so frames;
- a **respelling** (``said_change.respelled``: same first letter, at most
  two edits, in a frame that sets it in the old one's place) in a sentence
  with a correction cue.

"Call me tomorrow", "call me Monday", "my friends call me Sunny at
work" (someone else speaking, a place bound) and "my son goes by Theo"
rename nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..providers.extraction.corrections import correction_cue
from ..text.lexicon import STOP_WORDS
from .corrections import Held, Replacement
from .denials import CALENDAR
from .identity import value_key
from .said_change import respelled
from .takeback import SOMEONE_ELSE

_FRAME = re.compile(
    r"\b(?:call(?:s|ing)? me|go(?:es|ing)? by|prefer to be called|appelle-moi|appelez-moi"
    r"|on m['’]appelle|je me fais appeler|tout le monde m['’]appelle)\s+"
    r"(?P<name>(?-i:[A-ZÀ-Ý])[\w'’-]+)",
    re.IGNORECASE,
)
# A frame bound to a place or a moment names a nickname there, not the name.
_BOUND = re.compile(r"\b(?:at work|at school|au boulot|au travail|sometimes|parfois)\b", re.I)


def _framed(sentence: str, old: str) -> set[str]:
    if SOMEONE_ELSE.search(sentence.casefold()) or _BOUND.search(sentence):
        return set()
    out = set()
    for match in _FRAME.finditer(sentence):
        name = match.group("name")
        low = name.casefold()
        if low in STOP_WORDS or CALENDAR.match(name) or value_key(name) == value_key(old):
            continue
        out.add(name)
    return out


def renamed(sentences: Sequence[str], held: Sequence[Held]) -> Replacement | None:
    """The held ``name`` a statement renames or respells, with the new name."""
    names = [f for f in held if f.predicate == "name"]
    if len(names) != 1:
        return None
    fact = names[0]
    old = str(fact.value)
    framed = {n: s for s in sentences for n in _framed(s, old)}
    if len(framed) == 1:
        ((name, sentence),) = framed.items()
        return Replacement(fact, name, sentence)
    if framed:
        return None
    for sentence in sentences:
        if correction_cue(sentence) and not SOMEONE_ELSE.search(sentence.casefold()):
            new = respelled(sentence, old)
            if new is not None:
                return Replacement(fact, new, sentence)
    return None


def may_rename(turn: str) -> bool:
    """Is the turn worth reading for the user's name framed anew?"""
    return _FRAME.search(turn) is not None
