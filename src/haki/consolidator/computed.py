"""A held number the turn says to compute rather than gives (pure).

"It was my birthday last week so add a year" against ``age: 27`` gives no
number, yet says the new one: 28. A held count is moved by the amount the
turn says to add or take ("add a year", "a year older", "rajoute un an",
"plus two years"), or by one when the speaker tells their own birthday as
past ("it was my birthday", "I had my birthday", "c'était mon
anniversaire"). A birthday still to come ("my birthday is next week") moves
nothing, nor one of someone else ("my son's birthday").

Cost: an age that was already updated by a number the same turn gives is
replaced by that number first (``value_shapes``); a birthday told of a past
year ("my birthday last year was rough") adds one wrongly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .corrections import Held, Replacement

_AMOUNT = r"(a|an|one|two|three|\d{1,2}|un|une|deux|trois)"
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "un": 1,
    "une": 1,
    "two": 2,
    "deux": 2,
    "three": 3,
    "trois": 3,
}
_ADD = re.compile(
    rf"\b(?:add|plus|another|rajoute\w*|ajoute\w*)\s+{_AMOUNT}\s+(?:more\s+)?(?:years?|ans?|année)\b"
    rf"|\b{_AMOUNT}\s+years?\s+older\b|\b{_AMOUNT}\s+an\s+de\s+plus\b",
    re.IGNORECASE,
)
_TAKE = re.compile(
    rf"\b(?:take|subtract|minus|enlève\w*|retire\w*)\s+{_AMOUNT}\s+(?:years?|ans?|année)\b"
    rf"|\b{_AMOUNT}\s+years?\s+younger\b|\b{_AMOUNT}\s+an\s+de\s+moins\b",
    re.IGNORECASE,
)
_BIRTHDAY_PAST = re.compile(
    r"\b(?:it was|was|had|just had|celebrated|c['’]était|j['’]ai fêté|j['’]ai eu)\s+(?:my|mon)"
    r"\s+(?:birthday|bday|b-day|anniversaire|anniv)\b|\b(?:my|mon)\s+(?:birthday|bday|anniversaire)"
    r"\s+(?:was|passed|c['’]était|était)\b",
    re.IGNORECASE,
)
_AGES = ("age",)
# An amount added is an age's only beside words of age: "add a year to the
# loan" moves no one's age.
_AGE_WORDS = re.compile(
    r"\b(?:birthday|bday|b-day|age|aged|old|older|younger|anniversaire|anniv|âge|ans)\b",
    re.IGNORECASE,
)


def _amount(match: re.Match[str]) -> int:
    said = next(g for g in match.groups() if g)
    return int(said) if said.isdigit() else _NUMBERS[said.casefold()]


def computed(sentences: Sequence[str], held: Sequence[Held]) -> Replacement | None:
    """The held age the turn says to move, with its new value."""
    ages = [f for f in held if f.predicate in _AGES and str(f.value).strip().isdigit()]
    if len(ages) != 1:
        return None
    fact = ages[0]
    for sentence in sentences:
        step = None
        aged = _AGE_WORDS.search(sentence) is not None
        if aged and (found := _ADD.search(sentence)) is not None:
            step = _amount(found)
        elif aged and (found := _TAKE.search(sentence)) is not None:
            step = -_amount(found)
        elif _BIRTHDAY_PAST.search(sentence):
            step = 1
        if step:
            value = int(str(fact.value)) + step
            return Replacement(fact, value if isinstance(fact.value, int) else str(value), sentence)
    return None


def may_compute(turn: str) -> bool:
    """Is the turn worth reading for a held count moved?"""
    return bool(_ADD.search(turn) or _TAKE.search(turn) or _BIRTHDAY_PAST.search(turn))
