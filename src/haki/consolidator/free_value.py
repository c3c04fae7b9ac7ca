"""The new value a correcting turn sets in a held fact's place, when it has no shape (pure).

A new e-mail address, number, day or capitalised name is read by its shape
(``value_shapes``). Hobbies, tastes, code conventions, diets, jobs and
lower-case places have none: "it's all bouldering now", "c'est surtout du
jazz maintenant", "switch me to metric", "we're on 2 spaces now", "je me
suis reconvertie en développeuse web", "on a déménagé à nantes". Such a
turn already points at the held fact (``doubt_plan``); without a value it
is only put in doubt. What the turn says in the fact's place is read by
the frame that sets a new value, not by the predicate: a copula ("it's",
"c'est"), a choice ("I meant", "switched to", "give me", "went full"), a
move ("moved to", "déménagé à"), or a clause that only names the value
and asks for it ("metric please"). The phrase runs to the next clause
("now", "from now on", "que …", "I'm …", a comma).

The value is taken only when the turn gives exactly one such phrase that
is neither the held value, nor another held value, nor a negation ("it's
not shellfish"): a turn that only ends the old value ("I quit
bouldering", "j'arrête le tennis") gives none and stays ended or in doubt.

Cost: only a fact the doubt stage has already chosen is affected, so no
new fact is held back; a wrong phrase replaces the fact instead of
holding it back in doubt (``bench/doubt.py``: keep rows and LoCoMo
``superseded`` count it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.lexicon import STOP_WORDS
from .identity import value_key
from .value_shapes import head, names_a_day, plain, shape

_ARTICLE = r"(?:(?:the|a|an|du|de la|des|le|la|les|aux|au|à|en|some)\s+|(?:de l|l|d)['’]\s*)?"
_FRAMES = (
    r"\bit['’]?s(?:\s+(?:all|mostly|just))?",
    r"\bit is(?:\s+(?:all|mostly|just))?",
    r"\bc['’]est(?:\s+(?:surtout|plutôt))?",
    r"\bi meant",
    r"\bje voulais dire",
    r"\bswitch(?:ed)?(?:\s+me)?(?:\s+over)?\s+to",
    r"\bmoved(?:\s+over)?\s+to",
    r"\bi go to",
    r"\bwe['’]re on",
    r"\bwent full",
    r"\bgive me",
    r"\bi['’]m an?",
    r"\bi am an?",
    r"\breconverti(?:e)?\s+(?:en|dans)",
    r"\bdéménagé\s+(?:à|a|sur)",
    r"\bpassée?s?\s+(?:à|au|aux)",
)
# Where the new value's phrase ends: a clause mark, a word of time or
# emphasis, the start of a relative or a new clause.
_END = (
    r"(?=\s*[,.;!?:()—–\n]|\s*$|\s+(?:now|these days|nowadays|from now on|in the end|instead"
    r"|actually|anyway|please|lol|tbh|haha|maintenant|désormais|en fait|du coup|que|qui|i|i['’]m"
    r"|je|j['’]\w*|that|which|for|since|because|pour|depuis|car|parce)\b)"
)
_FRAMED = re.compile(
    rf"(?:{'|'.join(_FRAMES)})\s+{_ARTICLE}(?P<v>[^\W\d_]?[\w'’&+#-]*(?:\s+[\w'’&+#-]+){{0,5}}?){_END}",
    re.IGNORECASE,
)
# A clause naming only the value and asking for it: "scratch that, metric please".
_ASKED = re.compile(
    r"(?:^|[,:;]\s*)(?P<v>[^\W\d_][\w-]*(?:\s+[\w-]+)?)\s+(?:please|pls|stp|s['’]il te plaît)\b",
    re.IGNORECASE,
)
# A phrase that says nothing of a value: "it's not …", "it's fine", "c'est bon".
_EMPTY = frozenset(
    [
        "not",
        "no",
        "never",
        "so",
        "too",
        "very",
        "fine",
        "ok",
        "okay",
        "true",
        "been",
        "over",
        "done",
        "really",
        "kinda",
        "pretty",
        "pas",
        "plus",
        "jamais",
        "bon",
        "vrai",
        "fini",
        "trop",
        "tellement",
        "très",
        "juste",
        "ça",
    ]
)
# Shapes read by ``value_shapes`` (a day, a time, an address): their own reader decides.
_SHAPED = ("email", "phone", "number", "time", "day")
_DIGIT = re.compile(r"\d")


def _candidate(phrase: str, old: object, values: Sequence[object]) -> str | None:
    words = phrase.split()
    if not words or len(words) > 5 or plain(words[0]) in _EMPTY:
        return None
    if not any(len(w) >= 3 and plain(w) not in STOP_WORDS for w in words):
        return None
    key = value_key(phrase)
    if any(key == value_key(v) for v in values):
        return None
    # The old value again ("it's tabs for the old project"), by itself or its head.
    said = plain(phrase)
    first = head(old)
    if plain(str(old)) in said or (first and plain(first) == said):
        return None
    return phrase


def free_value(sentences: Sequence[str], old: object, values: Sequence[object]) -> str | None:
    """The one phrase the sentences set in place of ``old``, none if zero or two."""
    kind = shape(old)
    if kind in _SHAPED or _DIGIT.search(str(old)) or names_a_day(str(old)):
        # A schedule or a count ("9am-5pm Monday-Friday"): its days and
        # hours are read by their shapes, a phrase ("four tens") is not one.
        return None
    found: dict[str, str] = {}
    for sentence in sentences:
        for pattern in (_FRAMED, _ASKED):
            for match in pattern.finditer(sentence):
                phrase = _candidate(match.group("v").strip(), old, values)
                if phrase is not None:
                    found.setdefault(value_key(phrase), phrase)
    if len(found) != 1:
        return None
    phrase = next(iter(found.values()))
    if kind == "name":
        # A name said in lower case ("we moved to boulder") is written as the held one is.
        if len(phrase.split()) > 3:
            return None
        phrase = " ".join(w[:1].upper() + w[1:] for w in phrase.split())
    return phrase
