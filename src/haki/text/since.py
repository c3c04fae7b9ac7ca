"""When a fact began, said no finer than the words that dated it (pure).

"I moved to Lyon last month" names a month: the fact holds "since November
2026", not since the day a reading of "last month" lands on. The server's
packet lines and the SDK's ``render`` both say it this way.
"""

from __future__ import annotations

from datetime import datetime, timedelta

_MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def since_text(valid_from: datetime, grain: str | None) -> str:
    """``valid_from`` at ``grain`` ("day", "week", "month", "year"), else as its date.

    A week is named by its Monday ("the week of 2026-11-02"); a day, a fact
    no time words dated (its event's day) or an unknown grain by the date.
    """
    day = valid_from.date()
    if grain == "year":
        return str(day.year)
    if grain == "month":
        return f"{_MONTH_NAMES[day.month - 1]} {day.year}"
    if grain == "week":
        return f"the week of {(day - timedelta(days=day.weekday())).isoformat()}"
    return day.isoformat()
