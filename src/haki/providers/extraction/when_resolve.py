"""A span of time words read into the day it names, and the grain of its period (pure).

``when`` finds the span a statement dates itself by ("last month", "il y a
deux semaines"); this module reads it against the turn's own clock: the
calendar's named days first (``when_calendar``), then a day of the month
said alone, then dateparser, which reads English and French.

dateparser is imported on first use (about 1.5 s, then ~2 s to load its
language data on the first parse, then ~6 ms a parse): a consolidation
that meets no past expression never pays for it.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any, NamedTuple

from ...types import Grain
from .when_calendar import latest_day_of_month, named_day
from .when_shift import before_last, day_of_last_week, of_last_year, step_back
from .when_words import MONTHS, counted, grain, said_as

_YEAR = re.compile(r"(?:19|20)\d\d")
_MONTH = re.compile(rf"\b(?:{MONTHS})\b", re.I)


@lru_cache(maxsize=1)
def _parser() -> Any:
    import dateparser  # imported on first use: see the module doc

    return dateparser


# A day of the month said alone ("on the 3rd"): the latest such day not
# after the turn (dateparser reads "3rd" as a month and "22nd" ahead).
_DAY_OF_MONTH = re.compile(r"\d{1,2}")


def on_their_clock(day: date, at: datetime) -> datetime | None:
    """``day`` as the speaker meant it: noon on their clock, never after ``at``; ``None`` if later.

    The words name a day, not an hour. Noon of that day in the speaker's
    offset falls on the same date in UTC for any offset within ±12 h, so the
    date a packet shows (``since 2027-02-27``) is the day said whichever clock
    reads it; midnight there would be the day before in UTC east of Greenwich.
    """
    if day > at.date():
        return None
    noon = datetime(day.year, day.month, day.day, 12, tzinfo=at.tzinfo or UTC)
    offset = noon.utcoffset() or timedelta(0)
    if abs(offset) > timedelta(hours=12):
        # +13:00 or +14:00 (Tonga, Kiribati, New Zealand's summer): noon there is
        # the day before in UTC. The middle of the hours whose date is the same on
        # both clocks is noon moved by half the offset (18:30 at +13:00).
        noon += offset / 2
    return min(noon, at).astimezone(UTC)


def resolve(span: str, at: datetime) -> datetime | None:
    """``span`` read against ``at`` (the event's time, in the speaker's offset), as an aware UTC
    datetime on the day it names (``on_their_clock``); ``None`` if unread or later than ``at``.
    """
    step = before_last(span)
    if step is not None:
        # "the summer before last": last summer, a year further back.
        last = resolve(step.last, at)
        if last is None:
            return None
        local = last.astimezone(at.tzinfo).date() if at.tzinfo else last.date()
        return on_their_clock(step_back(local, step.days, step.months), at)
    dated = of_last_year(span, at.year)
    day = day_of_last_week(span, at.date()) or named_day(dated or span, at.date())
    if day is not None:
        return on_their_clock(day, at)
    text = dated or said_as(span)
    day_of_month = _DAY_OF_MONTH.fullmatch(text)
    if day_of_month is not None:
        found = latest_day_of_month(at.date(), int(day_of_month.group(0)))
        return None if found is None else on_their_clock(found, at)
    # Read on the speaker's wall clock: "on Saturday" said at 23:50 in
    # California is that Saturday there, whatever day it already is in UTC.
    settings = {
        "RELATIVE_BASE": at.replace(tzinfo=None),
        "PREFER_DATES_FROM": "past",
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    if _MONTH.search(text) or _YEAR.fullmatch(text.strip()) or dated:
        # "in March", "since 2019": the first day, not the base's day.
        settings["PREFER_DAY_OF_MONTH"] = "first"
        if _YEAR.fullmatch(text.strip()):
            settings["PREFER_MONTH_OF_YEAR"] = "first"
    found = _parser().parse(text.strip(), languages=["en", "fr"], settings=settings)
    if not isinstance(found, datetime):
        return None
    return on_their_clock(found.date(), at)


def period_start(day: date, grain: Grain | None) -> date:
    """The first day of the ``grain`` holding ``day`` (a Monday for a week); ``day`` without one."""
    if grain == "week":
        return day - timedelta(days=day.weekday())
    if grain == "month":
        return day.replace(day=1)
    if grain == "year":
        return day.replace(month=1, day=1)
    return day


class Said(NamedTuple):
    """A moment as said: when its period began, and the period's grain."""

    moment: datetime
    grain: Grain | None


def said_moment(span: str, at: datetime) -> Said | None:
    """``span`` read against ``at``, with the grain of the period its words name.

    A period the calendar names starts on its first day: "last month" said
    on 2026-12-07 began, as far as the words tell, on 2026-11-01; the day
    ``resolve`` reads (2026-11-07) is one nobody said. An amount counted
    back ("three weeks ago", "il y a deux mois") keeps the day it counts to,
    which lies inside the period of its unit. Either way the packet says the
    period ("since November 2026"), never a day the speaker did not name.
    Words with no grain (a season, a weekend) keep the day ``resolve`` reads.
    """
    moment = resolve(span, at)
    if moment is None:
        return None
    kind = grain(span)
    # The day on the speaker's clock: at +13:00 its noon is the day before in UTC.
    local = moment.astimezone(at.tzinfo).date() if at.tzinfo else moment.date()
    if counted(span):
        # "three weeks ago" counts back to a day the speaker could have
        # named: that day stands, inside the period its unit names.
        return Said(moment, kind)
    start = period_start(local, kind)
    if start == local:
        return Said(moment, kind)
    return Said(on_their_clock(start, at) or moment, kind)
