"""A named period moved by a step of its own kind: "the X before last", "two weekends ago" (pure).

``when`` reads a period named with "last" ("last week", "last Tuesday",
"last summer", "last night", "le mois dernier"). One step further back is
said the same way for every kind of period — "the week before last",
"Tuesday before last", "the summer before last", "the night before last",
"la semaine avant-dernière", "l'avant-dernier week-end" — so it is read by
composition, not phrase by phrase: the period is read as its "last" form,
then moved back by one period of its own kind (a week for a week, a weekday
or a weekend, a day for a night, a month for a month, a year for a year, a
season, a month name or a holiday). A count of weekends ("two weekends
ago", "il y a deux week-ends") is the latest weekend gone by, moved back by
a week for each one more.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import NamedTuple

from .when_words import DAYS, HOLIDAYS, MONTHS, MONTHS_SHORT, NUMBER, SEASONS, count_of

# The periods a speaker steps back from, EN and FR.
_PERIOD = (
    rf"(?:week-?end|week|month|year|night|semaine|mois|année|an|nuit|{DAYS}|{SEASONS}"
    rf"|{MONTHS}|{HOLIDAYS})"
)
# "the week before last", "Tuesday before last"; "la semaine avant-dernière",
# "l'avant-dernier week-end", "le mois d'avant-dernier" is not said.
BEFORE_LAST = (
    rf"\b(?:the )?{_PERIOD} before last\b"
    rf"|\b(?:l['’]|la |le )?avant[- ]derni(?:er|ère) {_PERIOD}\b"
    rf"|\b(?:(?:la|le|l['’])\s*)?{_PERIOD} avant[- ]derni(?:er|ère)\b"
)
_BEFORE_LAST = re.compile(
    rf"^(?:the )?(?P<en>{_PERIOD}) before last$"
    rf"|^(?:l['’]|la |le )?avant[- ]derni(?:er|ère) (?P<fr1>{_PERIOD})$"
    rf"|^(?:(?:la|le|l['’])\s*)?(?P<fr2>{_PERIOD}) avant[- ]derni(?:er|ère)$",
    re.IGNORECASE,
)
# "two weekends ago", "a couple of weekends back", "il y a deux week-ends".
WEEKENDS_AGO = (
    rf"\b{NUMBER} week-?ends? (?:ago|back)\b|\b(?:il y a|ça fait|ca fait) {NUMBER} week-?ends?\b"
)
_WEEKENDS_AGO = re.compile(
    rf"^(?P<n>{NUMBER}) week-?ends? (?:ago|back)$|^(?:il y a|ça fait|ca fait) (?P<m>{NUMBER}) week-?ends?$",
    re.IGNORECASE,
)
# The "last" form of a French period, as ``when_words.said_as`` reads it.
_LAST_FR = {
    "semaine": "la semaine dernière", "mois": "le mois dernier", "année": "l'année dernière",
    "an": "l'année dernière", "nuit": "hier",
}  # fmt: skip


# A month or a season of the year before: "in March last year", "february of
# last year", "in the spring of last year", "en mars l'an dernier", "au
# printemps de l'année dernière".
_LAST_YEAR = r"(?:last year|l['’]an(?:née)? (?:derni(?:er|ère)|pass[ée]e?))"
OF_LAST_YEAR = (
    rf"\b(?:(?:back )?in (?:the )?|during the |en |au |à l['’]|l['’])?"
    rf"(?:{MONTHS}|{MONTHS_SHORT}|{SEASONS})(?: of| de)? {_LAST_YEAR}(?!\w)"
)
_OF_LAST_YEAR = re.compile(
    rf"^(?:(?:back )?in (?:the )?|during the |en |au |à l['’]|l['’])?"
    rf"(?:(?P<month>{MONTHS}|{MONTHS_SHORT})|(?P<season>{SEASONS}))(?: of| de)? {_LAST_YEAR}$",
    re.IGNORECASE,
)
# A weekday of the week before: "Tuesday last week", "last week on Tuesday",
# "mardi de la semaine dernière", "mardi la semaine passée".
DAY_OF_LAST_WEEK = (
    rf"\b(?:on )?(?:{DAYS}) (?:of )?last week\b|\blast week on (?:{DAYS})\b"
    rf"|\b(?:{DAYS}) (?:de )?la semaine (?:derni[èe]re|pass[ée]e)"
)
_DAY_OF_LAST_WEEK = re.compile(
    rf"^(?:on )?(?P<a>{DAYS}) (?:of )?last week$|^last week on (?P<b>{DAYS})$"
    rf"|^(?P<c>{DAYS}) (?:de )?la semaine (?:derni[èe]re|pass[ée]e)$",
    re.IGNORECASE,
)
_WEEKDAYS = [d.lower() for d in DAYS.split("|")]


def of_last_year(span: str, year: int) -> str | None:
    """``span`` said with the year it names ("in March last year" → "March 2025"), if it says one."""
    found = _OF_LAST_YEAR.match(span.strip())
    if found is None:
        return None
    return f"{found.group('month') or found.group('season')} {year - 1}"


def day_of_last_week(span: str, today: date) -> date | None:
    """The weekday ``span`` names in the week before ``today``'s ("Tuesday last week")."""
    found = _DAY_OF_LAST_WEEK.match(span.strip())
    if found is None:
        return None
    name = (found.group("a") or found.group("b") or found.group("c")).lower()
    monday = today - timedelta(days=today.weekday() + 7)
    return monday + timedelta(days=_WEEKDAYS.index(name) % 7)


class Step(NamedTuple):
    """A span said as its "last" form, and how far before that one it lies."""

    last: str
    days: int
    months: int


def _step_of(period: str) -> tuple[int, int]:
    """(days, months) of one period of this kind."""
    low = period.lower()
    if low in ("night", "nuit"):
        return 1, 0
    if low.startswith(("week", "semaine")) or re.fullmatch(DAYS, low, re.IGNORECASE):
        return 7, 0
    if low in ("month", "mois"):
        return 0, 1
    return 0, 12  # a year, a season, a month by name, a holiday: a year back


def before_last(span: str) -> Step | None:
    """``span`` as its "last" form and the step back, when it says "before last" / "avant-dernier"."""
    found = _BEFORE_LAST.match(span.strip())
    if found is None:
        return None
    period = found.group("en") or found.group("fr1") or found.group("fr2")
    days, months = _step_of(period)
    low = period.lower()
    if found.group("en"):
        last = f"last {period}"
    elif low in _LAST_FR:
        last = _LAST_FR[low]
    else:
        last = f"{period} dernier"
    return Step(last, days, months)


def weekends_back(span: str) -> int | None:
    """How many weekends ``span`` counts back ("two weekends ago" → 2), if it counts them."""
    found = _WEEKENDS_AGO.match(span.strip())
    if found is None:
        return None
    return count_of(found.group("n") or found.group("m"))


def step_back(day: date, days: int, months: int) -> date:
    """``day`` moved back by ``days`` and ``months`` (a month's day kept, else its last day)."""
    day -= timedelta(days=days)
    if months:
        total = day.year * 12 + day.month - 1 - months
        year, month = divmod(total, 12)
        month += 1
        for last_day in (day.day, 30, 29, 28):
            try:
                return date(year, month, min(day.day, last_day))
            except ValueError:
                continue
    return day
