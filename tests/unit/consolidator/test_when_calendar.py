"""Seasons, holidays, weekdays and lasting states as said (``providers.extraction.when``)
and the perfect of "be" read as the state it still is (``providers.extraction.readings``)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from haki.providers.extraction.readings import readings
from haki.providers.extraction.rules import dated, extract_payload
from haki.providers.extraction.when import past_span, resolve
from haki.providers.extraction.when_calendar import latest_day_of_month

PARIS_WINTER = timezone(timedelta(hours=1))
# A Wednesday evening in February, in the speaker's offset.
AT = datetime(2027, 2, 10, 20, 15, tzinfo=PARIS_WINTER)


def local_day(span: str, at: datetime = AT) -> str | None:
    moment = resolve(span, at)
    return None if moment is None else moment.astimezone(at.tzinfo).date().isoformat()


@pytest.mark.parametrize(
    ("sentence", "span", "day"),
    [
        ("We moved to Porto last summer.", "last summer", "2026-06-01"),
        ("On a déménagé à Nantes l'été dernier.", "l'été dernier", "2026-06-01"),
        ("Cet hiver j'ai commencé le ski de fond.", "Cet hiver", "2026-12-01"),
        ("this winter I went vegetarian", "this winter", "2026-12-01"),
        ("Au printemps dernier, je suis devenue infirmière.", "Au printemps dernier", "2026-03-01"),
        ("I got engaged to Priya last Christmas!", "last Christmas", "2026-12-25"),
        ("À Noël on s'est fiancés avec Julien.", "À Noël", "2026-12-25"),
        ("Depuis le nouvel an je suis végane.", "Depuis le nouvel an", "2027-01-01"),
        ("Depuis la rentrée, je bosse chez Thales.", "Depuis la rentrée", "2026-09-01"),
        ("I started at Deloitte on Monday.", "on Monday", "2027-02-08"),
        ("Vendredi j'ai emménagé à Rennes.", "Vendredi", "2027-02-05"),
        ("il ya 3 semaines j'ai commencé chez Doctolib", "il ya 3 semaines", "2027-01-20"),
        ("ca fait deux ans que je suis végétarien", "ca fait deux ans", "2025-02-10"),
        ("I've lived in Glasgow for three years now.", "for three years now", "2024-02-10"),
        ("I've been a teacher since back in 2019.", "since back in 2019", "2019-01-01"),
    ],
)
def test_calendar_words_are_read_against_the_turn(sentence, span, day):
    assert past_span(sentence) == span
    assert local_day(span) == day


def test_last_season_said_during_that_season_is_the_one_before():
    assert local_day("last winter") == "2025-12-01"  # said in February, a winter month
    assert local_day("this winter") == "2026-12-01"
    november = datetime(2026, 11, 19, 8, 40, tzinfo=PARIS_WINTER)
    assert local_day("last winter", november) == "2025-12-01"
    assert local_day("cet été", november) == "2026-06-01"


def test_easter_is_the_latest_one_not_after_the_turn():
    assert local_day("à Pâques", datetime(2027, 4, 20, 12, tzinfo=UTC)) == "2027-03-28"
    assert local_day("at Easter", datetime(2027, 3, 1, 12, tzinfo=UTC)) == "2026-04-05"


@pytest.mark.parametrize(
    "sentence",
    [
        "Je travaille le lundi.",  # a habit
        "Lundi prochain je commence chez Airbus.",  # a plan
        "I'm off to Spain for two weeks.",  # a span of time that is no start
        "Il y a un bail que je bosse chez Renault.",  # no date to read
        "The other day I started learning Korean.",
    ],
)
def test_habits_plans_and_vague_times_name_no_start(sentence):
    assert past_span(sentence) is None


def test_a_vague_time_keeps_the_fact_undated():
    [job] = dated(extract_payload({"text": "Il y a un bail que je bosse chez Renault."}), AT)
    assert (job.predicate, job.value, job.valid_from) == ("employer", "Renault", None)


def test_the_perfect_of_be_is_read_as_the_state_it_still_is():
    facts = dated(extract_payload({"text": "i've been vegan since september, feels good"}), AT)
    diet = [c for c in facts if c.predicate == "diet"]
    assert [c.value for c in diet] == ["vegan"]
    assert diet[0].valid_from is not None
    assert diet[0].valid_from.astimezone(PARIS_WINTER).date().isoformat() == "2026-09-01"
    [spouse] = [
        c
        for c in dated(extract_payload({"text": "Been married to Tom for five years now."}), AT)
        if c.predicate == "spouse"
    ]
    assert spouse.value == "Tom" and spouse.valid_from is not None
    assert spouse.valid_from.year == 2022


@pytest.mark.parametrize(
    "sentence", ["I've been to Japan twice.", "I've been in Lyon for a week.", "I've been there."]
)
def test_a_visit_is_not_read_as_a_state(sentence):
    assert all("I'm" not in text for text, _ in readings(sentence))


@pytest.mark.parametrize(
    ("sentence", "day"),
    [
        ("yesturday I adopted a cat named Olive", "2027-02-09"),
        ("I moved to Leeds lst month.", "2027-01-01"),
    ],
)
def test_a_misspelt_time_word_still_dates_its_fact(sentence, day):
    [fact] = dated(extract_payload({"text": sentence}), AT)
    assert fact.valid_from is not None
    assert fact.valid_from.astimezone(PARIS_WINTER).date().isoformat() == day


def test_a_word_merely_near_a_time_word_names_no_moment():
    assert past_span("I have at least a cat named Olive.") is None
    assert past_span("I moved to Leeds, it was a fast move.") is None


def test_one_year_said_in_the_singular_dates_a_leading_clause():
    [job] = dated(extract_payload({"text": "Il y a un an, je suis devenu professeur."}), AT)
    assert job.valid_from is not None and job.valid_from.year == 2026
    assert job.valid_from.astimezone(PARIS_WINTER).date().isoformat() == "2026-02-10"


def facts_of(text: str, at: datetime) -> list[tuple[str, object, str | None]]:
    out = dated(extract_payload({"text": text}), at)
    return [
        (c.predicate, c.value, c.valid_from.date().isoformat() if c.valid_from else None)
        for c in out
    ]


JAN = datetime(2026, 1, 10, 12, tzinfo=UTC)
JUNE = datetime(2026, 6, 10, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "I see my therapist at least monthly and I live in Lyon",
        "I moved to Lyon at least weekly",
        "I adopted a cat during the weekends",
    ],
)
def test_a_real_word_near_a_time_word_is_not_set_right(text):
    facts = facts_of(text, JAN)
    assert facts and all(day is None for _, _, day in facts)


def test_a_named_year_wins_over_a_duration():
    assert facts_of("I have lived in Berlin for two weeks in 2019", JUNE) == [
        ("home_city", "Berlin", "2019-01-01")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I've been married before",
        "I've been vegan in the past",
        "I've been a vegetarian until last year",
        "I've been a teacher for ten years but I quit in 2024",
        "My dad, been a doctor for 30 years, retired last year",
        "My sister, been a nurse since 2010, lives in Oslo",
    ],
)
def test_a_perfect_of_be_that_ended_or_is_someone_elses_is_no_state_of_the_speaker(text):
    predicates = {p for p, _, _ in facts_of(text, JUNE)}
    assert not predicates & {"relationship_status", "diet", "occupation"}


def test_the_perfect_of_be_is_read_only_up_to_the_clause_that_changes_it():
    assert facts_of("I've been a nurse, now I'm a teacher", JUNE) == [
        ("occupation", "teacher", None)
    ]


def test_last_christmas_said_on_christmas_day_is_the_year_before():
    days = {
        day
        for _, _, day in facts_of(
            "I got a new bike last Christmas", datetime(2026, 12, 25, 18, tzinfo=UTC)
        )
    }
    assert days == {"2025-12-25"}


def test_a_long_run_of_spaces_reads_as_one_space():
    spread = readings("Always" + " " * 20000 + "answer in French, from now on")
    assert spread == readings("Always answer in French, from now on")


def test_a_day_of_the_month_no_month_has_names_no_moment():
    # "the 0th" or "the 45th" is read as nothing, never as the day it was said.
    today = date(2026, 12, 7)
    assert latest_day_of_month(today, 0) is None
    assert latest_day_of_month(today, 45) is None
    assert latest_day_of_month(today, 31) == date(2026, 10, 31)
    assert latest_day_of_month(today, 7) == today
