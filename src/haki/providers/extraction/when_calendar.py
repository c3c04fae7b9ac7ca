"""The days the calendar names, read against the day of a turn (pure).

dateparser reads amounts of time, months and weekdays; it reads no season,
no holiday and no bare day of the month the way a speaker means them in
the past tense. Here each of them is the latest such day not after the
turn: a season its first month (meteorological seasons), a holiday its day.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from dateutil.easter import easter

from .when_shift import weekends_back
from .when_words import HOLIDAYS, SEASONS

_SEASON_START = {
    "spring": 3, "printemps": 3, "summer": 6, "été": 6,
    "fall": 9, "autumn": 9, "automne": 9, "winter": 12, "hiver": 12,
}  # fmt: skip
_SEASON = re.compile(SEASONS, re.IGNORECASE)
_HOLIDAY = re.compile(HOLIDAYS, re.IGNORECASE)
_GONE = re.compile(r"\b(?:last|past|derni(?:er|ère)|pass[ée]e?)\b", re.IGNORECASE)


def _latest(day: date, month: int, on: int) -> date:
    """The latest ``month``/``on`` not after ``day``."""
    this_year = date(day.year, month, on)
    return this_year if this_year <= day else date(day.year - 1, month, on)


_WEEKEND = re.compile(r"\bweek-?ends?\b", re.IGNORECASE)
# "last weekend", "le week-end dernier"; "this past weekend" is the latest one.
_WEEKEND_GONE = re.compile(r"(?<!this )\b(?:last|past)\b|\b(?:derni|pass)", re.IGNORECASE)
_SEASON_YEAR = re.compile(r"(?:19|20)\d\d")


def _weekend(span: str, today: date) -> date:
    """The Saturday of the weekend ``span`` names.

    The weekend of the turn is the latest Saturday not after it: "this
    weekend" said on a Saturday is today, on a Sunday yesterday. "Last
    weekend" said during a weekend is the one before it, and "two weekends
    ago" the one before "last weekend".
    """
    saturday = today - timedelta(days=(today.weekday() - 5) % 7)
    back = weekends_back(span)
    if (back is not None or _WEEKEND_GONE.search(span)) and today.weekday() >= 5:
        saturday -= timedelta(days=7)
    return saturday - timedelta(days=7 * max((back or 1) - 1, 0))


def _season(span: str, name: str, today: date) -> date:
    """The first day of the season ``name`` that ``span`` names, in the year it says or the latest.

    A season said with its year ("in summer 2024", "l'hiver 2023") is that
    year's; winter, which straddles two years, is the one whose January
    bears it.
    """
    month = _SEASON_START[name]
    year = _SEASON_YEAR.search(span)
    if year is not None:
        return date(int(year.group(0)), 1 if month == 12 else month, 1)
    start = _latest(today, month, 1)
    months_in = (today.year - start.year) * 12 + today.month - start.month
    if _GONE.search(span) and months_in < 3:
        start = date(start.year - 1, month, 1)
    return start


# Holidays on a fixed day of the year, the more precise name first
# ("Christmas Eve" before "Christmas").
_FIXED_DAYS: tuple[tuple[tuple[str, ...], int, int], ...] = (
    (("christmas eve", "xmas eve"), 12, 24),
    (("new year's eve", "new year’s eve", "new years eve"), 12, 31),
    (("boxing day",), 12, 26),
    (("christmas", "xmas", "noël", "noel"), 12, 25),
    (("valentine", "valentin"), 2, 14),
    (("halloween",), 10, 31),
    (("toussaint",), 11, 1),
)


def _thanksgiving(today: date) -> date:
    """The latest US Thanksgiving (fourth Thursday of November) not after ``today``."""
    for year in (today.year, today.year - 1):
        first = date(year, 11, 1)
        day = first + timedelta(days=(3 - first.weekday()) % 7 + 21)
        if day <= today:
            return day
    return day


def named_day(span: str, today: date) -> date | None:
    """A season, holiday or weekend read against the day of the turn (dateparser reads none).

    A season stands for its first month (meteorological seasons: March,
    June, September, December), a holiday for its day and a weekend for its
    Saturday, the latest one not after the turn; "last summer" said during a
    summer is the one before.
    """
    if _WEEKEND.search(span):
        return _weekend(span, today)
    season = _SEASON.search(span)
    if season is not None:
        return _season(span, season.group(0).lower(), today)
    holiday = _HOLIDAY.search(span)
    if holiday is None:
        return None
    name = holiday.group(0).lower()
    # "last Christmas" said on Christmas Day is the one a year before.
    if _GONE.search(span):
        today = today - timedelta(days=1)
    for words, month, on in _FIXED_DAYS:
        if any(word in name for word in words):
            return _latest(today, month, on)
    if "thanksgiving" in name:
        return _thanksgiving(today)
    if name.startswith(("easter", "pâques", "paques")):
        sunday: date = easter(today.year)
        if sunday > today:
            sunday = easter(today.year - 1)
        return sunday
    if "rentrée" in name:
        return _latest(today, 9, 1)
    return _latest(today, 1, 1)


def latest_day_of_month(today: date, day: int) -> date | None:
    """The latest ``day`` of a month not after ``today`` (a month that has it);
    ``None`` for a day no month has ("the 0th", "the 45th"), which names no moment.
    """
    year, month = today.year, today.month
    for _ in range(3):
        try:
            found = date(year, month, day)
        except ValueError:
            found = None
        if found is not None and found <= today:
            return found
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return None
