"""A wish followed by the speaker's remark on it, read without the remark (pure).

Also a French order typed without its hyphen ("tutoie moi"), read hyphenated.

People give a reason or a remark after what they ask: "Call me Sam, it's
shorter", "Metric please, always, I don't do feet and inches", "tutoie-moi
c'est plus simple", "be blunt with me, I can take it", "use tabs, not
spaces". The rules are anchored on the whole sentence, so the remark hides
the wish. A remark is a trailing part that opens on a statement's subject
("I", "it's", "c'est", "nobody", "je") or a contrast ("not", "pas",
"rather than"); the sentence is read again without it, and only when
nothing was read from the whole sentence.

Only a sentence in which the risk table reads no effect and which reaches
nothing beyond the reply (``text.risk``, ``text.reach``, asked of the
*whole* sentence, remark included) is read so: what the remark says can
never carry a risky order past the gate, and what is read still goes
through the guard like any other candidate. The cost: a remark that
qualifies the wish ("answer in French, it's for my mother") is dropped from
its value.
"""

from __future__ import annotations

import re

from ...text.reach import reaches
from ...text.risk import effects
from .fragments import IMPERATIVES_FR_2SG
from .wish_frames import FINITE, HEAD

_REMARK = re.compile(
    r"^(?:I|I'm|I've|I'd|I'll|I'm|it|it's|its|that|that's|this|nobody|no one|everyone|everybody|not|never"
    r"|rather than|instead of|je|j'|c'est|c'|ça|cela|personne|tout le monde|pas|jamais|plutôt que"
    r"|au lieu de)\b",
    re.IGNORECASE,
)
# Said without its comma, a remark opens on "it's"/"c'est" (the wish before
# it ends there: "tutoie-moi c'est plus simple").
# A match starts only where a run of spaces starts: a long run is scanned once.
_GLUED = re.compile(r"(?<!\s)\s+(?=(?:it's|that's|c'est|ça m'|ça me)\b)", re.IGNORECASE)
_MIN_HEAD_WORDS = 1
# A remark whose subject is a topic before its verb ("le vouvoiement ça me
# met mal à l'aise", "converting in my head is painful"): a trailing part
# with a finite verb or a pronoun that takes the topic up again, opening on
# no order. A part without one ("jamais de 'Salut'") is part of the wish.
_TAKEN_UP = re.compile(r"\b(?:ça|cela|c')\b|\bit's\b", re.IGNORECASE)


def _is_remark(part: str) -> bool:
    text = part.strip()
    if _REMARK.match(text):
        return True
    return bool(FINITE.search(text) or _TAKEN_UP.search(text)) and not HEAD.match(text)


def without_remark(sentence: str) -> str | None:
    """``sentence`` without the remarks that end it, or ``None`` (module doc)."""
    head = remark_head(sentence)
    return None if head is None or not safe_to_drop(sentence) else head


def remark_head(sentence: str) -> str | None:
    """``sentence`` without the remarks that end it, before the risk check (``safe_to_drop``)."""
    text = sentence.strip().replace("’", "'")
    if text.endswith("?"):
        return None
    parts = text.split(", ")
    while len(parts) > 1 and _is_remark(parts[-1]):
        parts.pop()
    head = ", ".join(parts)
    if head == text:
        glued = _GLUED.search(text)
        head = text[: glued.start()] if glued else text
    head = head.strip(" ,.!")
    if head == text.strip(" ,.!") or len(head.split()) < _MIN_HEAD_WORDS:
        return None
    return head


def safe_to_drop(sentence: str) -> bool:
    """May a remark be dropped from ``sentence``: the risk table reads no effect in the
    whole sentence and it reaches nothing beyond the reply?"""
    text = sentence.strip().replace("’", "'")
    return not (effects(text) or reaches(text))


# A French order typed without its hyphen ("tutoie moi", "appelle moi Léa",
# "dis moi toujours …"): the rules know it hyphenated.
_UNHYPHENATED = re.compile(rf"^((?:{IMPERATIVES_FR_2SG})) (moi|nous)\b", re.IGNORECASE)


def hyphenated(sentence: str) -> str | None:
    """``sentence`` with its opening French order hyphenated, or ``None`` when it needs none."""
    text = sentence.strip()
    fixed = _UNHYPHENATED.sub(r"\1-\2", text, count=1)
    return fixed if fixed != text else None


def variants(sentence: str) -> list[tuple[str, str | None]]:
    """What to read again when nothing was read from ``sentence``: hyphenated, then without its
    remark; each with the sentence ``safe_to_drop`` must accept before what it reads counts.

    The risk table is the dear part and most readings without a remark find
    nothing, so it is asked only of a reading that found something: the
    readings that count are those ``without_remark`` gives.
    """
    fixed = hyphenated(sentence)
    out: list[tuple[str, str | None]] = [(fixed, None)] if fixed else []
    for said in [fixed, sentence] if fixed else [sentence]:
        head = remark_head(said)
        if head is not None:
            out.append((head, said))
    return out
