"""Everyday facts read by meaning and by the type of their value, where no pattern read.

The patterns read a fact by its phrasing; people state their city, their
employer or their pet's name in words no list holds ("on est à grenoble
depuis septembre", "update: the kids outvoted me, the pup is Waffles now").
A sentence of the subject's that no pattern read is read in two steps:

1. its MiniLM document vector (the one the wish reader already asks for,
   ``meaning``) places it in a family of facts (``FAMILIES``) by a softmax
   trained on the training sets only (``scripts/train_fact_reader.py``,
   weights in ``fact_weights.json``); only a family at or above its
   threshold (``THRESHOLDS``) counts;
2. the value is taken by its type and the sentence's structure, never by
   its phrasing (``value_of``): a capitalised name for a pet or a partner,
   a city of ``places.txt`` for the home city, a capitalised name that is
   no place for an employer, a lone number in a human range for an age, the
   shape of an address or a number for contacts, a word of the category's
   vocabulary (``vocabulary``) for a diet or a relationship status. Exactly
   one value of the type must be there; two, or none, read nothing.

What the sentence says of the value is guarded as the patterns guard it
(``guarded``): a question, a hedge or condition, a negation, a former state,
a future one, or a sentence about someone else ("my sister lives in Lyon",
"she works at Airbus") states no fact of the speaker's. A named speaker's
sentence is never read (``rules`` does not collect it). A fact read so
holds its own words' moment (``when.past_span``) like any other candidate,
and goes through the same guard, dates and corrections; its confidence is
``CONFIDENCE``, below every pattern's, because a wrong fact served as
current costs more than a lost one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...text.reach import reaches
from ...text.risk import effects
from .fragments import EMAIL, HEDGES, PHONE
from .lexicon import BREEDS
from .patterns import RELATION_PREDICATES
from .place_names import folded, places
from .restatements import plainly
from .softmax import SoftmaxReader, in_space
from .types import Candidate
from .values import _STOP_NAMES
from .vocabulary import DIETS, RELATIONSHIP
from .when import past_span
from .when_words import DAYS, HOLIDAYS, MONTHS

if TYPE_CHECKING:
    import numpy as np

    from .meaning import Unread

FAMILIES = (
    "pet",
    "partner",
    "home_city",
    "employer",
    "age",
    "relationship_status",
    "diet",
    "email",
    "phone",
    "other",
)
WEIGHTS = Path(__file__).with_name("fact_weights.json")
# The least probability of the family read: the least threshold at which
# 95 % of the five-fold out-of-fold readings (family, guards and typed
# value) are right (scripts/train_fact_reader.py --cv prints the table and
# its ``chosen``). The typed value adds its own filter.
THRESHOLDS: dict[str, float] = {
    "pet": 0.7,
    "partner": 0.6,
    "home_city": 0.5,
    "employer": 0.8,
    "age": 0.5,
    "relationship_status": 0.95,
    "diet": 0.7,
    "email": 0.5,
    "phone": 0.5,
}
# Below every pattern's (0.65 to 0.85): a fact read by meaning is the
# weakest reading the extractor makes, and a conflicting pattern-read fact
# outweighs it.
CONFIDENCE = 0.55
MIN_WORDS, MAX_WORDS = 3, 40

_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|im|ive|me|my|mine|we|we're|we've|us|our|ours|je|moi|mon|ma|mes|nous"
    r"|notre|nos)\b|\b[jm]'"
    # French "on" is "we" before a verb; elsewhere it is the English preposition.
    r"|\bon (?=(?:est|a|vit|habite|se|s'|y|va|bosse|travaille)\b)",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(?:not|never|no longer|no more|nor|cannot|ne|pas|plus|jamais|aucune?|ni)\b|n't\b|\bn'",
    re.IGNORECASE,
)
# A state that was ("used to live in", "my ex", "avant j'habitais"), that
# may be ("thinking of moving to"), or that will be ("turning 30 next month").
_NOT_NOW = re.compile(
    r"\b(?:used to|back when|when i was|formerly|previously|ex|former|until|anymore|any more"
    r"|avant|autrefois|à l'époque|quand j'étais|ancien|ancienne|jusqu'à"
    r"|stopped|quit|left|gave up|give up|forget|broke up|split up|moved out"
    r"|arrêté|arrête|abandonné|laissé tomber|quitté|rompu|démissionné"
    r"|thinking (?:of|about)|thought|almost|nearly|presque|failli"
    r"|planning|plan to|hope|hoping|want to|wanna|gonna|going to|will|soon"
    r"|next|turning|turn|apply|applying|interview|interviewing|offer"
    r"|pense|envie|vais|va|bientôt|prochain|prochaine|postul\w*|entretien)\b",
    re.IGNORECASE,
)
# Where one goes is not where one lives ("we visited Nantes", "a trip to Oslo").
_AWAY = re.compile(
    r"\b(?:visit\w*|trip|travel\w*|holidays?|vacation|flight|flying|flew|weather|weekend"
    r"|vacances|voyage|visité|séjour|week-end)\b",
    re.IGNORECASE,
)
# An animal one comes across is not one's pet ("j'ai vu un chien qui s'appelait Rex").
_ENCOUNTER = re.compile(
    r"\b(?:saw|seen|see|met|meet|spotted|noticed|ran into|came across|petted|pet a|walked past"
    r"|vu|croisé|rencontré|aperçu|caressé)\b",
    re.IGNORECASE,
)
_SENDING = re.compile(
    r"\b(?:send|sent|forward|share|post|upload|cc|bcc|transfer|copy|whenever|every time"
    r"|envoie|envoyer|envoyez|transf[eè]re|partage|copie)\b",
    re.IGNORECASE,
)
# Someone else's fact: a third person as subject, or a person of the
# speaker's circle named in the sentence ("my sister lives in Lyon").
_THIRD = re.compile(
    r"\b(?:he|she|they|he's|she's|they're|his|her|their|him|them|il|elle|ils|elles|leur|leurs)\b",
    re.IGNORECASE,
)
_CIRCLE_EXTRA = (
    "bf|gf|kid|kids|child|children|boss|manager|colleague|coworker|co-worker|neighbour|neighbor"
    "|roommate|flatmate|cousin|aunt|uncle|grandma|grandpa|parents|family|fiancé|fiancée|fiance"
    "|fiancee|hubby|spouse|enfants?|gamins?|collègue|voisine?|cousine?|tante|oncle|parents"
    "|famille|patron|patronne|chéri|chérie"
)
_PARTNER_WORDS = {
    "partner": "partner",
    "boyfriend": "partner",
    "girlfriend": "partner",
    "bf": "partner",
    "gf": "partner",
    "copain": "partner",
    "copine": "partner",
    "chéri": "partner",
    "chérie": "partner",
    "fiancé": "partner",
    "fiancée": "partner",
    "wife": "spouse",
    "husband": "spouse",
    "hubby": "spouse",
    "mari": "spouse",
    "femme": "spouse",
}
_PET_WORDS = sorted(
    (w for w, p in RELATION_PREDICATES.items() if p == "pet"), key=len, reverse=True
)
_PET = re.compile(rf"\b(?P<kind>{'|'.join(map(re.escape, _PET_WORDS))})s?\b", re.IGNORECASE)
_CIRCLE = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(w)
        for w in sorted(
            {w for w, p in RELATION_PREDICATES.items() if p != "pet"} | set(_PARTNER_WORDS),
            key=len,
            reverse=True,
        )
    )
    + rf"|{_CIRCLE_EXTRA})s?\b",
    re.IGNORECASE,
)
_PARTNER = re.compile(
    rf"\b(?:{'|'.join(sorted(_PARTNER_WORDS, key=len, reverse=True))})\b", re.IGNORECASE
)
# A capitalised word or run of them; a word may carry an inner capital ("McKinsey", "DeepMind").
_CAPITALISED = re.compile(r"(?<![\w'’@.-])[A-ZÀ-Ý][\w'’&-]*(?:\s+[A-ZÀ-Ý][\w'’&-]*)*")
_NOT_NAMES = re.compile(
    rf"^(?:{MONTHS}|{DAYS}|{HOLIDAYS}|lol|lmao|omg|haha|ok|okay|ugh|btw|tbh|update|edit|ps"
    r"|english|french|spanish|german|italian|français|anglais|covid|god|jesus|internet|zoom"
    r"|tv|uk|us|usa|eu|ai|it|hr|ceo|cto|phd|mba)$",
    re.IGNORECASE,
)
# Where a place said in lower case is still a place: after a word of location.
_LOCATIVE = re.compile(r"(?:\b(?:in|at|to|near|à|au|en|sur|dans|vers)\s+)$", re.IGNORECASE)
# A place one comes from, or of something else, is not where one lives.
_ORIGIN = re.compile(r"(?:\b(?:from|of|de|du|d')\s*)$", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.,:/+-])\d+(?:[.,:/]\d+)*(?![\w%€$£])")
_AGE_NEXT = re.compile(
    r"^(?:\s*(?:years?(?: old)?|yrs?(?: old)?|yo|y/?o|ans|an|today|now|this|and|et|lol|haha"
    r"|aujourd'hui|déjà|already|officially|hier|yesterday)\b|\s*[!.,;)]|\s*$|-year-old)",
    re.IGNORECASE,
)
_AGE_BEFORE = re.compile(
    r"\b(?:for|in|since|ago|depuis|pendant|dans|il y a|at|by|from|to|on|of|de|à|vers|about|around)\s+$",
    re.IGNORECASE,
)


class FactReader(SoftmaxReader):
    """The softmax over ``FAMILIES`` (``softmax``), each read at its ``THRESHOLDS``."""

    labels = FAMILIES
    thresholds = THRESHOLDS


@lru_cache(maxsize=1)
def shipped() -> FactReader | None:
    """The reader of ``fact_weights.json``, or ``None`` when it is not there."""
    return FactReader.load(WEIGHTS, "families")


def reader_for(embedder: object) -> FactReader | None:
    """The shipped reader when ``embedder`` embeds in the space it was trained in."""
    return in_space(shipped(), embedder)


def readable(sentence: str) -> bool:
    """Whether ``sentence`` may state a fact of the speaker's: a first-person statement,
    its speaker said or unsaid ("started keto last monday", ``restatements.plainly``)."""
    text = sentence.strip()
    return (
        not text.endswith("?")
        and MIN_WORDS <= len(text.split()) <= MAX_WORDS
        and _FIRST_PERSON.search(plainly(text)) is not None
    )


def guarded(family: str, sentence: str) -> bool:
    """Whether the sentence says the fact is not the speaker's now (module doc)."""
    if HEDGES.search(sentence) or _NEGATION.search(sentence) or _NOT_NOW.search(sentence):
        return True
    if family in ("email", "phone"):
        # An address or number the sentence sends something to is not the
        # speaker's own ("send my contacts to harvest@…").
        if _SENDING.search(sentence):
            return True
    elif effects(sentence) or reaches(sentence):
        # What would move data, run code or place a link is no fact of the
        # speaker's to keep, whatever it looks like (as for ``meaning`` habits).
        return True
    if family == "home_city" and _AWAY.search(sentence):
        return True
    circle = {m.group(0).lower() for m in _CIRCLE.finditer(sentence)}
    if family == "pet":
        return bool(circle) or _ENCOUNTER.search(sentence) is not None
    if family in ("partner", "relationship_status"):
        # The partner is the fact here; anyone else of the circle is not.
        partners = {w for w in circle if _PARTNER.fullmatch(w)}
        return circle != partners or (family == "partner" and len(partners) != 1)
    return _CIRCLE.search(sentence) is not None or _THIRD.search(sentence) is not None


def _names(sentence: str, places_too: bool = True) -> list[tuple[str, int, int]]:
    """Capitalised names not opening the sentence, nor a month, day or filler word.

    Without ``places_too`` a city is no name either: an employer is not a
    city, where a dog may well be called Paris.
    """
    out: list[tuple[str, int, int]] = []
    known = {} if places_too else places()
    for match in _CAPITALISED.finditer(sentence):
        words = match.group(0).split()
        start = match.start()
        if start == len(sentence) - len(sentence.lstrip()):
            # The first word is capitalised by the sentence, not by the name.
            words, start = words[1:], (sentence.find(words[1], start) if len(words) > 1 else -1)
        words = [w.strip("'’-&") for w in words]
        if not words or start < 0:
            continue
        if any(w in _STOP_NAMES or _NOT_NAMES.match(w) for w in words):
            continue
        name = " ".join(words)
        if folded(name) in known:
            continue
        out.append((name, start, start + len(name)))
    return out


def _places(sentence: str) -> list[tuple[str, int, int]]:
    """Cities of ``places.txt`` in the sentence: capitalised, or after a word of location."""
    known = places()
    out: list[tuple[str, int, int]] = []
    tokens = list(re.finditer(r"[\wÀ-ÿ'’-]+", sentence))
    i = 0
    while i < len(tokens):
        for n in (4, 3, 2, 1):
            if i + n > len(tokens):
                continue
            start, end = tokens[i].start(), tokens[i + n - 1].end()
            said = sentence[start:end]
            if folded(said) not in known:
                continue
            # The name as said, capitalised: GeoNames holds several
            # spellings of one folded name ("Berlin", "Bèrlîn").
            name = said if said[0].isupper() else said.title()
            capitalised = said[0].isupper() and start > 0
            if (capitalised or _LOCATIVE.search(sentence[:start])) and not _ORIGIN.search(
                sentence[:start]
            ):
                out.append((name, start, end))
            i += n - 1
            break
        i += 1
    return out


def _words_of(vocabulary: dict[str, str], sentence: str) -> list[tuple[str, int, int]]:
    pattern = re.compile(
        rf"\b(?:{'|'.join(re.escape(w) for w in sorted(vocabulary, key=len, reverse=True))})\b",
        re.IGNORECASE,
    )
    return [
        (vocabulary[m.group(0).lower()], m.start(), m.end()) for m in pattern.finditer(sentence)
    ]


def _age(sentence: str) -> list[tuple[int, int, int]]:
    numbers = list(_NUMBER.finditer(sentence))
    if len(numbers) != 1:
        return []
    m = numbers[0]
    if not m.group(0).isdigit() or not 1 <= int(m.group(0)) <= 110:
        return []
    if _AGE_BEFORE.search(sentence[: m.start()]) or not _AGE_NEXT.match(sentence[m.end() :]):
        return []
    return [(int(m.group(0)), m.start(), m.end())]


def _shaped(shape: str, sentence: str, digits: int = 0) -> list[tuple[str, int, int]]:
    return [
        (m.group(0), m.start(), m.end())
        for m in re.finditer(shape, sentence)
        if sum(c.isdigit() for c in m.group(0)) >= digits
    ]


def value_of(family: str, sentence: str) -> tuple[Any, int, int] | None:
    """The one value of the family's type in the sentence, and where it stands."""
    found: list[tuple[Any, int, int]]
    if family in ("pet", "partner", "employer"):
        found = list(_names(sentence, places_too=family != "employer"))
    elif family == "home_city":
        found = list(_places(sentence))
    elif family == "age":
        found = list(_age(sentence))
    elif family == "diet":
        found = list(_words_of(DIETS, sentence))
    elif family == "relationship_status":
        found = list(_words_of(RELATIONSHIP, sentence))
    elif family == "email":
        found = list(_shaped(EMAIL, sentence))
    elif family == "phone":
        found = list(_shaped(PHONE, sentence, digits=8))
    else:
        return None
    if family == "employer" and _places(sentence):
        # "I work at Airbus in Toulouse" could be either name's; not read.
        return None
    values = {str(v).lower() for v, _, _ in found}
    return found[0] if len(values) == 1 else None


def candidate(
    unread: Unread, family: str | None, read: tuple[Any, int, int] | None = None
) -> Candidate | None:
    """The fact a sentence of ``family`` states, or ``None`` (module doc).

    ``read``: the sentence's ``value_of`` for ``family`` when the caller has it already.
    """
    sentence = unread.sentence.strip()
    if family is None or family == "other" or guarded(family, sentence):
        return None
    read = read if read is not None else value_of(family, sentence)
    if read is None:
        return None
    value, start, end = read
    predicate, qualifiers = family, {}
    if family == "pet":
        kinds = {m.group("kind").lower() for m in _PET.finditer(sentence)}
        # "a beagle pup": the kind, not the breed, as the patterns keep it.
        kinds = kinds - set(BREEDS) or kinds
        if len(kinds) == 1:
            qualifiers["kind"] = next(iter(kinds))
    if family == "partner":
        word = _PARTNER.search(sentence)
        predicate = _PARTNER_WORDS[word.group(0).lower()] if word else "partner"
    volatile = family in ("home_city", "employer", "age", "relationship_status", "diet")
    return Candidate(
        predicate=predicate,
        value=value,
        qualifiers=qualifiers,
        volatility="slow" if volatile else "stable",
        confidence=CONFIDENCE,
        evidence_span=sentence[:300],
        role=unread.role,
        said_when=past_span(sentence, start, end),
    )


def read(
    reader: FactReader, unread: Sequence[Unread], vectors: np.ndarray
) -> list[Candidate | None]:
    """The fact each unread sentence states, in order (``None``: nothing)."""
    return [
        candidate(u, family) if u.fact else None
        for u, family in zip(unread, reader.classes(vectors), strict=True)
    ]
