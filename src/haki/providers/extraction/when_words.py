"""How people say a past moment, and the same moment as dateparser reads it (pure).

``when`` finds the words of a sentence that name a past moment; this module
holds the words it builds them from (months, weekdays, amounts of time,
seasons, holidays) and ``said_as``, which says a found span the way
dateparser reads it. The forms are composed, not listed phrase by phrase:
an amount is a number (in digits or words, EN or FR, maybe approximate:
"about", "environ", "presque") and a unit (maybe "and a half", "et demi");
a period may be named by a part of it ("at the end of last month", "fin
du mois dernier", "early 2024"), which keeps the period's own grain.
"""

from __future__ import annotations

import re

from ...types import Grain

MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre"
    "|décembre|decembre"
)
# Months as typed in a hurry ("in Sept", "depuis janv."): only after a word
# that introduces a time ("in", "since", "last", "en", "depuis", "on").
MONTHS_SHORT = r"(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|janv|févr|fevr|avr|juil|déc)\b\.?"
DAYS_SHORT = r"(?:Mon|Tues?|Wed|Thu|Thurs?|Fri|Sat|Sun)\b\.?"
DAYS = (
    "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
    "|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
)
_NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "eighteen": 18, "twenty": 20,
    "thirty": 30, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "quinze": 15, "dix-huit": 18, "vingt": 20,
    "trente": 30,
}  # fmt: skip
NUMBER = (
    r"(?:\d+|a|an|one|a couple(?: of)?|couple(?: of)?|a few|few|several|un|une|quelques|"
    + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
    + ")"
)
# "about three months", "il y a environ deux ans": the amount is all the words tell.
_APPROX = (
    r"(?:about|around|roughly|almost|nearly|like|just over|over|more than|a good|environ|à peu près"
    r"|presque|près de|quasiment|genre|plus de|un peu plus de)"
)
UNIT = (
    r"(?:days?|nights?|weeks?|wks?|months?|mos|mths?|years?|yrs?|decades?|jours?|semaines?|mois|ans?"
    r"|années?|décennies?)"
)
# An amount of time: "two weeks", "about 3 months", "a year and a half",
# "deux ans et demi", "a month or so", "a year or two" (the nearer bound).
_OR_SO = r"(?: or so| or two| or three| ou deux| ou trois)"
AMOUNT = rf"(?:{_APPROX} )?{NUMBER}(?: and a half)? {UNIT}(?: and a half| et demie?)?{_OR_SO}?"
# French amounts said as about so many: "une quinzaine (de jours)", "une
# dizaine d'années"; ``_ROUGH_COUNT`` says how many.
ROUGHLY = (
    r"(?:(?:dizaine|douzaine|quinzaine|vingtaine|trentaine) (?:de |d'|d’)\s?"
    r"(?:jours|semaines|mois|ans|années)|quinzaine)\b"
)
_ROUGH_COUNT = {"dizaine": 10, "douzaine": 12, "quinzaine": 15, "vingtaine": 20, "trentaine": 30}
# Named periods of the calendar: seasons and the holidays people date by.
SEASONS = r"(?:summer|winter|spring|fall|autumn|été|hiver|printemps|automne)"
HOLIDAYS = (
    r"(?:Christmas(?: Eve| Day)?|Xmas(?: Eve)?|Easter|New Year(?:'s|’s|s)?(?: Day| Eve)?|Noël|Noel"
    r"|Pâques|Paques|(?:le )?(?:nouvel an|jour de l'an)|(?:la )?rentrée|Valentine(?:'s|’s|s)?(?: Day)?"
    r"|(?:la )?Saint-Valentin|Halloween|Boxing Day|(?:la )?Toussaint|Thanksgiving)"
)
# A part of a period that keeps the period's grain: "at the end of last
# month" is last month, "fin du mois dernier" le mois dernier.
PART_EN = r"(?:(?:at|in|towards|around|since) )?the (?:start|beginning|end|middle) of "
PART_FR = r"(?:(?:au|à la|en|vers la|depuis le|depuis la) )?(?:début|fin|milieu|courant) (?:du |de la |de l'|de l’|d'|d’)"

_UNITS = {"days": "days", "weeks": "weeks", "months": "months", "years": "years"}
_UNIT_OF = re.compile(
    r"^(?:(?P<day>day|night|jour)|(?P<week>week|wk|semaine)|(?P<month>month|mo|mth|mois)"
    r"|(?P<year>year|yr|an|année)|(?P<decade>decade|décennie))",
    re.IGNORECASE,
)
_HALF = re.compile(
    rf"\b(?P<n>{NUMBER})(?P<and> and a half)? (?P<unit>{UNIT})(?P<half> and a half| et demie?)?",
    re.IGNORECASE,
)


def count_of(word: str) -> int | None:
    """The number a word of ``NUMBER`` says ("a couple" → 2, "few" → 3, "trois" → 3)."""
    low = word.lower()
    if low.isdigit():
        return int(low)
    if low in ("a", "an", "one", "un", "une"):
        return 1
    if low in ("a couple", "a couple of", "couple", "couple of"):
        return 2
    if low in ("a few", "few", "several", "quelques"):
        return 3
    return _NUMBER_WORDS.get(low)


def _amount(match: re.Match[str]) -> str:
    """An amount in digits and a unit dateparser reads: "a year and a half" → "18 months"."""
    n = count_of(match.group("n"))
    unit = _UNIT_OF.match(match.group("unit"))
    if n is None or unit is None:
        return match.group(0)
    kind = unit.lastgroup or "day"
    french = match.group("unit").lower().startswith(("jour", "semaine", "mois", "an", "décenn"))
    if kind == "decade":
        n, kind = n * 10, "year"
    if match.group("and") or match.group("half"):
        if kind == "year":
            n, kind = n * 12 + 6, "month"
        elif kind == "month":
            n, kind = n * 30 + 15, "day"
        elif kind == "week":
            n, kind = n * 7 + 3, "day"
    if french:
        words = {"day": "jour", "week": "semaine", "month": "mois", "year": "an"}
        return f"{n} {words[kind]}" + ("s" if n > 1 and kind != "month" else "")
    return f"{n} {kind}" + ("s" if n > 1 else "")


_ROUGH = re.compile(
    r"^(?P<lead>il y a|ça fait|ca fait|cela fait|depuis) (?:une )?(?P<n>dizaine|douzaine|quinzaine|vingtaine"
    r"|trentaine)(?: (?:de |d'|d’)\s?(?P<unit>jours|semaines|mois|ans|années))?$",
    re.IGNORECASE,
)


def _rough(match: re.Match[str]) -> str:
    """ "il y a une quinzaine de jours" → "il y a 15 jours"; "une quinzaine" alone is of days."""
    unit = (match.group("unit") or "jours").lower().replace("années", "ans")
    return f"il y a {_ROUGH_COUNT[match.group('n').lower()]} {unit}"


# Ways of saying a past moment that dateparser does not read, said the way it does.
SAID_AS: tuple[tuple[re.Pattern[str], str], ...] = (
    # "a week ago today" is the day a week back, not today.
    (re.compile(r"\b(ago|back) today\b", re.I), r"\1"),
    # "at the start of April", "the last week of March": the month.
    (re.compile(PART_EN + rf"(?=(?:{MONTHS}|{MONTHS_SHORT}))", re.I), ""),
    (
        re.compile(
            r"^(?:(?:in|during) )?the (?:first|second|third|fourth|last) (?:week|weekend|days?) of ",
            re.I,
        ),
        "",
    ),
    (re.compile(rf"\b{_APPROX} (?={NUMBER}\b)", re.I), ""),
    (re.compile(_OR_SO + r"(?= ago| back)", re.I), ""),
    (re.compile(r"\bhalf a year\b", re.I), "6 months"),
    (re.compile(r"\bhalf a month\b", re.I), "15 days"),
    # The current week, month or year: its granularity is all the words
    # tell, and the day of the turn falls in it.
    (
        re.compile(
            r"^(?:(?:earlier )?this (?:week|month|year)|(?:(?:at|in|since) )?the (?:start|beginning) of"
            r" (?:the|this) (?:week|month|year)|cette semaine|ce mois-ci|cette année|plus tôt (?:cette"
            r" semaine|ce mois-ci|cette année)|(?:depuis )?(?:au |le )?début (?:du mois|de la semaine|de"
            r" l'année)|en début (?:de mois|de semaine|d'année))$",
            re.I,
        ),
        "today",
    ),
    (re.compile(r"\bl[’']an (?:dernier|passé)\b", re.I), "l'année dernière"),
    (re.compile(r"\b(semaine|année)\s+(?:pass[ée]e?|précédente)\b", re.I), r"\1 dernière"),
    (re.compile(r"\b(?:le )?mois (?:pass[ée]|précédent)\b", re.I), "le mois dernier"),
    # A part of a period is the period: "fin du mois dernier", "au début de l'année dernière".
    (
        re.compile(
            r"(?:(?:au|à la|en|vers la|depuis le|depuis la) )?(?:début|fin|milieu|courant) d(?:u |e la |e l'|e l’|'|’)(?=mois|semaine|année|an\b)",
            re.I,
        ),
        "",
    ),
    (re.compile(r"^mois dernier$", re.I), "le mois dernier"),
    (re.compile(r"^semaine dernière$", re.I), "la semaine dernière"),
    (re.compile(r"^année dernière$", re.I), "l'année dernière"),
    (re.compile(PART_EN + r"(?=last\b|this\b)", re.I), ""),
    (re.compile(r"\b(?:early|late|mid)[- ](?=last\b|this\b)", re.I), ""),
    # A weekday gone by is the latest one: "vendredi passé", "this past Monday".
    (re.compile(rf"\b({DAYS}) (?:derni|pass|précédent)\w*", re.I), r"\1"),
    (re.compile(rf"\bthis past ({DAYS})\b", re.I), r"last \1"),
    # "last September", "septembre dernier": the latest one, as a bare month.
    (
        re.compile(
            rf"\b(?:last|this) ({MONTHS}|{MONTHS_SHORT})(?!\w)|\b({MONTHS}) derni(?:er|ère)\b", re.I
        ),
        r"\1\2",
    ),
    (re.compile(r"\blast (?:yr|year)\b", re.I), "1 year ago"),
    (re.compile(r"\blast wk\b", re.I), "1 week ago"),
    # A weekday with its part of the day: "Saturday night" is Saturday.
    (re.compile(r"\b(\w+day) (?:night|morning|afternoon|evening)\b", re.I), r"\1"),
    (
        re.compile(r"\b(?:this morning|earlier today|ce matin|today|aujourd['’]hui)\b", re.I),
        "today",
    ),
    (
        re.compile(r"\b(?:il y a|ça fait|cela fait|depuis) quinze jours\b", re.I),
        "il y a 2 semaines",
    ),
    (re.compile(r"\ba fortnight ago\b", re.I), "2 weeks ago"),
    (re.compile(r"\b(?:mi|mid)-", re.I), ""),
    (re.compile(r"\b(?:a )?couple(?: of)?\b", re.I), "2"),
    (re.compile(r"\b(?:a few|few|several)\b", re.I), "3"),
    (re.compile(r"\bquelques\b", re.I), "3"),
    (_HALF, ""),  # replaced by ``_amount``
    (_ROUGH, ""),  # replaced by ``_rough``
    (re.compile(rf"^depuis ({NUMBER} {UNIT})$", re.I), r"il y a \1"),
    (re.compile(r"^for the (?:past|last) (.+)$", re.I), r"\1 ago"),
    (re.compile(r"\b(\w+ \w+) back\b", re.I), r"\1 ago"),
    (re.compile(r"\b(?:ça|ca|cela) fait\b|\bil ya\b|^(?:y a|ya|voilà|voila)\b", re.I), "il y a"),
    (re.compile(r"\byday\b", re.I), "yesterday"),
    (re.compile(r"\byday\b", re.I), "yesterday"),
    (re.compile(rf"^for ({NUMBER} {UNIT})(?: now)?$", re.I), r"\1 ago"),
    (
        re.compile(
            r"^(?:since |depuis )?(?:since|depuis|back in|in|en|on|as of|starting|dès|à partir de"
            r"|a partir de)\s+",
            re.I,
        ),
        "",
    ),
    (re.compile(r"^(?:the|le)\s+(?=\d)", re.I), ""),
    (re.compile(r"\b(?:early|late|mid|début|fin|courant)\s+", re.I), ""),
    # "3rd of November", "November 3rd", "1er mars": the ordinal's suffix off.
    (re.compile(r"\b(\d{1,2})(?:st|nd|rd|th|er)\b(?: of)?", re.I), r"\1"),
)


def said_as(span: str) -> str:
    """``span`` said the way dateparser reads it."""
    text = span
    for pattern, repl in SAID_AS:
        if pattern is _HALF:
            text = pattern.sub(_amount, text)
        elif pattern is _ROUGH:
            text = pattern.sub(_rough, text)
        else:
            text = pattern.sub(repl, text)
    return text.strip()


# The grain of a moment: how finely its words place it. "last month" names a
# month, "two weeks ago" a week, "yesterday" or "on the 3rd" a day; a season
# or a weekend names a span that is none of these, and says no grain.
_UNIT_GRAIN = re.compile(
    r"\b(?:(?P<day>days?|nights?|nuits?|jours?|yesterday|hier|avant-hier|today|aujourd['’]hui|matin|morning)"
    r"|(?P<week>weeks?|wks?|semaines?|fortnight)|(?P<month>months?|mos|mths?|mois)"
    r"|(?P<year>years?|yrs?|ans?|années?|decades?|décennies?))\b",
    re.IGNORECASE,
)
_GRAIN_OF: dict[str, Grain] = {"day": "day", "week": "week", "month": "month", "year": "year"}
_NAMED_SPAN = re.compile(rf"\bweek-?ends?\b|{SEASONS}", re.IGNORECASE)
_DAY_NAMED = re.compile(
    rf"\b(?:{DAYS}|{DAYS_SHORT}|{HOLIDAYS})|\b\d{{1,2}}(?:st|nd|rd|th|er)?\b(?!\s*(?:{UNIT}))"
    r"(?<!\b(?:19|20)\d\d)",
    re.IGNORECASE,
)
_HOLIDAY_NAMED = re.compile(HOLIDAYS, re.IGNORECASE)
_WEEKDAY_NAMED = re.compile(rf"\b(?:{DAYS})\b", re.IGNORECASE)
_MONTH_NAMED = re.compile(rf"\b(?:{MONTHS}|{MONTHS_SHORT})", re.IGNORECASE)
_YEAR_NAMED = re.compile(r"\b(?:19|20)\d\d\b")


def grain(span: str) -> Grain | None:
    """How finely ``span`` places its moment: "day", "week", "month", "year", or ``None``.

    The unit of an amount as dateparser will read it ("a year and a half
    ago" is 18 months: a month), else the period the words name: a weekday,
    a holiday or a day of the month is a day, a month name a month, a year a
    year. A season or a weekend has no grain among these.
    """
    if _NAMED_SPAN.search(span):
        return None
    if _HOLIDAY_NAMED.search(span):
        return "day"  # "at New Year's" is a day, whatever "year" says
    said = said_as(span)
    # "this week", "ce mois-ci" are said as "today": their own words tell the period.
    unit = _UNIT_GRAIN.search(span if said.lower() == "today" else said)
    if unit is not None and unit.lastgroup is not None:
        # A month named in a year ("in March last year") places it by the month.
        if unit.lastgroup == "year" and _MONTH_NAMED.search(span):
            return "month"
        # A weekday named in a week ("Tuesday last week") places it by the day.
        if unit.lastgroup == "week" and _WEEKDAY_NAMED.search(span):
            return "day"
        return _GRAIN_OF[unit.lastgroup]
    if _DAY_NAMED.search(said):
        return "day"
    if _MONTH_NAMED.search(said):
        return "month"
    if _YEAR_NAMED.search(said):
        return "year"
    return None


# An amount counted back from the turn ("three weeks ago", "il y a deux
# mois", "a fortnight ago", "for five years now"), as opposed to a period
# named by the calendar ("last week", "le mois dernier", "in March").
_COUNTED = re.compile(
    rf"\b{AMOUNT}|\bhalf an? (?:year|month)\b|\bfortnight\b|\bquinze jours\b|\b{ROUGHLY}",
    re.IGNORECASE,
)


def counted(span: str) -> bool:
    """Does ``span`` count an amount of time back from the turn, rather than name a period?"""
    return _COUNTED.search(span) is not None
