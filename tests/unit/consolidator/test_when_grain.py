"""The grain of the words that date a fact, and the period's first day as its start (pure)."""

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from haki.consolidator.apply import stored_qualifiers
from haki.consolidator.fact_text import fact_sentence
from haki.providers.extraction.rules import dated, extract_payload
from haki.providers.extraction.types import Candidate
from haki.providers.extraction.when import period_start, said_moment
from haki.providers.extraction.when_words import grain

# A Monday, 7 December 2026, afternoon in Paris.
AT = datetime(2026, 12, 7, 15, 30, tzinfo=timezone(timedelta(hours=1)))


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("yesterday", "day"),
        ("avant-hier", "day"),
        ("on the 3rd", "day"),
        ("on Tuesday", "day"),
        ("le 1er mars", "day"),
        ("at Christmas", "day"),
        ("3 days ago", "day"),
        ("last week", "week"),
        ("two weeks ago", "week"),
        ("il y a deux semaines", "week"),
        ("this week", "week"),
        ("last month", "month"),
        ("le mois dernier", "month"),
        ("in March", "month"),
        ("since January 2024", "month"),
        ("at the end of last month", "month"),
        ("a year and a half ago", "month"),  # read as 18 months
        ("ce mois-ci", "month"),
        ("last year", "year"),
        ("l'an dernier", "year"),
        ("since 2019", "year"),
        ("early 2024", "year"),
        ("for three years now", "year"),
        ("a decade ago", "year"),
        ("last summer", None),  # a season is no day, week, month or year
        ("last weekend", None),
    ],
)
def test_the_grain_is_the_period_the_words_name(words, expected):
    assert grain(words) == expected


def test_a_period_starts_on_its_first_day():
    day = date(2026, 11, 12)  # a Thursday
    assert period_start(day, "day") == day
    assert period_start(day, "week") == date(2026, 11, 9)
    assert period_start(day, "month") == date(2026, 11, 1)
    assert period_start(day, "year") == date(2026, 1, 1)
    assert period_start(day, None) == day


@pytest.mark.parametrize(
    ("words", "day", "kind"),
    [
        ("last month", "2026-11-01", "month"),  # not 2026-11-07, a day nobody said
        ("two weeks ago", "2026-11-23", "week"),  # counted back: the day, in its week
        ("yesterday", "2026-12-06", "day"),
        ("last year", "2025-01-01", "year"),
        ("il y a trois mois", "2026-09-07", "month"),
        ("the week before last", "2026-11-23", "week"),
        ("last week", "2026-11-30", "week"),
        ("last summer", "2026-06-01", None),
    ],
)
def test_a_moment_said_starts_its_period(words, day, kind):
    said = said_moment(words, AT)
    assert said is not None
    assert said.moment.astimezone(AT.tzinfo).date().isoformat() == day
    assert said.grain == kind
    assert said.moment <= AT


def test_a_dated_candidate_carries_its_grain_into_the_stored_qualifiers():
    [fact] = dated(extract_payload({"text": "I moved to Lyon last month."}), AT)
    assert (fact.predicate, fact.value, fact.valid_from_grain) == ("home_city", "Lyon", "month")
    assert fact.valid_from is not None and fact.valid_from.date() == date(2026, 11, 1)
    assert stored_qualifiers(fact) == {**fact.qualifiers, "valid_from_grain": "month"}
    # Nothing said about time: no grain, nothing added.
    [plain] = dated(extract_payload({"text": "I live in Lyon."}), AT)
    assert plain.valid_from is None and plain.valid_from_grain is None
    assert stored_qualifiers(plain) == plain.qualifiers


def test_a_grain_without_a_moment_is_not_stored():
    cand = Candidate("home_city", "Lyon", valid_from_grain="month")
    assert "valid_from_grain" not in stored_qualifiers(cand)
    dated_cand = replace(cand, valid_from=datetime(2026, 11, 1, 12, tzinfo=UTC))
    assert stored_qualifiers(dated_cand)["valid_from_grain"] == "month"


def test_the_grain_stays_out_of_the_searched_sentence():
    plain = fact_sentence("home_city", "Lyon", {})
    assert fact_sentence("home_city", "Lyon", {"valid_from_grain": "month"}) == plain
    assert "month" not in plain
