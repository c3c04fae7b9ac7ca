"""A schedule's value typed from its hours and days (pure).

A habit on given days is kept as a ``schedule`` (``wishes``); said in
passing ("i work 9 to 5, monday to friday, so evenings are …") its words
are a sentence, and the same schedule said again ("mon to fri, 9am to
5pm") would be another value. A range of hours and a range of days are
read into one form: "9am-5pm Monday-Friday", "8h-16h lundi-vendredi". An
English range of bare hours whose end comes before its start is a working
day ("9 to 5": 9am to 5pm); one half of the day said on one end gives the
other end's ("10pm to 6": 6am). A sentence with neither range keeps its words.
"""

from __future__ import annotations

import re

_DAYS = {
    "mon": "Monday",
    "monday": "Monday",
    "tue": "Tuesday",
    "tues": "Tuesday",
    "tuesday": "Tuesday",
    "wed": "Wednesday",
    "wednesday": "Wednesday",
    "thu": "Thursday",
    "thur": "Thursday",
    "thurs": "Thursday",
    "thursday": "Thursday",
    "fri": "Friday",
    "friday": "Friday",
    "sat": "Saturday",
    "saturday": "Saturday",
    "sun": "Sunday",
    "sunday": "Sunday",
    **{d: d for d in ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")},
}
_DAY = "|".join(sorted(_DAYS, key=len, reverse=True))
_DAY_RANGE = re.compile(
    rf"\b(?:from |du )?(?P<a>{_DAY})\.?\s*(?:to|through|thru|till|until|-|–|au|à)\s*(?P<b>{_DAY})\b",
    re.IGNORECASE,
)
_HOUR = r"(?P<{0}>\d{{1,2}})(?:[:h](?P<{0}m>\d\d))?\s*(?P<{0}s>am|pm|h)?"
_HOUR_RANGE = re.compile(
    r"(?<![\d:])(?:from |de )?"
    + _HOUR.format("a")
    + r"\s*(?:to|till|until|-|–|à)\s*"
    + _HOUR.format("b")
    + r"(?![\d:%])",
    re.IGNORECASE,
)


_WEEK_WORDS = {
    "weekdays": "weekdays",
    "weekends": "weekends",
    "en semaine": "en semaine",
    "le week-end": "le week-end",
    "le weekend": "le week-end",
}
_WEEK = re.compile(rf"\b(?:{'|'.join(_WEEK_WORDS)})\b", re.IGNORECASE)


def _hour(h: str, minutes: str | None, suffix: str) -> str:
    return f"{int(h)}{':' + minutes if minutes else ''}{suffix}"


def _hours(found: re.Match[str]) -> str | None:
    a, b = int(found.group("a")), int(found.group("b"))
    if a > 24 or b > 24:
        return None
    sa, sb = (found.group("as") or "").lower(), (found.group("bs") or "").lower()
    if "h" in (sa, sb):
        # French hours: "8h à 16h", "de 8h30 à 17h".
        return f"{_hour(str(a), found.group('am'), 'h')}-{_hour(str(b), found.group('bm'), 'h')}"
    if a > 12 or b > 12:
        # A 24-hour clock has no half of the day to infer.
        return None
    # On the 12-hour clock 12 comes first: "12 to 2pm" stays in the
    # afternoon, "10pm to 6" crosses midnight into the morning.
    crosses = a % 12 > b % 12
    flip = {"am": "pm", "pm": "am"}
    if not sa and not sb and crosses:
        sa, sb = "am", "pm"
    elif not sa and sb:
        sa = flip[sb] if crosses else sb
    elif sa and not sb:
        sb = flip[sa] if crosses else sa
    if not sa and not sb:
        return None
    return f"{_hour(str(a), found.group('am'), sa)}-{_hour(str(b), found.group('bm'), sb)}"


def typed_schedule(said: str) -> str | None:
    """The hours and days ``said`` gives as ranges, in one form, or ``None`` when it gives neither."""
    parts = []
    hours = _HOUR_RANGE.search(said)
    if hours is not None and (typed := _hours(hours)) is not None:
        parts.append(typed)
    days = _DAY_RANGE.search(said)
    if days is not None:
        parts.append(f"{_DAYS[days.group('a').lower()]}-{_DAYS[days.group('b').lower()]}")
    elif parts and (week := _WEEK.search(said)) is not None:
        # "9 to 5 on weekdays": the days said as a class stay with the hours.
        parts.append(_WEEK_WORDS[week.group(0).lower()])
    return " ".join(parts) or None
