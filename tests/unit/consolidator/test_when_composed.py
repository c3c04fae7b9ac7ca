"""Times said in composed forms (``providers.extraction.when``, ``when_words``), each fact's own
moment, states dated by the change beside them, ties read by structure (``patterns_ties``) and
dated events typed in a hurry (``respell``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from haki.providers.extraction.rules import dated, extract_payload
from haki.providers.extraction.when import past_span, resolve

NEW_YORK = timezone(timedelta(hours=-5))
# A Wednesday evening in November, in the speaker's offset (already Thursday in UTC).
AT = datetime(2026, 11, 18, 21, 30, tzinfo=NEW_YORK)


def within(sentence: str, wanted: str, at: datetime = AT) -> bool:
    """The moment ``sentence`` names, on the speaker's clock, starts with ``wanted``
    (a day, a month or a year); a week is given as ``W`` + its Monday."""
    value = sentence.split("Lyon", 1)
    at_value = len(value[0])
    span = past_span(sentence, at_value, at_value + 4)
    moment = resolve(span, at) if span else None
    if moment is None:
        return False
    day = moment.astimezone(at.tzinfo).date()
    if wanted.startswith("W"):
        return (day - timedelta(days=day.weekday())).isoformat() == wanted[1:]
    return day.isoformat().startswith(wanted)


@pytest.mark.parametrize(
    ("sentence", "wanted"),
    [
        # Amounts: approximate, in words, with a half.
        ("I moved to Lyon about three months ago", "2026-08"),
        ("I moved to Lyon like 3 months ago", "2026-08"),
        ("j'ai emménagé à Lyon il y a environ trois mois", "2026-08"),
        ("j'ai emménagé à Lyon il y a presque deux ans", "2024"),
        ("j'ai emménagé à Lyon il y a vingt ans", "2006"),
        ("I moved to Lyon eighteen months ago", "2025-05"),
        ("I moved to Lyon a year and a half ago", "2025-05"),
        ("j'ai emménagé à Lyon il y a un an et demi", "2025-05"),
        ("I moved to Lyon a decade ago", "2016"),
        ("I moved to Lyon a couple weeks back", "W2026-11-02"),
        # A part of a period keeps the period.
        ("I moved to Lyon at the end of last month", "2026-10"),
        ("I moved to Lyon early last year", "2025"),
        ("j'ai emménagé à Lyon fin du mois dernier", "2026-10"),
        ("j'ai emménagé à Lyon au début de l'année dernière", "2025"),
        ("j'ai emménagé à Lyon fin 2024", "2024"),
        ("I moved to Lyon in early 2024", "2024"),
        ("j'habite à Lyon depuis le début de l'année", "2026"),
        # Periods gone by, said other ways.
        ("j'ai emménagé à Lyon l'an passé", "2025"),
        ("I moved to Lyon the year before last", "2024"),
        ("I moved to Lyon last yr", "2025"),
        ("I moved to Lyon this past weekend", "2026-11-14"),
        ("j'ai emménagé à Lyon ce week-end", "2026-11-14"),
        ("j'ai emménagé à Lyon en début de semaine", "W2026-11-16"),
        ("I moved to Lyon today", "2026-11-18"),
        # Months: short, "this", of the latest year not after the turn.
        ("I moved to Lyon in Sept", "2026-09"),
        ("I moved to Lyon in Dec", "2025-12"),
        ("I moved to Lyon this January", "2026-01"),
        # A day of the month, the latest not after the turn.
        ("I moved to Lyon on the 3rd", "2026-11-03"),
        ("I moved to Lyon on the 22nd", "2026-10-22"),
        ("I moved to Lyon on November 3rd", "2026-11-03"),
        ("j'ai emménagé à Lyon le 1er mars", "2026-03-01"),
        # As typed in a chat.
        ("y a deux semaines j'ai emménagé à Lyon", "W2026-11-02"),
        ("ya 3 mois j'ai emménagé à Lyon", "2026-08"),
        ("j'ai emménagé à Lyon voilà deux ans", "2024"),
        ("I moved to Lyon couple weeks ago", "W2026-11-02"),
        ("I moved to Lyon yday", "2026-11-17"),
        ("I moved to Lyon last Fri", "2026-11-13"),
        ("I moved to Lyon Saturday night", "2026-11-14"),
        ("I moved to Lyon two nights ago", "2026-11-16"),
    ],
)
def test_composed_forms_are_read_on_the_speakers_clock(sentence, wanted):
    assert within(sentence, wanted)


@pytest.mark.parametrize(
    "sentence",
    ["I go to Lyon every Monday", "I'm moving to Lyon next Friday", "I stay in Lyon until Sunday"],
)
def test_a_weekday_of_a_habit_or_a_plan_names_no_past(sentence):
    assert past_span(sentence) is None


def facts(text: str, at: datetime = AT) -> dict[tuple[str, str], str | None]:
    """(predicate, value) → the local day each fact holds from, for ``text`` said at ``at``."""
    out = {}
    for c in dated(extract_payload({"text": text}), at):
        if not c.retract:
            day = c.valid_from.astimezone(at.tzinfo).date().isoformat() if c.valid_from else None
            out[(c.predicate, str(c.value))] = day
    return out


def test_each_fact_of_a_turn_takes_its_own_moment():
    got = facts("I moved to Austin last year and started at Dell two weeks ago")
    assert got[("home_city", "Austin")].startswith("2025")
    assert got[("employer", "Dell")] == "2026-11-04"
    got = facts("On a emménagé à Lille en janvier et j'ai commencé chez Auchan le mois dernier")
    assert got[("home_city", "Lille")].startswith("2026-01")
    assert got[("employer", "Auchan")].startswith("2026-10")


def test_a_value_named_in_two_clauses_takes_the_moment_of_the_clause_that_states_it():
    got = facts("On a visité Lyon en 2019 et on a emménagé à Lyon le mois dernier.")
    assert got[("home_city", "Lyon")].startswith("2026-10")
    got = facts("I visited Porto in 2019 and I moved to Porto last month")
    assert got[("home_city", "Porto")].startswith("2026-10")


def test_a_state_holds_from_the_change_told_beside_it():
    assert facts("I work at Deloitte now, joined in April")[("employer", "Deloitte")].startswith(
        "2026-04"
    )
    got = facts("j'ai arrêté la viande le mois dernier, je suis végétarienne maintenant")
    assert got[("diet", "vegetarian")].startswith("2026-10")
    # A past that is no change dates nothing.
    assert facts("I live in Lyon, I saw a movie yesterday")[("home_city", "Lyon")] is None
    # A leading "since <moment>," dates the sentence.
    got = facts("Depuis la semaine dernière, je suis en télétravail le vendredi")
    assert got[("schedule", "en télétravail le vendredi")] == "2026-11-09"


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Me and Daniel got married three weeks ago", ("spouse", "Daniel")),
        ("Sofia et moi on s'est mariés il y a 5 ans", ("spouse", "Sofia")),
        ("Inès et moi on est ensemble depuis 4 ans", ("partner", "Inès")),
        ("Got engaged to Marco on Saturday!!!", ("partner", "Marco")),
        ("got hitched last year to my boyfriend Sam", ("spouse", "Sam")),
        ("my boyfriend and I broke up the day before yesterday", ("relationship_status", "single")),
        ("il y a quatre mois on a adopté Moka, notre golden", ("pet", "Moka")),
        ("we got a kelpie pup at the start of last month, named her Tilly", ("pet", "Tilly")),
        (
            "I enrolled in a nursing degree at the end of last month",
            ("occupation", "nursing student"),
        ),
        ("I started a part-time MBA at UCLA in January", ("occupation", "MBA student")),
        ("Mardi j'ai rejoint l'équipe de Mistral", ("employer", "Mistral")),
        ("depuis lundi je suis en CDI chez Qonto", ("employer", "Qonto")),
        ("We joined the local tennis club last week", ("member_of", "local tennis club")),
        ("I married my partner Alex in 2020", ("spouse", "Alex")),
        ("Just moved into a new place in Leeds last week", ("home_city", "Leeds")),
        ("j'ai un chat depuis l'été dernier, il s'appelle Filou", ("pet", "Filou")),
        ("Adopted a kitten yesterday! Named him Ziggy", ("pet", "Ziggy")),
        ("Just wanted to say we moved to Bristol last month", ("home_city", "Bristol")),
        ("started a pottery class 3 weeks ago", ("hobby", "pottery")),
        ("Hired as a data scientist at Criteo last Tuesday", ("employer", "Criteo")),
        ("je suis chez Thales depuis 2020", ("employer", "Thales")),
        ("My girlfriend Ana and I got together last summer.", ("partner", "Ana")),
    ],
)
def test_ties_are_read_from_who_did_what_with_whom(text, fact):
    got = facts(text)
    assert fact in got and got[fact] is not None


@pytest.mark.parametrize(
    "text",
    [
        "Mom and I got together for lunch yesterday",
        "She broke up with him last week",
        "I stared at Tom yesterday",
        "Startd learning Korean",  # no moment: nothing says an event, nothing is set right
        "je suis chez Paul depuis lundi",  # a stay, not a tenure
    ],
)
def test_look_alikes_give_no_tie(text):
    assert not {p for p, _ in facts(text)} & {
        "partner",
        "spouse",
        "relationship_status",
        "employer",
        "learning",
    }


def test_a_dated_event_typed_in_a_hurry_is_read():
    at = datetime(2026, 10, 9, 9, tzinfo=timezone(timedelta(hours=9)))
    got = facts("Startd learning Korean three months ago, it's way harder than I thought", at)
    assert got[("learning", "Korean")].startswith("2026-07")
    at = datetime(2026, 11, 2, 7, 30, tzinfo=timezone(timedelta(hours=1)))
    got = facts("j'ai démnagé à Genève fin du mois dernier pour le boulot", at)
    assert got[("home_city", "Genève")].startswith("2026-10")
