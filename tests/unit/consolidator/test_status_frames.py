"""Work status and activities said as an event or a duration, read by frame
(``providers.extraction.patterns_status``), and the costs the frame keeps out."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from haki.providers.extraction.place_names import known_place
from haki.providers.extraction.rules import dated, extract_payload

# A Thursday noon in New York.
AT = datetime(2026, 7, 2, 12, 0, tzinfo=timezone(timedelta(hours=-4)))


def read(text: str) -> dict[str, tuple[object, str | None]]:
    """predicate -> (value, local day it holds from) of what ``text`` states."""
    return {
        c.predicate: (
            c.value,
            None if c.valid_from is None else c.valid_from.astimezone(AT.tzinfo).date().isoformat(),
        )
        for c in dated(extract_payload({"text": text}), AT)
    }


@pytest.mark.parametrize(
    ("text", "predicate", "value", "since"),
    [
        # A tenure at an organisation, with the work done there.
        ("I've been at Spotify for two years now, backend mostly.", "employer", "Spotify", "2024"),
        ("been working remotely for Shopify since january", "employer", "Shopify", "2026-01"),
        ("I've been teaching at Lincoln High for 5 years", "employer", "Lincoln High", "2021"),
        # An occupation by the activity, its start told in a "since" clause.
        (
            "since i quit the bank in february ive been freelancing as a translator",
            "occupation",
            "translator",
            "2026-02",
        ),
        ("Started working as a barista last month", "occupation", "barista", "2026-06"),
        # A business of one's own, by its name in the naming clause after.
        (
            "i registered my own company last thursday, it's called Lantern Works",
            "employer",
            "Lantern Works",
            "2026-06-25",
        ),
        (
            "j'ai créé ma boîte en janvier, elle s'appelle Kiwi Studio",
            "employer",
            "Kiwi Studio",
            "2026-01",
        ),
        # A contract signed, after the fillers a chat opens with, before a question.
        (
            "bon ben j'ai signé mon CDI chez Airbus lundi dernier, tu m'aides ?",
            "employer",
            "Airbus",
            "2026-06-29",
        ),
        (
            "I got my first job as a barista at Starbucks last week",
            "employer",
            "Starbucks",
            "2026-06-2",
        ),
        ("je suis passée en CDI chez Thales le mois dernier", "employer", "Thales", "2026-06"),
        (
            "je bosse en freelance comme traductrice depuis mars",
            "occupation",
            "traductrice",
            "2026-03",
        ),
        # A pastime begun, its days a schedule from the same month.
        (
            "started volunteering at the food bank on saturday mornings about a month ago",
            "schedule",
            "volunteering at food bank on saturday mornings",
            "2026-06",
        ),
        # A known place in lower case; a return that lasts.
        ("i moved to osaka a couple of months ago for work", "home_city", "Osaka", "2026-05"),
        ("j'ai emménagé à lyon le mois dernier", "home_city", "Lyon", "2026-06"),
        (
            "je suis rentrée en Martinique avant-hier après 10 ans à Paris",
            "home_city",
            "Martinique",
            "2026-06-30",
        ),
        # A bracketed detail ends the activity.
        (
            "Been learning Japanese for about three months now (duolingo + a tutor) and kanji is hard.",
            "learning",
            "Japanese",
            "2026-04",
        ),
    ],
)
def test_a_status_said_as_an_event_or_a_duration_holds_from_its_words(
    text, predicate, value, since
):
    found = read(text)
    assert predicate in found, found
    said, day = found[predicate]
    assert said == value and day is not None and day.startswith(since), found


@pytest.mark.parametrize(
    "text",
    [
        # Someone else's job, business, contract or move.
        "my wife has been working at IBM for 5 years",
        "my dad founded a company called Nimbus in 1990",
        "he signed his contract with Ubisoft",
        "my sister moved to berlin last year",
        "ma sœur bosse en freelance comme traductrice",
        "il est passé en CDI chez Thales",
        # Hypotheticals, wishes and plans.
        "If I got a job at Google I'd be so happy",
        "I hope to start my own company called Nimbus",
        "I'd love to move to osaka",
        # A stay, a person, an hour: no tenure.
        "we've been at Center Parcs for two weeks",
        "I've been with Tom for two years",
        "I've been at Heathrow since 6am",
        # A trip's return is no move.
        "je suis rentrée à Paris hier soir",
        # A lower-case word that names no known place.
        "I moved to a new flat last week",
    ],
)
def test_other_people_hypotheticals_and_visits_state_no_status(text):
    found = read(text)
    assert not {"employer", "occupation", "home_city"} & found.keys(), found


def test_a_present_pastime_with_its_days_is_left_to_the_habit_reading():
    # "I volunteer … on Saturdays" is a habit, not a pastime told as begun.
    assert "schedule" not in read("I volunteer at the food bank on Saturdays.")


def test_a_place_in_lower_case_is_known_by_its_longest_leading_words():
    assert known_place("new york for work") == "New York"
    assert known_place("osaka a couple") == "Osaka"
    assert known_place("a new flat") is None
