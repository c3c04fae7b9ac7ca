"""Milestones of everyday life read by their verb, with their said time (``patterns_events``)."""

from datetime import date, datetime

import pytest
from dated_reading import facts_since

# Sunday 2026-12-06, morning in Paris.
AT = datetime.fromisoformat("2026-12-06T10:30:00+01:00")


def facts(text: str) -> dict[tuple[str, str], date | None]:
    return facts_since(text, AT)


@pytest.mark.parametrize(
    ("text", "fact", "since"),
    [
        ("Got promoted to tech lead two weeks ago", ("occupation", "tech lead"), "2026-11-"),
        ("J'ai été promu directeur le mois dernier.", ("occupation", "directeur"), "2026-11"),
        ("I finally bought a used van yesterday", ("owns", "used van"), "2026-12-05"),
        ("On s'est acheté une maison cet été", ("owns", "maison"), "2026-06"),
        ("Turns out I'm allergic to cats, found out in October", ("allergy", "cats"), None),
        ("I got diagnosed with a gluten allergy last year", ("allergy", "gluten"), "2025"),
        ("My wife gave birth to our son Max on Friday", ("son", "Max"), "2026-12-04"),
        ("Notre fille Alice est née hier", ("daughter", "Alice"), "2026-12-05"),
        ("We moved from Camden to Islington in March", ("home_city", "Islington"), "2026-03"),
        ("On a déménagé de Lyon à Annecy l'an dernier", ("home_city", "Annecy"), "2025"),
        ("I switched to the payments team last month", ("member_of", "payments team"), "2026-11"),
        ("We adopted a kitten on Monday, named her Pixel", ("pet", "Pixel"), "2026-11-30"),
        ("Started law school in September", ("occupation", "law student"), "2026-09"),
        (
            "Je suis en fac d'histoire depuis la rentrée",
            ("occupation", "étudiant en histoire"),
            "2026-09",
        ),
        ("Nina and I got engaged in August", ("partner", "Nina"), "2026-08"),
        ("Je me suis mariée avec Paul l'été dernier", ("spouse", "Paul"), "2026-06"),
    ],
)
def test_a_milestone_gives_the_fact_it_begins(text, fact, since):
    found = facts(text)
    assert fact in found, found
    if since is not None:
        assert found[fact] is not None and found[fact].isoformat().startswith(since)


@pytest.mark.parametrize(
    "text",
    [
        "My brother got promoted to team lead last week",
        "Should I buy a car this year?",
        "If I bought a house I'd want a garden",
        "We went to Lisbon last weekend",
        "Ma sœur a eu un bébé hier",
        "My daughter started medical school last month",
        "Mes parents ont déménagé de Paris à Nice cet été",
    ],
)
def test_other_peoples_news_questions_and_trips_give_no_milestone(text):
    found = facts(text)
    assert not any(p in {"occupation", "owns", "home_city", "son", "daughter"} for p, _ in found)


def test_a_second_pet_is_a_named_pet_not_a_thing_owned():
    found = facts("We got a second dog in May, a lab called Nala")
    assert ("pet", "Nala") in found
    assert not any(p == "owns" for p, _ in found)
