"""A taste read by its frame: the speaker, a verb of liking, preferring or needing, and its object (pure).

A preference is said in one shape whatever its topic: **the speaker**
(``I``, ``je``/``j'``, or no subject at all at the head of a clause:
"love spicy food"), **a verb of liking, preferring or needing** (like,
love, enjoy, prefer, 'd rather, hate, can't stand, need; aime, adore,
préfère, déteste, ai besoin de, supporte pas), maybe denied (don't, ne …
pas, or the spoken "j'aime pas"), and **what** is liked. The rules read
that shape for the objects they know; a sentence they leave whole
("I prefer getting the bad news first", "I'd rather read than watch
videos", "perso j'aime pas trop les réunions le matin", "i like my
answers with headings and bullet points") is read here by the shape
alone, and becomes a ``likes``, ``dislikes`` or ``prefers`` preference.

What keeps the shape from reading chat:

- the object may not point at the conversation or the agent ("love
  that!", "I like you", "j'adore ça"), nor be a wish to do something now
  ("I'd like to …", "I need to go");
- "love/hate X" without a subject is read only for verbs that are no
  order to the agent ("enjoy your weekend" is a wish for them; "prefer
  the docs over blogs" is an order, read by ``wishes``);
- a need is a taste only when it holds each time ("I need big fonts in
  anything you make", "j'ai besoin de pauses toutes les heures"): "I need
  a coffee" is the moment's;
- a hedge or a past ("I used to love …", "if I liked …") reads nothing.

"I like it when X" and "j'aime quand X" like a way things are done: the
value is X as said. When X is the agent's act ("j'aime bien quand tu
termines par le lien de ma boutique") it is an order in the mood of a
taste, left to the readers of wishes, whose gate judges what it does. "I'd rather X than Y" prefers "X rather than Y".
"""

from __future__ import annotations

import re

from .fragments import END, HEDGES, icase
from .types import Candidate, Utterance
from .wish_frames import STANDING

# Words that only open the clause ("honestly", "perso", "ok so basically").
_LEAD = (
    r"(?:(?:honestly|tbh|ngl|personally|basically|really|also|and|but|so|ok|okay|oh|btw|well"
    r"|perso|personnellement|franchement|moi|en vrai|bon|alors|et|mais|sinon|bref)\b,?\s+)*"
)
_ADV = r"(?:(?:really|truly|totally|absolutely|just|also|still|genuinely|so|kinda|kind of|do|actually)\s+)*"
_ADV_FR = r"(?:\s+(?:vraiment|trop|beaucoup|bien|pas mal|énormément|toujours|grave|franchement))*"
# Verb classes, English: (predicate, words). "I" is said or dropped; the
# dropped subject takes only ``_SUBJECTLESS``.
_LIKE_EN = (
    r"(?:like|love|adore|enjoy|dig|(?:am|'m) (?:a )?(?:big |huge |massive )?fan of|(?:am|'m) into)"
)
_DISLIKE_EN = (
    r"(?:hate|dislike|detest|loathe|can't stand|cannot stand|can't bear|don't (?:really )?(?:like|enjoy)"
    r"|do not (?:like|enjoy)|(?:am|'m) not (?:a )?(?:big )?fan of)"
)
_PREFER_EN = r"(?:prefer|(?:'d|would) (?:much )?(?:rather|prefer))"
_NEED_EN = r"(?:need)"
_SUBJECTLESS = r"(?:love|adore|hate|can't stand|cannot stand|really love|totally love)"
_EN = icase(
    rf"^{_LEAD}(?:(?P<i>i)(?:\s+|(?=')){_ADV}(?:(?P<like>{_LIKE_EN})|(?P<dislike>{_DISLIKE_EN})|(?P<prefer>{_PREFER_EN})"
    rf"|(?P<need>{_NEED_EN}))|(?P<bare>{_SUBJECTLESS}))(?!\w)\s+(?P<v>\S.*)$"
)
_FR = icase(
    rf"^{_LEAD}(?:je\s+|j')(?:(?P<dislike>(?:n')?aime pas|(?:ne )?supporte pas|déteste|ai horreur (?:de|d')"
    r"|n'aime pas|ne supporte pas|(?:ne )?suis pas fan (?:de|d'))"
    r"|(?P<like>aime|adore|kiffe|suis (?:un |une )?(?:grand |grande |super )?fan (?:de|d'))"
    r"|(?P<prefer>préfère|préférerais)|(?P<need>ai besoin (?:de|d')))"
    # The verb whole: "j'aimerais …" is a wish, not "j'aime".
    r"(?:(?<=')|(?!\w))"
    rf"{_ADV_FR}\s*(?P<v>\S.*)$"
)
# What the object may not open on: the conversation or the agent, a wish
# to act now ("to go", "de partir"), a clause of someone else's.
_NOT_OBJECT = icase(
    r"^(?:it|that|this|these|those|them|you|your|yours|u|ur|ya|him|her|me|myself|yourself|everything"
    r"|anything|nothing|something|what|how|who|so|too|ça|ca|cela|ceci|toi|vous|te|t'|tout|rien"
    r"|to|de (?:le|la|les)?\s*(?:faire|aller|partir)|que|qu'|si|you to|y)\b"
)
# "I like it when …", "j'aime quand …": a way things are done, the clause itself.
_WHEN = icase(r"^(?:it\s+)?(?:when|whenever|quand|lorsque)\s+(?P<v>\S.*)$")
# The agent as the subject of that clause: "I like it when you …", "j'aime quand tu …".
_AGENT = icase(r"(?:you|u|tu|vous)\b")
# "I'd rather read than watch videos": the choice, both sides.
_THAN = re.compile(r"^(?P<a>.+?)\s+(?:than|rather than|over|instead of|plutôt que)\s+(?P<b>.+)$")
# Past or habit given up: "I used to love", "I once liked".
_PAST = icase(r"\b(?:used to|once|back then|as a kid|avant|autrefois)\b")
_END = re.compile(END)
# Chat after the object: "short answers tbh", "le jazz lol".
_CHAT_TAIL = re.compile(
    r"(?:\s+(?:tbh|ngl|lol|haha|imo|honestly|perso|mdr|quoi))+\s*[.!]*$", re.IGNORECASE
)
_OPENS = frozenset(
    {"not", "also", "then", "so", "i", "it", "no", "pas", "aussi", "puis", "je", "j'"}
)
_OWN = frozenset({"my", "mon", "ma", "mes"})
_HOW = icase(r"\b(?:with|without|in|as|avec|sans|en)\b")
_MAX_WORDS = 12
# "toutes les heures", "tous les matins": each time, as "every" says.
_EACH = icase(r"\btou(?:s|tes) les\b")


def _object(text: str) -> str | None:
    """The object as said, up to where its clause ends, or ``None`` when it names no taste.

    A run-on ("my answers with headings and bullet points and not too long
    and also …") keeps the items before the "and" that opens a new clause
    ("and not …", "and also …"), or, past the limit, those before its last "and".
    """
    end = _END.search(text, 1)
    words = _CHAT_TAIL.sub("", (text[: end.start()] if end else text)).strip(" ,.!?;:").split()
    joins = [i for i, w in enumerate(words[:_MAX_WORDS]) if w.lower() in ("and", "et") and i >= 2]
    opening = [i for i in joins if i + 1 < len(words) and words[i + 1].lower() in _OPENS]
    if opening:
        words = words[: opening[0]]
    elif len(words) > _MAX_WORDS:
        words = words[: joins[-1]] if joins else []
    if not words:
        return None
    # "my kids", "ma sœur": a person's own is liked only with how ("my answers with headings").
    if words[0].lower() in _OWN and not _HOW.search(" ".join(words[1:4])):
        return None
    return " ".join(words)


def liking(clause: str, utterance: Utterance) -> list[Candidate]:
    """The taste ``clause`` states by its frame (see the module doc), or nothing."""
    text = clause.strip()
    if utterance.speaker or text.endswith("?") or _PAST.search(text):
        return []
    english = _EN.match(text)
    found = english or _FR.match(text)
    if found is None:
        return []
    said = {k for k, v in found.groupdict().items() if v}
    head = text[: found.start("v")]
    rest = found["v"]
    if HEDGES.search(head) and "prefer" not in said:
        return []
    when = _WHEN.match(rest)
    if when is not None and _AGENT.match(when["v"]):
        return []  # what the agent does, liked: an order in the mood of a taste (``wishes``)
    if when is not None:
        value = _object(when["v"])
        if value is not None:
            value = f"{'when' if english else 'quand'} {value}"
    elif _NOT_OBJECT.match(rest):
        return []
    else:
        value = _object(rest)
    if value is None:
        return []
    if "need" in said and not (STANDING.search(text) or _EACH.search(text)):
        return []  # "I need a coffee": the moment's, not a taste
    if "dislike" in said or re.match(r"(?:hate|can)", found.groupdict().get("bare") or ""):
        predicate = "dislikes"
    elif said & {"prefer", "need"}:
        predicate = "prefers"
        than = _THAN.match(value)
        if than is not None:
            value = f"{than['a']} rather than {than['b']}"
    else:
        predicate = "likes"
    return [
        Candidate(
            predicate=predicate,
            value=value[:200],
            fact_kind="preference",
            volatility="slow",
            confidence=0.55,
            evidence_span=text[:300],
            role=utterance.role,
        )
    ]
