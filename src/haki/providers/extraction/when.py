"""When a statement says it became true ("I moved to Lyon last month"), as a date (pure).

A fact holds from the moment its event happened unless the sentence says
otherwise: "last month", "two weeks ago", "yesterday", "il y a deux
semaines", "l'an dernier", "in March" all move ``valid_from`` back from the
event's ``occurred_at``. Reading the expression is `dateparser`'s work
(English and French, relative to a base date); this module only finds
where a sentence speaks of a past moment and hands that span over:

- ``past_span``: the words of a clause that name a past moment, found by
  their anchors (ago, last, yesterday, since, il y a, dernier, hier, in +
  month or year…), cheap enough to run on every candidate sentence; of
  several, the one nearest the fact's own words, and for a state whose
  clause names none, the moment of a change told beside it;
- ``resolve`` and ``said_moment`` (``when_resolve``): the span against the
  event's time, through dateparser (``when_words`` says it first the way
  dateparser reads it), with the grain of the period it names. A span
  dateparser cannot read gives ``None`` and the event's time stands.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from ...text.literals import alternation
from ...text.memo import memo
from .when_aside import names_before, opens_aside, refers_back, vague_past
from .when_resolve import Said, on_their_clock, period_start, resolve, said_moment
from .when_shift import BEFORE_LAST, DAY_OF_LAST_WEEK, OF_LAST_YEAR, WEEKENDS_AGO
from .when_words import (
    AMOUNT,
    DAYS,
    DAYS_SHORT,
    HOLIDAYS,
    MONTHS,
    MONTHS_SHORT,
    NUMBER,
    PART_EN,
    PART_FR,
    ROUGHLY,
    SEASONS,
    UNIT,
)

__all__ = [
    "UNIT",
    "Said",
    "dates_sentence",
    "moment_of_value",
    "names_past",
    "on_their_clock",
    "past_span",
    "past_span_all",
    "period_start",
    "resolve",
    "said_moment",
]

_NUMBER = NUMBER
_DAYS_EN = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_DAYS_FR = "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
_ANY_MONTH = rf"(?:{MONTHS}|{MONTHS_SHORT})"
_AMOUNT_PLAIN = rf"{NUMBER} {UNIT}"
# Words that open the period a state holds from ("since March", "as of
# 2024", "dès janvier", "à partir de mars"); not "from", which also names
# people ("a call from June").
_FROM = r"(?:since|depuis|as of|starting|dès|à partir de|a partir de)"
_PAST = re.compile(
    rf"\b{_AMOUNT_PLAIN} (?:ago|back)\b"
    rf"|\b(?:il y a|il ya|ça fait|ca fait|cela fait) {AMOUNT}|(?<!\bil )\b(?:y a|ya|voilà|voila) {AMOUNT}"
    r"|\b(?:the day before yesterday|yesterday|yday|avant-hier|hier|this morning|earlier today|ce matin"
    r"|today|aujourd'hui|aujourd’hui)\b"
    # Not "the last week of January", a part of January (``_SHIFTED``).
    rf"|\b(?:last|this past) (?:week|month|year|night|weekend|wk|yr|{DAYS}|{DAYS_SHORT}|{_ANY_MONTH})(?!\w)(?! of\b)"
    r"|\bthe (?:year|month|week) before last\b"
    rf"|\b(?:(?:la|le|l'|l’)\s*)?(?:semaine|mois|année|an|week-end|{DAYS})"
    r" (?:derni(?:er|ère)|passée?|précédente?)\b"
    rf"|\b(?:(?:en|depuis) )?(?:{MONTHS}) derni(?:er|ère)\b"
    # A day of the month, tried before its month alone ("since May 3" is the 3rd): "on the 3rd", "on November 3rd", "le 1er mars".
    rf"|\b(?:on|since) (?:the )?\d{{1,2}}(?:st|nd|rd|th)(?: of {_ANY_MONTH})?(?!\w)"
    rf"|\b(?:on|since) {_ANY_MONTH} \d{{1,2}}(?:st|nd|rd|th)?\b"
    rf"|\b(?:on|since) \d{{1,2}} (?:{MONTHS})\b"
    rf"|\b(?:le|depuis le) (?:1er|\d{{1,2}}) (?:{MONTHS})\b"
    rf"|\b(?:(?:back )?in|en|{_FROM}|this) (?:(?:early|late|mid|début|fin) )?{_ANY_MONTH}(?: \d{{4}})?(?!\w)"
    rf"|\b(?:since|depuis) (?:{DAYS})\b"
    rf"|\b(?:(?:early|late|mid|début|fin|courant) |mid-|mi-)(?:{MONTHS})\b"
    rf"|\bdepuis {AMOUNT}|\bfor the (?:past|last) {AMOUNT}"
    r"|\b(?:il y a|ça fait|cela fait|depuis) quinze jours\b|\ba fortnight ago\b|\bthe week before last\b"
    r"|\b(?:over|during) the weekend\b|\bthis weekend\b|\b(?:le )?weekend dernier\b|\bce week-?end\b(?! prochain)"
    rf"|\b(?:earlier )?this (?:week|month|year)\b|\b(?:(?:at|in|since) )?the (?:start|beginning) of (?:the|this) (?:week|month|year)\b"
    r"|\b(?:cette semaine|ce mois-ci|cette année|(?:depuis )?(?:au |le )?début (?:du mois|de la semaine|de l'année)"
    r"|en début de (?:mois|semaine)|en début d'année)\b"
    rf"|\b(?:(?:since |depuis )?(?:back )?in|en|{_FROM}) (?:(?:early|late|mid|début|fin) )?(?:19|20)\d\d\b"
    # About as much as an amount: "il y a une quinzaine", "une dizaine d'années".
    rf"|\b(?:il y a|ça fait|ca fait|cela fait|depuis) (?:une )?{ROUGHLY}",
    re.IGNORECASE,
)
# Composed forms, apart from ``_PAST`` so that only a sentence holding one
# of their words (``_COMPOSED_ANCHORED``) is scanned for them: an amount
# said roughly or with a half ("about three months ago", "a year and a half
# ago"), a part of a period ("at the end of last month", "fin du mois
# dernier", "early last year", "early 2024").
_COMPOSED = re.compile(
    rf"\b{AMOUNT} (?:ago|back)\b"
    r"|\bhalf an? (?:year|month) (?:ago|back)\b"
    rf"|\b(?:{PART_EN}|(?:early|late|mid)[- ])(?:last|this past) (?:week|month|year|weekend|wk|yr"
    rf"|{DAYS}|{_ANY_MONTH})(?!\w)"
    rf"|\b{PART_FR}(?:semaine|mois|année|an) (?:derni(?:er|ère)|passée?|précédente?)\b"
    r"|\b(?:(?:in )?(?:early|late|mid)[- ]|(?:début|fin|mi-)\s?)(?:19|20)\d\d\b",
    re.IGNORECASE,
)
# Every composed form holds one of these words (one tree of them, ``literals``:
# the flat alternation tried every word at every position).
_COMPOSED_WORDS = (
    "about", "around", "roughly", "almost", "nearly", "like", "over", "more than", "a good",
    "environ", "peu près", "presque", "près de", "quasiment", "genre", "plus de", "half", "demi",
    "decade", "decades", "décennie", "décennies", "début", "fin", "milieu", "courant", "start",
    "beginning", "end", "middle", "early", "late", "mid", "or so", "or two", "or three",
    "ou deux", "ou trois",
)  # fmt: skip
_COMPOSED_ANCHORED = re.compile(rf"\b(?:{alternation(_COMPOSED_WORDS)})\b")
# Moments composed of a period and a step or a frame (``when_shift``,
# ``when_resolve``): a named period one further back ("the summer before
# last", "la semaine avant-dernière"), weekends counted ("two weekends ago"),
# a month of last year ("in March last year", "en mars l'an dernier"), a
# part of a month ("at the start of April"), an amount counted to the day
# ("a week ago today"). Scanned only when one of their words is there.
_SHIFTED = re.compile(
    rf"{BEFORE_LAST}|{WEEKENDS_AGO}"
    rf"|{OF_LAST_YEAR}|{DAY_OF_LAST_WEEK}"
    rf"|\b(?:(?:at|in|towards|around|since) )?the (?:start|beginning|end|middle) of {_ANY_MONTH}(?!\w)"
    rf"|\b(?:(?:in|during) )?the (?:first|second|third|fourth|last) (?:week|weekend|days?) of {_ANY_MONTH}(?!\w)"
    rf"|\b{_AMOUNT_PLAIN} (?:ago|back) today\b",
    re.IGNORECASE,
)
_SHIFTED_ANCHORED = re.compile(
    r"before last|avant[- ]derni|week-?ends (?:ago|back)|il y a \w+ week-?ends|last year|l['’]an"
    r"|the (?:start|beginning|end|middle) of|(?:ago|back) today|week of |weekend of |days of"
    r"|last week|semaine derni|semaine pass"
)


def _moments(sentence: str, start: int = 0, end: int | None = None) -> list[re.Match[str]]:
    """Every past moment named in ``sentence[start:end]``, each form scanned only when anchored."""
    end = len(sentence) if end is None else end
    lowered = sentence[start:end].lower()
    found: list[re.Match[str]] = []
    if _ANCHORED.search(lowered) is not None:
        found += _PAST.finditer(sentence, start, end)
        if _COMPOSED_ANCHORED.search(lowered) is not None:
            found += _COMPOSED.finditer(sentence, start, end)
        if _SHIFTED_ANCHORED.search(lowered) is not None:
            found += _SHIFTED.finditer(sentence, start, end)
    if _CALENDAR_ANCHORED.search(lowered) is not None:
        found += _CALENDAR.finditer(sentence, start, end)
    return found


# Days of the calendar by name, apart from ``_PAST`` so that a sentence
# naming none is never scanned for them (the weekday alternative, tried at
# every position, would double the scan).
_CALENDAR = re.compile(
    # A season said as past or current: "last summer", "this winter",
    # "l'été dernier", "cet hiver", "au printemps dernier".
    rf"\b(?:last|this|past) {SEASONS}\b"
    rf"|\b(?:(?:à |a |au |en |depuis )?(?:l'|l’|le |la )?)?{SEASONS} (?:derni(?:er|ère)|pass[ée]e?)\b"
    # "over the summer": told as a story, the one gone by.
    rf"|\b(?:over|back in) the {SEASONS}\b"
    rf"|\b(?:cet|cette|ce) {SEASONS}\b"
    # "since the summer", "depuis l'été": the latest one begun; one said
    # with its year ("since spring 2024") is read whole below.
    rf"|\b(?:since|depuis) (?:the |l'|l’|le )?{SEASONS}\b(?! (?:prochain|next|(?:of )?(?:19|20)\d\d\b))"
    # A holiday: "last Christmas", "at Easter", "à Pâques", "depuis la rentrée".
    rf"|\b(?:(?:last|this past|at|on|over|since|à|a|depuis|pour|dès) )(?:the )?{HOLIDAYS}(?!\w)"
    # A season with its year: "in the summer of 2024", "à l'automne 2023".
    rf"|\b(?:(?:in|during|over|since) (?:the )?|(?:à |a |au |en |depuis )?(?:l'|l’|le |la )?)?"
    rf"{SEASONS}(?: of)? (?:19|20)\d\d\b"
    # A weekday of the week gone by: "on Tuesday"; French says it bare
    # ("vendredi j'ai emménagé"), but "le lundi" and "lundi prochain" are
    # habits and plans.
    # "on saturday mornings" is a habit, not a day gone by.
    rf"|\bon (?:{_DAYS_EN}|{DAYS_SHORT})(?!\w)(?! (?:mornings|afternoons|evenings|nights)\b)"
    # Said bare in a chat ("moved Monday", "Saturday night"), but not a
    # habit or a plan ("every Monday", "next Friday", "until Sunday").
    rf"|(?<!\bevery )(?<!\bnext )(?<!\bthis )(?<!\bcoming )(?<!\buntil )(?<!\btill )(?<!\bby )"
    rf"(?<!\bbefore )(?<!\bafter )(?<!\bon )\b(?:{_DAYS_EN})\b(?! next\b)"
    rf"|(?<!\ble )(?<!\bles )(?<!\bdu )(?<!\bau )\b(?:{_DAYS_FR})\b(?! prochain| soir prochain)",
    re.IGNORECASE,
)
# "for three years now": a span of time up to the turn, when the verb says
# the state still holds (a perfect: "I've lived", "been married"); "I'm off
# to Spain for two weeks" states no start.
_LASTING = re.compile(rf"\bfor {AMOUNT}(?: now)?\b", re.IGNORECASE)
_PERFECT = re.compile(r"(?:'ve|’ve|\bhave|\bhas|\bbeen)\b", re.IGNORECASE)
_CLAUSE = re.compile(
    r"[,;:]\s|\s[-–—]\s|\b(?:but|and then|because|mais|parce que)\s"
    r"|\b(?:and|et) (?=(?:I|we|je|j'|j’|on|nous)\b)",
    re.I,
)
_CONSEQUENCE = re.compile(r"(?:so|donc|du coup|which means|alors)\s", re.IGNORECASE)


_SINCE = re.compile(r"(?:since|depuis)\s+", re.IGNORECASE)


# Verbs of a change that begins a state ("joined", "switched", "arrêté", "got married").
_CHANGE = re.compile(
    r"\b(?:start(?:ed)?|began|joined|switched|moved|relocated|quit|stopped|became|enrolled|converted"
    r"|took up|went|commencé|arrêté|rejoint|intégré|passée?|devenue?|emménagé|déménagé|quitté|lancée?"
    # A tie begun or ended: "My girlfriend Ana and I got together last summer".
    r"|got (?:together|married|engaged|divorced|hitched)|tied the knot|started dating|broke up|split up"
    # A state found out holds, as far as the speaker knows, from the finding:
    # "my allergist confirmed it on Wednesday: I'm allergic to shellfish".
    r"|found out|learn(?:ed|t)|discovered|diagnosed|confirmed|tested positive|realized|realised"
    r"|appris|découvert|diagnostiquée?|confirmé|testée? positi(?:f|ve)|rendu compte"
    r"|mariée?s|fiancée?s|pacsée?s|séparée?s)\b",
    re.IGNORECASE,
)


def _moment_in(sentence: str, start: int, end: int) -> re.Match[str] | None:
    """The first past moment named in ``sentence[start:end]``."""
    return min(_moments(sentence, start, end), key=_first, default=None)


_TIME_CLAUSE_REST = re.compile(
    r"^[\s,;:–—-]*(?:(?:since|from|as of|depuis|à partir de|dès)\s+)?$|^[\s.!]*$", re.IGNORECASE
)


def _time_alone(sentence: str, start: int, end: int) -> re.Match[str] | None:
    """The moment of ``sentence[start:end]`` when that clause says nothing else."""
    found = _moment_in(sentence, start, end)
    if found is None:
        return None
    head, tail = sentence[start : found.start()], sentence[found.end() : end]
    return found if _TIME_CLAUSE_REST.match(head) and _TIME_CLAUSE_REST.match(tail) else None


def _first(match: re.Match[str]) -> tuple[int, int]:
    """Order of moments: the earliest, then the longest ("about three months ago" over its tail)."""
    return match.start(), -match.end()


def _distance(match: re.Match[str], start: int, end: int) -> int:
    """How many characters lie between ``match`` and ``[start, end)``."""
    return max(start - match.end(), match.start() - end, 0)


def _clause_before(sentence: str, opening: int) -> int:
    """Where the clause before the one opening at ``opening`` starts."""
    return max((m.end() for m in _CLAUSE.finditer(sentence, 0, max(opening - 2, 0))), default=0)


def past_span(sentence: str, start: int = 0, end: int | None = None) -> str | None:
    """The words naming a past moment in the clause around ``[start, end)``, if any."""
    end = len(sentence) if end is None else end
    opening = max((m.end() for m in _CLAUSE.finditer(sentence, 0, start)), default=0)
    closing = min((m.start() for m in _CLAUSE.finditer(sentence, end)), default=len(sentence))
    # The moment nearest the statement: "I moved to Austin last year and
    # started at Dell two weeks ago" dates each fact by its own words.
    found = _moments(sentence, opening, closing)
    match = min(found, key=lambda m: (_distance(m, start, end), *_first(m)), default=None)
    if match is None:
        # A duration counts back from the turn only when no moment is named
        # ("lived in Berlin for two weeks in 2019" began in 2019).
        match = _lasting(sentence, opening, closing)
    if match is None and names_before(sentence, opening):
        # "got a rabbit on tuesday, her name is Toffee": the name holds
        # from the moment the clause before brought its bearer in.
        match = _moment_in(sentence, _clause_before(sentence, opening), opening)
    if match is None and vague_past(sentence, opening, closing):
        # "I switched a while back — well, in june": the aside says when.
        aside = _moment_in(sentence, closing, len(sentence))
        match = aside if aside and opens_aside(sentence, closing, aside.start()) else None
    if match is None:
        # "yesturday", "lst month", "le mois dernié": the clause of a fact
        # that names no moment is read once more with its near-misspelt
        # time words set right (only here, per fact, never per sentence).
        fixed = _respelled(sentence[opening:closing])
        match = (
            min(_moments(fixed), key=_first, default=None)
            if fixed != sentence[opening:closing]
            else None
        )
    if match is None and opening > 0:
        # "I broke up with him last month, so I'm single", "j'ai arrêté la
        # viande le mois dernier, je suis végétarienne maintenant": a state
        # that follows from a change holds from that change's moment.
        before = _clause_before(sentence, opening)
        changes = list(_CHANGE.finditer(sentence, before, opening))
        if changes:
            # The change nearest the state is the one it follows from ("been
            # in Austin since 2022 and switched careers last month, I'm a
            # designer now": last month's), dated by the moment after its
            # verb, else by the nearest before it.
            last = changes[-1].end()
            moments = _moments(sentence, before, opening)
            after_verb = [m for m in moments if m.start() >= last]
            match = (
                min(after_verb, key=_first)
                if after_verb
                else max(moments, key=lambda m: (m.end(), -m.start()), default=None)
            )
        elif _CONSEQUENCE.match(sentence, opening):
            match = _moment_in(sentence, before, opening)
    if match is None and closing < len(sentence):
        # "I work at Deloitte now, joined in April": the change told after.
        after = min(
            (m.start() for m in _CLAUSE.finditer(sentence, closing + 1)), default=len(sentence)
        )
        if _CHANGE.search(sentence, closing, after):
            match = _moment_in(sentence, closing, after)
        elif refers_back(sentence, closing):
            # "I work at Google, been there for three years": the tenure of
            # the statement before, said of it.
            match = _moment_in(sentence, closing, after) or _lasting(sentence, closing, after)
        else:
            # "I'm working at Netflix now, since last month", "je suis à
            # Lyon, depuis janvier": a clause that is only a time dates the
            # statement before it.
            match = _time_alone(sentence, closing, after)
    if match is None and opening > 0:
        # "Yesterday, I adopted a cat": an opening adverb dates the sentence.
        # "Depuis la semaine dernière, je suis …" too: the moment after "since".
        text = sentence.lstrip()
        skip = _SINCE.match(text)
        at = skip.end() if skip else 0
        lead = min((m for m in _moments(text, at) if m.start() == at), key=_first, default=None)
        rest = text[lead.end() :] if lead else ""
        match = lead if lead and rest.lstrip().startswith(",") else None
    return match.group(0) if match else None


def moment_of_value(sentence: str, lowered: str, value: str) -> str | None:
    """The past moment of the clause where ``value`` stands in ``sentence`` (``lowered``), if any.

    A reading cuts every moment out of the sentence; a fact found in it
    takes the moment of its own words ("On a emménagé à Lille en janvier et
    j'ai commencé chez Auchan le mois dernier": Auchan is last month's).
    A value named twice has no one clause: the reading's own moment says.
    A value read once a moment was cut out of its middle ("learning italian
    3 weeks ago bc why not" read as "italian bc why not") stands where its
    longest leading words stand, when they stand there only. Words are
    found whole: "art" is not in "started".
    """
    words = value.lower().split()
    for n in range(len(words), 0, -1):
        lead = " ".join(words[:n])
        if len(lead) < 3:
            break
        found = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(lead)}(?!\w)", lowered)]
        if len(found) > 1:
            return None
        if found:
            return past_span(sentence, found[0], found[0] + len(lead))
    return None


# The words of ``_PAST`` that people misspell; a word within a ratio of
# 0.8 of one of them (difflib) is read as it.
_TIME_WORDS = (
    "yesterday", "last", "month", "months", "week", "weeks", "year", "years", "weekend",
    "dernier", "dernière", "semaine", "semaines", "année", "années",
)  # fmt: skip
_WORD = re.compile(r"[^\W\d_]{3,}")


def _respelled(text: str) -> str:
    """``text`` with words close to a time word (``_TIME_WORDS``) spelt as it."""

    def fix(word: re.Match[str]) -> str:
        return _time_word(word.group(0).lower()) or word.group(0)

    return _WORD.sub(fix, text)


# Real words within that ratio of a time word ("at least monthly", "during
# the weekends"): a word spelt right is never set right.
_NEAR_WORDS = frozenset(
    ("least", "lastly", "lasts", "lasted", "lasting", "weekly", "weekday", "weekdays", "weekends",
     "monthly", "mouths", "yearly", "yearn", "yearns", "dearly", "semainier")
)  # fmt: skip


@lru_cache(maxsize=8192)
def _time_word(low: str) -> str | None:
    """The time word ``low`` misspells, if any (cached: the same words recur turn after turn)."""
    if low in _TIME_WORDS or low in _NEAR_WORDS or low.endswith("ly"):
        return None
    close = difflib.get_close_matches(low, _TIME_WORDS, n=1, cutoff=0.8)
    return close[0] if close else None


def _lasting(sentence: str, start: int = 0, end: int | None = None) -> re.Match[str] | None:
    """ "for three years now" in a sentence whose verb is a perfect, else ``None``."""
    if "for " not in sentence.lower() or not _PERFECT.search(sentence):
        return None
    return _LASTING.search(sentence, start, len(sentence) if end is None else end)


def dates_sentence(sentence: str, span: str) -> bool:
    """Does ``span`` date the whole sentence: it leads it, or the sentence is one clause?"""
    return sentence.lstrip().lower().startswith(span.lower()) or _CLAUSE.search(sentence) is None


# Every match of ``_PAST`` holds one of these words, a month or a digit:
# a sentence with none is not scanned (``past_span_all`` runs on every
# sentence the rules read, and the scan costs ten times this test).
_ANCHORS = (
    "ago", "back", "il y a", "fait", "yesterday", "hier", "today", "last", "derni", "pass", "past",
    "since", "depuis", "this", "cette", "ce mois", "matin", "morning", "weekend", "week-end",
    "fortnight", "quinze", "début", "start", "beginning", "il ya", "fin ", "milieu", "courant",
    "end of", "middle of", "aujourd", "before last", "avant-derni", "avant derni", "y a", "ya ", "voilà", "voila", "yday",
    *MONTHS.lower().split("|"),
)  # fmt: skip
# Every match of ``_CALENDAR`` holds one of these.
_CALENDAR_ANCHORS = (
    "summer", "winter", "spring", "fall", "autumn", "été", "hiver", "printemps", "automne",
    "christmas", "xmas", "easter", "new year", "noël", "noel", "pâques", "paques", "nouvel an",
    "jour de l'an", "rentrée", "valentin", "halloween", "boxing day", "toussaint", "thanksgiving",
    *DAYS.lower().split("|"),
)  # fmt: skip


# One scan for all anchors (a digit included) rather than one test per word.
_ANCHORED = re.compile(
    alternation(_ANCHORS)
    + r"|\d|\b(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|janv|févr|fevr|avr|juil|déc)\b"
)
_CALENDAR_ANCHORED = re.compile(alternation(_CALENDAR_ANCHORS))


_TODAY = re.compile(r"today|aujourd['’]hui", re.IGNORECASE)
_NOW_STATE = re.compile(
    r"\b(?:I'm|I am|I’m|we're|we are|je suis|on est|nous sommes|je travaille|je bosse)\b",
    re.IGNORECASE,
)


# A sentence is asked for its moments twice or more while it is read (its
# readings, then whether it names a past at all); the answer depends on the
# text alone, so it is kept, for sentences of chat length only.
_CACHED_UP_TO = 600


def past_span_all(sentence: str) -> list[tuple[int, int]]:
    """Where the sentence names past moments, in order (``readings`` cuts them out)."""
    if len(sentence) > _CACHED_UP_TO:
        return list(_past_spans(sentence))
    return list(_past_spans_cached(sentence))


def _past_spans(sentence: str) -> tuple[tuple[int, int], ...]:
    spans = [m.span() for m in _moments(sentence)]
    if spans and _NOW_STATE.search(sentence):
        # "I'm working at Starbucks today": a state said of today is one of
        # the moment, and stays with its "today" (the rules read it so).
        spans = [(a, b) for a, b in spans if not _TODAY.fullmatch(sentence, a, b)]
    lasting = _lasting(sentence)
    if lasting is not None:
        spans.append(lasting.span())
    kept: list[tuple[int, int]] = []
    for start, end in sorted(spans, key=lambda span: (span[0], -span[1])):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return tuple(kept)


_past_spans_cached = memo(_past_spans)


def names_past(sentence: str) -> bool:
    """Does ``sentence`` name a past moment?"""
    return bool(past_span_all(sentence))
