"""Readings of a sentence past its wrappers (``providers.extraction.readings``), life
events read from their structure (``patterns_life``) and corrections that name no
old value (``HELD``), without a database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from haki.consolidator.identity import FactView, Newcomer, resolve
from haki.providers.extraction.readings import first_person, readings, without_time
from haki.providers.extraction.rules import dated, extract_payload
from haki.providers.extraction.types import HELD

AT = datetime(2026, 6, 17, 7, 30, tzinfo=UTC)  # a Wednesday


def facts(text: str) -> dict[str, tuple[Any, str | None]]:
    return {
        c.predicate: (c.value, c.valid_from.date().isoformat() if c.valid_from else None)
        for c in dated(extract_payload({"text": text}), AT)
        if not c.retract
    }


def test_a_past_moment_is_cut_out_with_its_comma():
    assert without_time("Two weeks ago, I adopted a cat.") == ("I adopted a cat.", "Two weeks ago")
    assert without_time("Ça fait trois mois que je bosse chez Free.") == (
        "Je bosse chez Free.",
        "Ça fait trois mois",
    )
    assert without_time("I adopted a cat.") is None


def test_a_shared_subject_of_a_life_event_is_the_speaker_and_other_verbs_keep_theirs():
    assert first_person("My husband and I moved to Grenoble.") == "I moved to Grenoble."
    assert first_person("Mon copain et moi, on a emménagé à Lille.") == "j'ai emménagé à Lille."
    assert first_person("We use tabs in our Go code.") == "We use tabs in our Go code."
    assert readings("Change of plan: no meetings before 11am.") == [
        ("No meetings before 11am.", None)
    ]


@pytest.mark.parametrize(
    ("text", "predicate", "value", "day"),
    [
        ("Three weeks ago we adopted a puppy called Biscuit.", "pet", "Biscuit", "2026-05-27"),
        ("This morning I adopted a rabbit named Noisette.", "pet", "Noisette", "2026-06-17"),
        ("I got a kitten last weekend, her name is Pixel.", "pet", "Pixel", "2026-06-13"),
        ("Since Monday I've been working at Airbus.", "employer", "Airbus", "2026-06-15"),
        ("Last Friday was my first day at Qonto.", "employer", "Qonto", "2026-06-12"),
        ("I married Julia two years ago.", "spouse", "Julia", "2024-06-17"),
        ("I switched to a vegan diet two months ago.", "diet", "vegan", "2026-04-17"),
        ("Avant-hier, j'ai adopté un chaton nommé Filou.", "pet", "Filou", "2026-06-15"),
        ("J'ai commencé chez Decathlon le mois dernier.", "employer", "Decathlon", "2026-05-01"),
        ("On s'est mariés en mai.", "relationship_status", "married", "2026-05-01"),
    ],
)
def test_a_life_event_behind_a_date_is_read_and_dated(text, predicate, value, day):
    assert facts(text)[predicate] == (value, day)


def test_a_date_in_another_clause_does_not_date_a_plain_fact():
    assert facts("I live in Lyon and I saw a movie yesterday.")["home_city"] == ("Lyon", None)


@pytest.mark.parametrize(
    "text",
    [
        "Two weeks ago I went to a concert in Lyon.",
        "My friend adopted a cat named Olive last month.",
        "Last week I watched a film about a dog named Hachiko.",
        "Please send the report to bob@partner.example, my boss wants it.",
        "Call my new number if you need me.",
    ],
)
def test_look_alikes_state_nothing(text):
    assert facts(text) == {}


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("Please give me distances in kilometres.", "units", "metric"),
        ("Utilise le système métrique, s'il te plaît.", "units", "metric"),
        ("Pas de réunion avant 10h, merci.", "schedule", "Pas de réunion avant 10h"),
        ("Je ne prends pas d'appels après 18h.", "schedule", "pas d'appels après 18h"),
        ("I changed my number, it's now 07 98 76 54 32.", "phone", "07 98 76 54 32"),
        (
            "I switched email addresses, use jb@mailbox.example instead.",
            "email",
            "jb@mailbox.example",
        ),
    ],
)
def test_everyday_settings(text, predicate, value):
    assert facts(text)[predicate][0] == value


def _view(predicate: str, value: str, **qualifiers: Any) -> FactView:
    return FactView(
        uuid.uuid4(), predicate, value, qualifiers, "active", AT, "trusted", (uuid.uuid4(),)
    )


def _new(predicate: str, value: str) -> Newcomer:
    return Newcomer(predicate, value, {}, uuid.uuid4(), AT + timedelta(days=1), "trusted")


def test_a_correction_naming_no_old_value_supersedes_the_one_value_held():
    [emmy] = extract_payload({"text": "Sorry, typo: my sister's name is Emmy."})
    assert emmy.corrects is HELD
    emma = _view("sister", "Emma")
    res = resolve(_new("sister", "Emmy"), {emma.key: emma}, corrects=HELD)
    assert (res.action, res.incumbent) == ("supersede", emma)


def test_with_two_values_held_nothing_says_which_was_wrong():
    held = [_view("sister", "Emma"), _view("sister", "Emmi")]
    res = resolve(_new("sister", "Emmy"), {f.key: f for f in held}, corrects=HELD)
    assert (res.action, res.incumbent) == ("insert", None)


def test_a_held_correction_of_a_many_valued_predicate_replaces_only_what_it_respells():
    emma, zoe = _view("sister", "Emma"), _view("sister", "Zoe")
    res = resolve(_new("sister", "Emmy"), {emma.key: emma, zoe.key: zoe}, corrects=HELD)
    assert (res.action, res.incumbent) == ("supersede", emma)


def test_a_plain_statement_corrects_nothing_it_does_not_say_was_wrong():
    [cat] = extract_payload({"text": "My cat is called Nala."})
    assert cat.corrects is None


def test_leaving_a_job_and_joining_another_is_an_employer_correction():
    cands = extract_payload(
        {"text": "I don't work at Renault anymore, I joined Stellantis last month."}
    )
    assert [(c.predicate, c.value, c.corrects) for c in cands] == [
        ("employer", "Stellantis", "Renault")
    ]
    [sfr] = extract_payload({"text": "J'ai quitté Orange, maintenant je suis chez SFR."})
    assert (sfr.predicate, sfr.value, sfr.corrects) == ("employer", "SFR", "Orange")
    [club] = extract_payload({"text": "I joined the chess club."})
    assert club.predicate == "member_of"


@pytest.mark.parametrize(
    ("words", "day"),
    [
        ("il y a quinze jours", "2026-06-03"),
        ("a fortnight ago", "2026-06-03"),
        ("over the weekend", "2026-06-13"),
        ("le weekend dernier", "2026-06-13"),
        ("mi-mars", "2026-03-01"),
        ("depuis 5 ans", "2021-06-17"),
        ("for the past two years", "2024-06-17"),
        ("earlier this month", "2026-06-01"),  # only the month is said
        ("depuis lundi", "2026-06-15"),
        ("depuis mars", "2026-03-01"),
    ],
)
def test_more_ways_of_saying_a_past_moment(words, day):
    assert facts(f"I moved to Lyon {words}.")["home_city"] == ("Lyon", day)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Last month we got a dog, his name is Bruno.", {"pet": ("Bruno", "2026-05-01")}),
        ("We welcomed a baby boy last week named Leo.", {"son": ("Leo", "2026-06-08")}),
        ("I was hired by Criteo two weeks ago.", {"employer": ("Criteo", "2026-06-03")}),
        ("I've lived in Lisbon since 2020.", {"home_city": ("Lisbon", "2020-01-01")}),
        ("J'ai intégré Capgemini en septembre.", {"employer": ("Capgemini", "2025-09-01")}),
        ("I joined Google as an engineer last year.", {"employer": ("Google", "2025-01-01")}),
        ("I started working for Shopify a month ago.", {"employer": ("Shopify", "2026-05-17")}),
        (
            "I got a new phone number last week: 06 44 55 66 77.",
            {"phone": ("06 44 55 66 77", "2026-06-08")},
        ),
        ("Je suis passée à Paris hier.", {}),
    ],
)
def test_one_reading_per_event(text, expected):
    # The named pet, not also its kind; an employer, not also a club or a
    # pastime; a number one gets is no thing one owns.
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I left Airbus early today to pick up the kids.",
        "I left Airbus a voicemail.",
        "J'ai quitté Orange à 18h hier.",
    ],
)
def test_leaving_a_place_for_the_day_ends_no_employer(text):
    assert not [c for c in extract_payload({"text": text}) if c.predicate == "employer"]


@pytest.mark.parametrize(
    "text",
    ["I left Airbus.", "I left Airbus last month to join Renault.", "I quit my job at Renault."],
)
def test_leaving_a_job_ends_its_employer(text):
    [left] = [c for c in extract_payload({"text": text}) if c.predicate == "employer"]
    assert left.retract


def test_a_held_correction_of_a_many_valued_predicate_adds_a_value():
    # "Sorry, my mistake: I also like jazz." says nothing about the hiking held.
    hiking = _view("likes", "hiking")
    res = resolve(_new("likes", "jazz"), {hiking.key: hiking}, corrects=HELD)
    assert (res.action, res.incumbent) == ("insert", None)


def test_a_long_run_of_spaces_is_cut_in_linear_time():
    text, said = without_time("Two weeks ago" + " " * 20_000 + ", I adopted a cat.")
    assert (text, said) == ("I adopted a cat.", "Two weeks ago")
