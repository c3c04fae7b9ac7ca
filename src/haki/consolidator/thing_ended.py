"""The end said of the thing a fact holds, not of its value (pure).

"Sold the car yesterday!" against ``owns: 2014 Civic``, "j'ai résilié ma
ligne" against ``phone: 555-0134``: the turn ends the thing the value is
of, naming the thing by its kind ("the car", "ma ligne") and never the
value. The readings tied by a word (the value, a topic) find nothing; the
value is no longer current all the same.

A sentence ends a thing when a verb of parting with it has an object of
the speaker's own or a definite one ("the car", "my line", "ma ligne",
"le forfait"). The fact it ends is the one held fact of a thing-like
predicate (``_THINGS``: what one owns, a phone, an address, a membership)
the sentence is tied to: the sentence names its topic ("plus de portable",
"my phone") or its value; or, for what one owns (no topic words) parted
with by selling or giving away (``_SOLD``; "closed my eyes", "lost my
job" part with nothing held), the turn sits within ``floor`` of the fact
or of its sentence by meaning. Two such facts tied: nothing is read.

The stage replaces the fact with what the turn gives in its place, else
puts it in doubt: an end read by a kind noun may be of another thing of
that kind (a second car, a work phone), so it is marked unsure rather than
closed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.topics import AskedQuestion, asks_about
from .corrections import Held
from .said_close import THIRD_PERSON
from .takeback import SOMEONE_ELSE, names

# Predicates whose value is a thing one has and can part with.
_THINGS = frozenset({"owns", "phone", "email", "member_of"})
# What one owns has no topic words: meaning ties it.
_UNTOPICAL = frozenset({"owns"})

_OBJECT = (
    r"\s+(?:(?:the|my|our|that|this|le|la|les|l['’]|mon|ma|mes|notre|nos|ce|cette)\s*)"
    r"(?P<thing>[^\W\d_][\w'’-]*)"
)
# Parting with a thing one owns: sold, given or thrown away.
_SOLD = re.compile(
    r"\b(?:sold|sell|selling|got rid of|gave away|given away|traded in|trade in|totaled|totalled"
    r"|wrote off|scrapped|vendu|revendu|bazardé)" + _OBJECT,
    re.IGNORECASE,
)
# Ending an account, a line, a membership: only with its topic or value named
# ("closed my eyes" ends nothing held).
_CLOSED = re.compile(
    r"\b(?:cancel(?:l)?ed|cancel(?:l)?ing|closed|shut down|terminated|résilié|resilie|fermé"
    r"|clôturé|supprimé)" + _OBJECT,
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[,;:.!?\n]+|\s[-–—]\s")


def _tied(fact: Held, sentence: str, sold: bool, floor: float) -> bool:
    if names(fact.value, sentence.casefold()) or asks_about(
        AskedQuestion.of(sentence), fact.predicate
    ):
        return True
    if not sold:
        return False
    # The turn against the fact, or against the sentence it was read from.
    close = max(fact.similarity or 0.0, fact.said or 0.0)
    return fact.predicate in _UNTOPICAL and close >= floor


def thing_ended(
    sentences: Sequence[str], held: Sequence[Held], floor: float
) -> tuple[Held, str] | None:
    """The one held thing a statement says the speaker parted with, and that statement."""
    found: dict[object, tuple[Held, str]] = {}
    for sentence in sentences:
        own = [
            clause
            for clause in _CLAUSE.split(sentence)
            if not SOMEONE_ELSE.search(clause.casefold()) and not THIRD_PERSON.search(clause)
        ]
        sold = any(_SOLD.search(c) for c in own)
        if not sold and not any(_CLOSED.search(c) for c in own):
            continue
        for fact in held:
            if fact.predicate in _THINGS and _tied(fact, sentence, sold, floor):
                found.setdefault(fact.id, (fact, sentence))
    return next(iter(found.values())) if len(found) == 1 else None


def may_end_thing(turn: str) -> bool:
    """Is the turn worth reading for a thing parted with?"""
    return _SOLD.search(turn) is not None or _CLOSED.search(turn) is not None
