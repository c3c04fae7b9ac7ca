"""A named period moved back by a step of its own kind, weekends counted, a month of
last year, and the speaker's day beyond ±12 h (``providers.extraction.when_shift``,
``when_resolve``)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from haki.providers.extraction.rules import dated, extract_payload
from haki.providers.extraction.when import past_span, resolve, said_moment
from haki.providers.extraction.when_shift import before_last, step_back, weekends_back

PARIS_SPRING = timezone(timedelta(hours=2))
# A Thursday late morning in May, in the speaker's offset.
AT = datetime(2026, 5, 14, 11, 0, tzinfo=PARIS_SPRING)


def said(sentence: str, at: datetime = AT) -> tuple[str | None, str | None, str | None]:
    """The span the finder takes, the local day of the period it names, and its grain."""
    span = past_span(sentence)
    found = said_moment(span, at) if span else None
    if found is None:
        return span, None, None
    return span, found.moment.astimezone(at.tzinfo).date().isoformat(), found.grain


@pytest.mark.parametrize(
    ("sentence", "span", "day", "grain"),
    [
        # One step further back than "last", for each kind of period.
        ("I moved here the week before last", "the week before last", "2026-04-27", "week"),
        ("I moved here the month before last", "the month before last", "2026-03-01", "month"),
        ("I moved here the year before last", "the year before last", "2024-01-01", "year"),
        ("I moved here the summer before last", "the summer before last", "2024-06-01", None),
        ("I moved here the weekend before last", "the weekend before last", "2026-05-02", None),
        ("I moved here Tuesday before last", "Tuesday before last", "2026-05-05", "day"),
        ("I moved here the night before last", "the night before last", "2026-05-12", "day"),
        (
            "la semaine avant-dernière j'ai commencé",
            "la semaine avant-dernière",
            "2026-04-27",
            "week",
        ),
        ("le mois avant-dernier j'ai commencé", "le mois avant-dernier", "2026-03-01", "month"),
        ("l'avant-dernier week-end on a emménagé", "l'avant-dernier week-end", "2026-05-02", None),
        ("samedi avant-dernier j'ai adopté un chat", "samedi avant-dernier", "2026-05-02", "day"),
        ("l'été avant-dernier j'ai déménagé", "l'été avant-dernier", "2024-06-01", None),
        # Weekends counted back from the latest one gone by (Saturday 9 May).
        ("we moved two weekends ago", "two weekends ago", "2026-05-02", None),
        ("we moved a couple of weekends back", "a couple of weekends back", "2026-05-02", None),
        ("il y a trois week-ends on a emménagé", "il y a trois week-ends", "2026-04-25", None),
        # A month of the year before, placed by the month.
        ("I moved to Leeds in March last year", "in March last year", "2025-03-01", "month"),
        ("I moved to Leeds february of last year", "february of last year", "2025-02-01", "month"),
        ("en mars l'an dernier j'ai déménagé", "en mars l'an dernier", "2025-03-01", "month"),
        (
            "en février de l'année passée j'ai commencé",
            "en février de l'année passée",
            "2025-02-01",
            "month",
        ),
        # A short month after "last", a part of a month, a count to the day.
        ("last feb i moved to Denver", "last feb", "2026-02-01", "month"),
        ("at the start of april i moved to Denver", "at the start of april", "2026-04-01", "month"),
        ("a week ago today i adopted a dog", "a week ago today", "2026-05-07", "week"),
        ("back in the spring i got a dog", "back in the spring", "2026-03-01", None),
        # A weekday of the week before, a season of the year before.
        ("i moved on tuesday last week", "on tuesday last week", "2026-05-05", "day"),
        ("i moved last week on tuesday", "last week on tuesday", "2026-05-05", "day"),
        (
            "mardi de la semaine dernière j'ai déménagé",
            "mardi de la semaine dernière",
            "2026-05-05",
            "day",
        ),
        ("i moved in the spring of last year", "in the spring of last year", "2025-03-01", None),
        (
            "au printemps de l'année dernière j'ai déménagé",
            "au printemps de l'année dernière",
            "2025-03-01",
            None,
        ),
        # A week of a named month is that month, not last week.
        (
            "in the last week of january i moved",
            "in the last week of january",
            "2026-01-01",
            "month",
        ),
        ("courant mars j'ai déménagé", "courant mars", "2026-03-01", "month"),
        # Holidays on their own day, "New Year's" a day whatever "year" says.
        ("on christmas eve we got engaged", "on christmas eve", "2025-12-24", "day"),
        ("on new year's eve we got engaged", "on new year's eve", "2025-12-31", "day"),
        ("at new year's we got engaged", "at new year's", "2026-01-01", "day"),
        ("this past christmas we got engaged", "this past christmas", "2025-12-25", "day"),
        ("on Valentine's day we got engaged", "on Valentine's day", "2026-02-14", "day"),
        ("à la Toussaint j'ai déménagé", "à la Toussaint", "2025-11-01", "day"),
        ("at thanksgiving we got engaged", "at thanksgiving", "2025-11-27", "day"),
    ],
)
def test_composed_periods(sentence: str, span: str, day: str, grain: str | None) -> None:
    assert said(sentence) == (span, day, grain)


@pytest.mark.parametrize(
    "sentence",
    [
        "the other day i adopted a hamster",  # vague: the event's time stands
        "i moved here a while ago",
        "we're flying to Lisbon next week",
        "the last weekend of the month is busy",  # no step back said
        "il y a deux mois et demi",  # an amount, read elsewhere; no weekend counted
    ],
)
def test_no_step_read(sentence: str) -> None:
    span = past_span(sentence)
    assert span is None or (before_last(span) is None and weekends_back(span) is None)


def test_step_back_keeps_a_day_the_month_has() -> None:
    assert step_back(date(2026, 3, 31), 0, 1) == date(2026, 2, 28)
    assert step_back(date(2026, 1, 15), 0, 12) == date(2025, 1, 15)
    assert step_back(date(2026, 1, 5), 7, 0) == date(2025, 12, 29)


# New Zealand's summer (+13:00): noon there is still the day before in UTC.
AUCKLAND_SUMMER = timezone(timedelta(hours=13))


def test_last_year_on_new_years_morning_east_of_twelve_hours() -> None:
    at = datetime(2026, 1, 1, 8, 0, tzinfo=AUCKLAND_SUMMER)
    found = said_moment("last year", at)
    assert found is not None and found.grain == "year"
    assert found.moment.astimezone(at.tzinfo).date() == date(2025, 1, 1)


def test_a_day_east_of_twelve_hours_has_the_same_date_in_utc() -> None:
    at = datetime(2026, 1, 1, 20, 0, tzinfo=AUCKLAND_SUMMER)
    moment = resolve("yesterday", at)
    assert moment is not None and moment.tzinfo == UTC
    assert moment.date() == date(2025, 12, 31) == moment.astimezone(at.tzinfo).date()


def test_a_fact_takes_the_composed_moment() -> None:
    at = datetime(2026, 3, 3, 14, 0, tzinfo=timezone(timedelta(hours=-5)))
    text = "a week ago today i brought home my dog Pickle and he has already eaten one shoe"
    facts = dated([c for c in extract_payload({"text": text}) if not c.retract], at)
    pickle = [c for c in facts if c.value == "Pickle"]
    assert pickle and pickle[0].valid_from is not None
    assert pickle[0].valid_from.astimezone(at.tzinfo).date() == date(2026, 2, 24)


def test_a_moment_dating_another_clause_leaves_an_undated_fact() -> None:
    text = "I live in Lyon and I saw a movie the week before last"
    facts = dated([c for c in extract_payload({"text": text}) if not c.retract], AT)
    lyon = [c for c in facts if c.value == "Lyon"]
    assert lyon and lyon[0].valid_from is None
