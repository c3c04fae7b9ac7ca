"""Whether words captured by a rule have the shape their predicate expects.

A captured phrase that is a pronoun, a clause, chit-chat, a time or lost its
object is no value; names, places and organisations must not start with a
function word; numbers, languages, diets, e-mails and phones are read into
their canonical form. ``checked_value`` returns the value or ``None``.
"""

from __future__ import annotations

import re
from typing import Any

from .fragments import Rule
from .place_names import known_place
from .vocabulary import DIETS, LANGUAGES, WORDS
from .when import UNIT, past_span_all

# Words that make a captured phrase a pronoun, a clause or chit-chat rather
# than a thing someone likes ("I love that!", "I love how you...").
_STOP_FIRST = frozenset(
    [
        "it",
        "it's",
        "its",
        "that",
        "this",
        "these",
        "those",
        "them",
        "they",
        "you",
        "your",
        "yours",
        "him",
        "her",
        "his",
        "us",
        "we",
        "our",
        "me",
        "my",
        "myself",
        "what",
        "how",
        "when",
        "where",
        "why",
        "who",
        "whom",
        "which",
        "whatever",
        "everything",
        "something",
        "anything",
        "nothing",
        "everyone",
        "all",
        "both",
        "each",
        "every",
        "being",
        "having",
        "doing",
        "seeing",
        "hearing",
        "knowing",
        "getting",
        "talking",
        "to",
        "the",
        "a",
        "an",
        "some",
        "any",
        "one",
        "ce",
        "ça",
        "ca",
        "cela",
        "ceci",
        "tout",
        "toi",
        "vous",
        "le",
        "la",
        "les",
        "un",
        "une",
        "des",
        "quand",
        "comment",
        "their",
        "his",
        "its",
        "in",
        "on",
        "at",
        "up",
        "out",
        "for",
        "with",
        "by",
        "from",
        "into",
        "about",
        "way",
        "idea",
        "thought",
        "look",
        "looks",
        "sound",
        "feel",
        "vibe",
        "vibes",
        "photo",
        "pic",
        "pics",
        "picture",
        "pictures",
        "color",
        "colors",
        "colour",
        "colours",
        "texture",
        "design",
        "energy",
        "message",
        "sentiment",
        "quote",
        "name",
        "concept",
        "details",
        "detail",
    ]
)
# A value ending on one of these lost its object ("escaping to [that world]").
_DANGLING = frozenset(
    [
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "about",
        "into",
        "and",
        "or",
        "the",
        "a",
        "an",
        "my",
    ]
)
_TIME_ONLY = re.compile(
    r"^(?:yesterday|today|tonight|tomorrow|recently|lately|now"
    r"|last (?:week|month|year|night)|this (?:week|month|year))$",
    re.IGNORECASE,
)
# A pronoun anywhere in a short value points at something the sentence does
# not name ("holding them", "a trip there").
_STOP_ANY = frozenset(
    [
        "you",
        "your",
        "yours",
        "yourself",
        "it",
        "them",
        "him",
        "her",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "toi",
        "vous",
        "votre",
        "ton",
        "ta",
        "tes",
    ]
)
_STOP_NAMES = frozenset(
    [
        "I",
        "The",
        "A",
        "An",
        "And",
        "But",
        "So",
        "Mom",
        "Dad",
        "Mum",
        "Yes",
        "No",
        "Oh",
        "Ok",
        "Okay",
        "Well",
        "Thanks",
        "Thank",
        "Hey",
        "Hi",
        "Hello",
        "It",
        "It's",
        "That",
        "This",
        "What",
        "When",
        "Where",
        "Why",
        "How",
        "Just",
        "Also",
        "Too",
        "Very",
        "Really",
        "Le",
        "La",
        "Les",
        "Un",
        "Une",
        "Et",
        "Mais",
    ]
)
_TRAILING = re.compile(
    r"\s+(?:too|so much|a lot|very much|right now|lately|these days|as well|again|anymore|now|though|"
    r"last (?:week|month|year|night)|yesterday|recently|today|this (?:week|month|year)|"
    rf"(?:\w+ |a couple of )?{UNIT} ago|il y a \w+ \w+|"
    r"haha|lol|aussi|beaucoup|vraiment|maintenant|désormais|à présent|hier|récemment|"
    r"(?:la semaine|le mois|l'an|l'année|le week-end) derni(?:er|ère)|cette (?:semaine|année)|ce mois-ci|"
    # "a climbing gym in January": the time the fact began, not its value.
    r"(?:depuis|since) (?:l'|le |la |les |the |last |this |cet |cette |ce )?[\w']+(?: derni(?:er|ère)| passée?)?|"
    r"(?:in|en|since|depuis) (?:january|february|march|april|may|june|july|august|september|october"
    r"|november|december|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre"
    r"|décembre)(?: \d{4})?)$",
    re.IGNORECASE,
)

_ARTICLE = re.compile(r"^(?:(?:the|a|an|le|la|les|un|une|des|du|de la)\s+|l')", re.IGNORECASE)
# "a nurse at the hospital": the occupation ends where its workplace begins.
_PLACE_TAIL = re.compile(r"\s(?:at|for|in|with|on|chez|à|dans|pour)\s", re.IGNORECASE)


_DEMONSTRATIVE = re.compile(r"^(?:this|that|these|those)\s+(?=\S+\s+\S)", re.IGNORECASE)
# Longer values where lists are the norm ("most reptiles and animals with fur").
MAX_WORDS = {"allergy": 8}
_NEARBY = re.compile(
    r"\s+(?:near|close to|next to|a?round the corner from|près de|à côté de|pas loin de|proche de)\s.*$",
    re.IGNORECASE,
)


def _clean(value: str) -> str:
    value = " ".join(value.replace("’", "'").split()).strip(" -'\"")
    previous = None
    while previous != value:
        previous = value
        value = _until_said_time(_TRAILING.sub("", value).strip())
    return value


def _until_said_time(value: str) -> str:
    """``value`` without a time that ends it ("course à pied cet été"): when it began, not what."""
    spans = past_span_all(value)
    if spans and spans[-1][1] == len(value) and spans[-1][0] > 0:
        return value[: spans[-1][0]].rstrip(" ,")
    return value


# "I like to think so", "I love to say hello": a verb of thought or speech
# is a manner of speaking, not a thing someone likes doing.
_SPEAKING = frozenset(
    [
        "think",
        "believe",
        "say",
        "know",
        "imagine",
        "assume",
        "suppose",
        "admit",
        "mention",
        "remind",
        "tell",
        "ask",
        "consider",
    ]
)


def _phrase_ok(value: str, max_words: int) -> bool:
    words = value.lower().split()
    if not words or len(words) > max_words or words[-1] in _DANGLING or _TIME_ONLY.match(value):
        return False
    if words[0] in _STOP_FIRST and not (words[0] == "to" and len(words) > 1):
        return False
    if (words[1] if words[0] == "to" and len(words) > 1 else words[0]) in _SPEAKING:
        return False
    return not any(w.strip(",.") in _STOP_ANY for w in words)


def checked_value(rule: Rule, raw: str) -> Any | None:
    value = _clean(raw)
    if rule.value == "number":
        number = int(value)
        return number if 1 <= number <= 120 else None
    if rule.value == "known_place":
        # A place said in lower case is one only when it is a known place.
        return known_place(value) if value[:1].islower() else None
    if rule.value in ("name", "place", "org"):
        value = value.removesuffix("'s")
        first = value.split()[0] if value else ""
        if not value or first in _STOP_NAMES or len(value) < 2:
            return None
        return value
    if rule.value == "occupation":
        return value.lower()
    if rule.value == "language":
        return LANGUAGES.get(value.lower())
    if rule.value == "diet":
        return DIETS.get(value.lower())
    if rule.value == "word":
        return WORDS.get(value.lower())
    if rule.value == "email":
        return value.lower()
    if rule.value == "phone":
        digits = re.sub(r"\D", "", value)
        return " ".join(value.split()) if 6 <= len(digits) <= 15 else None
    if rule.value in ("study", "study_fr"):
        # A field of study is stored as the occupation it makes: "law student".
        if not _phrase_ok(value, 3):
            return None
        if rule.value == "study_fr":
            return f"étudiant en {value}"
        degree, _, field = value.rpartition(" in ")
        degree = degree.removesuffix(" degree")
        if degree and degree.lower() != "degree":
            return f"{degree} student in {field}"  # "PhD student in chemistry"
        return f"{field or value} student"
    if rule.value == "phrase":
        value = _ARTICLE.sub("", value.removeprefix("to ")).strip()
        if rule.predicate == "occupation":
            value = _PLACE_TAIL.split(value)[0]
        if not rule.predicate:  # "my favourite treat is this amazing tart"
            value = _DEMONSTRATIVE.sub("", value)
        limit = MAX_WORDS.get(rule.predicate, 5)
        if _phrase_ok(value, limit):
            return value
        # "un club d'échecs près de chez moi": where it is, past a long value.
        near = _NEARBY.sub("", value)
        return near if near != value and _phrase_ok(near, limit) else None
    # Clauses: decisions, plans, conventions (whose pattern already fixed the
    # verb or the "our rule is" frame, so any first word may follow).
    if rule.predicate == "schedule" and value.lower().startswith(("d'", "de ")):
        value = f"pas {value}"  # "je ne prends pas d'appels après 18h"
    elif rule.predicate == "schedule" and not value.lower().startswith(("no ", "pas ")):
        value = f"no {value}"  # "I don't take meetings before 10am"
    if rule.predicate == "convention":
        words = value.split()
        return value if 2 <= len(words) <= 25 and words[-1].lower() not in _DANGLING else None
    return value if _phrase_ok(value, 12) else None
