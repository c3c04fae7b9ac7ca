"""A held value of a closed vocabulary switched to another of the same one (pure).

Some predicates take their values from a short closed list the rules know
in both languages (``providers.extraction.vocabulary``): languages, systems
of units, diets, relationship statuses. Membership is a shape, as an e-mail
address is: a turn that asks for or says another member of the held
value's list, in words of switching, speaks of that fact and gives its new
value whatever its wording — "can you go back to answering in English from
now on?" against ``language: Spanish``, "switch me to metric" against
``units: imperial``, "bon, repasse au français stp" against ``language:
English``. The extractor reads such requests as a ``convention`` (or not
at all), so nothing replaced the held value.

A request is often worded as a question ("can you …?", "tu peux …?"): it
asks for something to be done, not what memory holds, so such a sentence
is read here while other questions take nothing back. The switch must be
said (``_SWITCH``: switch, go back, stick to, use, reply in, repasse,
reviens, plutôt, désormais…, or a correction cue), of the speaker (not of
someone else), not of one task ("answer this email in German") nor of a
moment or a trip, and the sentence must name exactly one other member, not
negated or said to have ended ("I'm not vegan anymore" names no new diet).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..providers.extraction.corrections import correction_cue
from ..providers.extraction.vocabulary import DIETS, LANGUAGES, RELATIONSHIP, UNITS
from .corrections import Held, Replacement, temporary
from .denials import denied
from .identity import value_key
from .said_close import THIRD_PERSON
from .takeback import SOMEONE_ELSE

# The vocabularies, each read by the predicate whose values it holds.
_VOCABULARIES: dict[str, dict[str, str]] = {
    "language": LANGUAGES,
    "units": UNITS,
    "diet": DIETS,
    "relationship_status": RELATIONSHIP,
}


def member_pattern(words: dict[str, str]) -> re.Pattern[str]:
    """A matcher of a closed list's members, longest first, on word boundaries."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


_PATTERNS = {predicate: member_pattern(words) for predicate, words in _VOCABULARIES.items()}

# Words of switching or of asking for a value to be used from now on.
_SWITCH = re.compile(
    r"\b(?:switch\w*|go(?:ing)? back|back to|stick to|change\w*|move to|use|using"
    r"|reply|answer\w*|respond|from now on|instead|rather"
    r"|repasse\w*|passe\w*|reviens|revenir|retour|utilise\w*|réponds|répondre"
    r"|plutôt|désormais|dorénavant)\b",
    re.IGNORECASE,
)
# One task, not a habit: "can you answer this email in German?", "write
# that in Spanish" — unless it says it holds from now on.
_ONE_TASK = re.compile(r"\b(?:this|that|these|those|ce|cet|cette|ces|ça|cela)\b", re.IGNORECASE)
FROM_NOW_ON = re.compile(r"\b(?:from now on|désormais|dorénavant|à partir de maintenant)\b", re.I)
# A request worded as a question: it asks for something to be done.
_REQUEST = re.compile(
    r"^\W*(?:\w+\W+)?(?:can|could|would|will) you\b|^\W*(?:\w+\W+)?(?:tu peux|peux-tu|pourrais-tu"
    r"|tu pourrais|vous pouvez|pouvez-vous)\b",
    re.IGNORECASE,
)
SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


def said_or_asked(turn: str) -> list[str]:
    """The turn's statements and requests (questions that ask for something done)."""
    parts = [s.strip() for s in SENTENCES.split(turn) if s.strip()]
    return [s for s in parts if not s.endswith("?") or _REQUEST.search(s)]


def _members(sentence: str, predicate: str) -> set[str]:
    """The stored forms of the vocabulary's members the sentence names, not negated."""
    words = _VOCABULARIES[predicate]
    return {
        words[m.group(0).casefold()]
        for m in _PATTERNS[predicate].finditer(sentence)
        if m.group(0).casefold() in words and not denied(sentence, m.start(), m.end())
    }


def switched(sentences: Sequence[str], held: Sequence[Held]) -> Replacement | None:
    """The held fact of a closed vocabulary a sentence switches to another member (pure)."""
    found: dict[object, Replacement] = {}
    for fact in held:
        words = _VOCABULARIES.get(fact.predicate)
        if words is None or value_key(str(fact.value)) not in {
            value_key(v) for v in words.values()
        }:
            continue
        old = value_key(str(fact.value))
        for sentence in sentences:
            if SOMEONE_ELSE.search(sentence.casefold()) or THIRD_PERSON.search(sentence):
                continue
            if not (_SWITCH.search(sentence) or correction_cue(sentence)) or temporary(sentence):
                continue
            if _ONE_TASK.search(sentence) and not FROM_NOW_ON.search(sentence):
                continue
            new = {v for v in _members(sentence, fact.predicate) if value_key(v) != old}
            if len(new) == 1:
                found.setdefault(fact.id, Replacement(fact, new.pop(), sentence))
                break
    # Two held facts switched at once: the turn does not say which one.
    return next(iter(found.values())) if len(found) == 1 else None


def may_switch(turn: str) -> bool:
    """Is the turn worth reading for a closed vocabulary's member switched?"""
    return _SWITCH.search(turn) is not None and any(p.search(turn) for p in _PATTERNS.values())
