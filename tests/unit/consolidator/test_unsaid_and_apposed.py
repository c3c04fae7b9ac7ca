"""Statements typed as in a chat: an unsaid speaker, a job headed by its field, a name in
apposition, a tie begun (``restatements``, ``patterns_en``, ``patterns_ties``, ``rules``).

Each mechanism has positives in several shapes and the look-alikes it must leave alone.
"""

from datetime import date, datetime

import pytest
from dated_reading import facts_since

from haki.providers.extraction.meaning_facts import guarded, readable
from haki.providers.extraction.restatements import apposed, named_in_apposition, plainly
from haki.providers.extraction.rules import extract_payload
from haki.providers.extraction.when import moment_of_value

# Wednesday 2026-09-16, evening in Montréal.
AT = datetime.fromisoformat("2026-09-16T19:30:00-04:00")


def facts(text: str) -> set[tuple[str, str]]:
    return {(c.predicate, str(c.value)) for c in extract_payload({"text": text}) if not c.retract}


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("switched careers last month", "I switched careers last month"),
        ("finished my thesis in May", "I finished my thesis in May"),
        ("been living in Austin since 2022", "I've been living in Austin since 2022"),
        ("Been vegan for a year", "I've been vegan for a year"),
        # A word that only ends in "ed", and a birthday, whose own rule knows whose it is.
        ("Need a break", "Need a break"),
        ("Turned 40 degrees today", "Turned 40 degrees today"),
        ("Remind me tomorrow", "Remind me tomorrow"),
    ],
)
def test_a_past_verb_or_been_opening_a_statement_has_the_speaker_unsaid(text, plain):
    assert plainly(text) == plain


@pytest.mark.parametrize(
    ("text", "fact", "since"),
    [
        (
            "been living in Austin since 2022 and I started at Dell 2 months ago",
            ("home_city", "Austin"),
            date(2022, 1, 1),
        ),
        (
            "switched careers last month, I'm a product designer now",
            ("occupation", "product designer"),
            date(2026, 8, 1),
        ),
        (
            "started cello lessons last Tuesday, my neighbors hate me",
            ("learning", "cello"),
            date(2026, 9, 15),
        ),
    ],
)
def test_a_clause_with_its_speaker_unsaid_states_a_dated_fact(text, fact, since):
    assert facts_since(text, AT).get(fact) == since


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("I'm a product designer now", "product designer"),
        ("I'm a backend engineer at Stripe", "backend engineer"),
        ("I'm an ER nurse", "er nurse"),
        ("I'm now a high school teacher", "high school teacher"),
    ],
)
def test_a_known_job_headed_by_its_field_is_the_occupation(text, job):
    assert ("occupation", job) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm a terrible cook",
        "I'm an amateur photographer",
        "I'm an aspiring writer",
        "I'm a really careful driver",
        "I'm a lawyer's daughter",
        "I'm married to a software engineer",
    ],
)
def test_a_job_judged_wished_or_someone_elses_is_no_occupation(text):
    assert not {p for p, _ in facts(text)} & {"occupation"}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "on saturday i joined a book club, the Ponsonby Readers, and i love it",
            ("member_of", "Ponsonby Readers"),
        ),
        ("j'ai acheté une voiture électrique, une Renault Zoé", ("owns", "Renault Zoé")),
        ("I joined the union at work, Teamsters Local 2785", ("member_of", "Teamsters Local 2785")),
    ],
)
def test_a_name_in_apposition_is_stored_and_not_the_phrase_it_names(text, fact):
    read = facts(text)
    assert fact in read
    # One club, one car: the phrase the name stands for is not a second value.
    assert [v for p, v in read if p == fact[0]] == [fact[1]]


def test_apposition_needs_a_name_after_the_comma():
    assert named_in_apposition("I moved to a new flat, Paris is expensive") == []
    assert apposed("I live in a small town, it's quiet") is None
    assert apposed("j'ai une voiture, une Clio") == ("une voiture", "Clio")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I've been seeing Tom since March", ("partner", "Tom")),
        ("I got together with Tom last year", ("partner", "Tom")),
        ("on s'est mis ensemble avec Karim il y a 3 semaines", ("partner", "Karim")),
        ("je me suis mise en couple avec Karim", ("partner", "Karim")),
        ("Tom and I started dating last year", ("partner", "Tom")),
    ],
)
def test_a_tie_begun_or_running_to_now_names_the_partner(text, fact):
    assert fact in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Tom and I started dating last year",
        "I started smoking two years ago",
        "I've been seeing a therapist since March",
    ],
)
def test_a_tie_or_a_habit_is_no_pastime_nor_partner_without_a_name(text):
    read = facts(text)
    assert not any(p == "hobby" for p, _ in read)
    assert "therapist" not in {v for _, v in read}


@pytest.mark.parametrize(
    ("text", "convention"),
    [
        ("quit my job at Amazon last friday", False),
        ("quit adding emojis to every answer", True),
    ],
)
def test_quit_orders_only_over_a_gerund(text, convention):
    assert any(p == "convention" for p, _ in facts(text)) is convention


@pytest.mark.parametrize(
    ("sentence", "value", "moment"),
    [
        # The change nearest the state, dated by the moment after its verb.
        (
            "been living in Austin since 2022 and switched careers last month, "
            "I'm a product designer now",
            "product designer",
            "last month",
        ),
        # Said before its verb, the change's moment still dates the state.
        ("last month I switched careers, I'm a designer now", "designer", "last month"),
        ("I broke up with him last month, so I'm single", "single", "last month"),
    ],
)
def test_a_state_told_after_a_change_holds_from_that_changes_moment(sentence, value, moment):
    assert moment_of_value(sentence, sentence.lower(), value) == moment


@pytest.mark.parametrize(
    ("sentence", "guarded_"),
    [
        ("Hier j'ai vu un chien qui s'appelait Rex", True),
        ("I met a dog named Rex at the park today", True),
        ("Mon chien s'appelle Rex", False),
    ],
)
def test_an_animal_met_is_no_pet_of_the_speakers(sentence, guarded_):
    assert guarded("pet", sentence) is guarded_


@pytest.mark.parametrize(
    ("text", "fact", "since"),
    [
        ("I'm now working at Netflix, since last month", ("employer", "Netflix"), date(2026, 8, 1)),
        ("j'habite à Lyon, depuis janvier", ("home_city", "Lyon"), date(2026, 1, 1)),
    ],
)
def test_a_clause_that_is_only_a_time_dates_the_statement_before_it(text, fact, since):
    assert facts_since(text, AT).get(fact) == since


def test_a_clause_with_more_than_a_time_leaves_the_statement_before_it_undated():
    assert (
        facts_since("I live in Lyon, last year I was in Paris", AT).get(("home_city", "Lyon"))
        is None
    )


def test_the_fact_reader_reads_a_statement_whose_speaker_goes_unsaid():
    assert readable("started keto last monday")
    # A past verb alone makes the sentence readable; the guards and the typed
    # value decide what it states.
    assert readable("Rained all day yesterday")
    assert not readable("Sounds great, see you then")


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I joined Nubank last year, backend team", "employer", "Nubank"),
        ("joined Criteo in March as a data engineer", "employer", "Criteo"),
        # A club, or a team one plays in, stays a membership.
        ("I joined the Tigers last year, great team", "member_of", "Tigers"),
        ("I joined Arsenal supporters club as a member", "member_of", "Arsenal supporters club"),
    ],
)
def test_an_organisation_joined_is_an_employer_when_the_work_is_named(text, predicate, value):
    read = facts(text)
    assert (predicate, value) in read
    assert ("employer" in {p for p, _ in read}) is (predicate == "employer")
