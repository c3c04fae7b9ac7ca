"""How each said period maps to a day (``providers.extraction.when``, ``when_words``,
``when_calendar``) and which moment a fact takes when a sentence names several."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from haki.providers.extraction.rules import dated, extract_payload
from haki.providers.extraction.when import moment_of_value, past_span, resolve

PARIS = timezone(timedelta(hours=2))
SATURDAY = datetime(2026, 8, 1, 10, tzinfo=PARIS)
SUNDAY = datetime(2026, 8, 2, 10, tzinfo=PARIS)
MONDAY = datetime(2026, 8, 3, 10, tzinfo=PARIS)
WEDNESDAY = datetime(2026, 6, 17, 10, tzinfo=PARIS)


def local_day(span: str, at: datetime = WEDNESDAY) -> str | None:
    moment = resolve(span, at)
    return None if moment is None else moment.astimezone(at.tzinfo).date().isoformat()


@pytest.mark.parametrize(
    ("span", "at", "day"),
    [
        ("this weekend", SATURDAY, "2026-08-01"),  # the weekend under way: today
        ("ce week-end", SUNDAY, "2026-08-01"),
        ("over the weekend", MONDAY, "2026-08-01"),
        ("this past weekend", SUNDAY, "2026-08-01"),
        ("last weekend", SUNDAY, "2026-07-25"),  # said during a weekend: the one before
        ("le week-end dernier", SATURDAY, "2026-07-25"),
        ("last weekend", MONDAY, "2026-08-01"),  # said on a weekday: the one just gone
    ],
)
def test_a_weekend_is_its_saturday_on_the_turns_calendar(span, at, day):
    assert local_day(span, at) == day


@pytest.mark.parametrize(
    ("span", "day"),
    [
        ("vendredi passé", "2026-06-12"),
        ("lundi précédent", "2026-06-15"),
        ("this past Monday", "2026-06-15"),
        ("mardi dernier", "2026-06-16"),
    ],
)
def test_a_weekday_gone_by_is_the_latest_one(span, day):
    assert local_day(span) == day


@pytest.mark.parametrize(
    ("sentence", "span", "day"),
    [
        ("I've been vegan since May 3", "since May 3", "2026-05-03"),
        ("I quit sugar a month or so ago", "a month or so ago", "2026-05-17"),
        ("we moved here a year or two ago", "a year or two ago", "2025-06-17"),
        ("I sold my car half a year ago", "half a year ago", "2025-12-17"),
        ("j'ai changé de boulot il y a une quinzaine", "il y a une quinzaine", "2026-06-02"),
        ("je suis à Lyon il y a une dizaine d'années", "il y a une dizaine d'années", "2016-06-17"),
        ("we got married in the summer of 2024", "in the summer of 2024", "2024-06-01"),
        ("on s'est installés à Brest à l'automne 2023", "à l'automne 2023", "2023-09-01"),
        ("I'm at Spotify as of March", "as of March", "2026-03-01"),
        ("je suis végane à partir de mars", "à partir de mars", "2026-03-01"),
        ("je cours dès janvier", "dès janvier", "2026-01-01"),
        ("I've been sober since the new year", "since the new year", "2026-01-01"),
    ],
)
def test_each_period_said_maps_to_its_day(sentence, span, day):
    assert past_span(sentence) == span
    assert local_day(span) == day


def test_a_winter_said_with_its_year_is_the_one_whose_january_bears_it():
    assert local_day("l'hiver 2025") == "2025-01-01"


@pytest.mark.parametrize(
    "sentence",
    [
        "il y a une vingtaine de personnes dans mon club",  # a count of people, no time
        "il y a une dizaine d'élèves",
    ],
)
def test_a_rough_count_of_things_is_no_moment(sentence):
    assert past_span(sentence) is None


def test_a_state_found_out_holds_from_the_finding():
    sentence = "my allergist confirmed it on wednesday: i'm allergic to shellfish."
    at = sentence.index("shellfish")
    assert past_span(sentence, at, at + 9) == "on wednesday"
    turn = datetime(2026, 9, 28, 12, 30, tzinfo=PARIS)
    got = {
        (c.predicate, c.value): c.valid_from
        for c in dated(extract_payload({"text": sentence}), turn)
    }
    assert got[("allergy", "shellfish")].astimezone(PARIS).date() == date(2026, 9, 23)


def test_a_moment_of_a_clause_that_changes_nothing_dates_nothing_beside_it():
    sentence = "I saw my allergist on Wednesday, I'm allergic to shellfish."
    at = sentence.index("shellfish")
    assert past_span(sentence, at, at + 9) is None


def test_a_tie_knotted_dates_the_partner_named_with_it():
    turn = datetime(2027, 1, 9, 13, tzinfo=timezone(timedelta(hours=1)))
    text = "my husband Arjun and I tied the knot 3 years ago"
    got = {
        (c.predicate, c.value): c.valid_from for c in dated(extract_payload({"text": text}), turn)
    }
    assert got[("spouse", "Arjun")].year == 2024


def test_each_fact_takes_the_moment_of_its_own_clause_when_its_value_was_cut():
    turn = datetime(2026, 1, 10, 11, tzinfo=timezone(timedelta(hours=10)))
    text = (
        "joined the Brisbane Chess Club six months ago, and i started learning italian"
        " 3 weeks ago bc why not"
    )
    got = {c.predicate: c.valid_from for c in dated(extract_payload({"text": text}), turn)}
    assert got["learning"].astimezone(turn.tzinfo).date() == date(2025, 12, 20)


def test_a_value_is_found_as_whole_words():
    sentence = "I started pottery last year and art in 2019"
    assert moment_of_value(sentence, sentence.lower(), "art") == "in 2019"
    # Named twice, the value has no one clause.
    twice = "art in 2019 and more art last year"
    assert moment_of_value(twice, twice, "art") is None


def test_the_month_is_the_speakers_not_greenwichs():
    # Five past midnight on 1 September in Paris is still 31 August in UTC:
    # "last month" is August there, July in UTC.
    turn = datetime(2026, 9, 1, 0, 5, tzinfo=PARIS)
    assert local_day("le mois dernier", turn)[:7] == "2026-08"
    assert local_day("yesterday", turn) == "2026-08-31"
