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


def named_day(span: str, today: date) -> date | None:
    """A season or holiday read against the day of the turn (dateparser reads neither).

    A season stands for its first month (meteorological seasons: March,
    June, September, December) and a holiday for its day, the latest one
    not after the turn; "last summer" said during a summer is the one before.
    """
    season = _SEASON.search(span)
    if season is not None:
        month = _SEASON_START[season.group(0).lower()]
        start = _latest(today, month, 1)
        months_in = (today.year - start.year) * 12 + today.month - start.month
        if _GONE.search(span) and months_in < 3:
            start = date(start.year - 1, month, 1)
        return start
    holiday = _HOLIDAY.search(span)
    if holiday is None:
        return None
    name = holiday.group(0).lower()
    # "last Christmas" said on Christmas Day is the one a year before.
    if _GONE.search(span):
        today = today - timedelta(days=1)
    if name.startswith(("christmas", "xmas", "noël", "noel")):
        return _latest(today, 12, 25)
    if name.startswith(("easter", "pâques", "paques")):
        sunday: date = easter(today.year)
        if sunday > today:
            sunday = easter(today.year - 1)
        return sunday
    if "rentrée" in name:
        return _latest(today, 9, 1)
    return _latest(today, 1, 1)


def latest_day_of_month(today: date, day: int) -> date:
    """The latest ``day`` of a month not after ``today`` (a month that has it)."""
    year, month = today.year, today.month
    for _ in range(3):
        try:
            found = date(year, month, day)
        except ValueError:
            found = None
        if found is not None and found <= today:
            return found
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return today
