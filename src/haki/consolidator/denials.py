"""Where a value stands in its sentence: denied, ended, a time, or what it is of.

A correction reads a replacement value from a sentence only where the
sentence asserts it: not where a negation or "any more" takes it back ("I
don't live in Paris any more"), not where a day or a month says when
("starts Monday"), and it needs the few words before it to tell what the
value is of ("I live in Berlin" gives no employer).
"""

from __future__ import annotations

import re

from ..providers.extraction.fragments import DAYS_EN, MONTHS_EN

_GIVEN_MONTHS = frozenset({"April", "May", "June", "August"})
# A day or a month is capitalised in English by convention, not as a name:
# "my new job at Netflix starts Monday" gives one employer. Months that are
# also given names ("May", "June") stay names.
CALENDAR = re.compile(
    rf"^(?:(?:{DAYS_EN})s?|{'|'.join(m for m in MONTHS_EN.split('|') if m not in _GIVEN_MONTHS)})$",
    re.IGNORECASE,
)
# A name stated by a copula after a naming word ("her name is Friday", "he's
# called March") is a name, whatever the calendar says.
_NAMED_AS = re.compile(
    r"(?:\bname\s+(?:is|was|['’]s)|\b(?:called|named|appelle|appelée?|nommée?|s['’]appelle))\s+$",
    re.IGNORECASE,
)


def as_time(sentence: str, value: str, start: int) -> bool:
    """A day or a month used as a time ("starts Monday", "in March"), not stated as a name."""
    if not CALENDAR.match(value):
        return False
    return _NAMED_AS.search(sentence[:start]) is None


# A clause ends at a comma, a colon, a dash or a conjunction that sets a
# second statement against the first ("I'm not at Google, I'm at Meta").
_CLAUSE = re.compile(r"[,;:!?()]|\s[-–—]\s|\b(?:but|and|so|mais|et|donc)\b", re.IGNORECASE)
# Words that deny or end what follows in their clause: "I don't live in
# Paris", "no longer at Acme", "je n'habite plus à Lyon", "I used to …".
_DENIED_BEFORE = re.compile(
    r"(?:\b(?:not|no longer|never|used to|formerly|instead of|rather than|pas|plus|jamais"
    r"|plutôt que|au lieu de)\b|n['’]t\b)",
    re.IGNORECASE,
)
_RESTART = re.compile(
    r"\b(?:before|after|until|till|past|avant|après|apres|jusqu)\b"
    r"|\b(?:it|he|she|they|this|that)\s*(?:['’]s|is|are|was)\b|\bc['’]est\b|\b(?:il|elle) est\b",
    re.IGNORECASE,
)
# … or that say after it that it has ended: "in Paris any more", "Lyon, c'est fini".
_ENDED_AFTER = re.compile(
    r"^[^,;:!?]*?\b(?:any ?more|any longer|no more|no longer|in the past|plus maintenant)\b",
    re.IGNORECASE,
)


def _clause_before(sentence: str, start: int) -> str:
    """The words of ``start``'s clause that come before it."""
    head = sentence[:start]
    cuts = [m.end() for m in _CLAUSE.finditer(head)]
    return head[cuts[-1] if cuts else 0 :]


def denied(sentence: str, start: int, end: int) -> bool:
    """The words at ``sentence[start:end]`` are negated or said to have ended in
    their clause: such a value is what no longer holds, never a replacement."""
    clause = _clause_before(sentence, start)
    negations = list(_DENIED_BEFORE.finditer(clause))
    # "It's not Rex it's Max": a new subject and copula restart the statement;
    # "pas de réunion avant 10h", "no calls after 6pm": the value bounds what is
    # negated, it is the rule stated.
    if negations and not _RESTART.search(clause[negations[-1].end() :]):
        return True
    tail = sentence[end:]
    cut = _CLAUSE.search(tail)
    return _ENDED_AFTER.search(tail[: cut.start()] if cut else tail) is not None


def lead(sentence: str, start: int) -> str:
    """The last few words of the clause before ``start``: what the value is of."""
    return " ".join(_clause_before(sentence, start).split()[-4:])
