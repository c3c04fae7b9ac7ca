"""Time as said, end to end: a dated turn captured at the speaker's offset, consolidated on the
real database, holds from the moment its words name (``providers.extraction.when``), for the
composed forms, two dated facts in one turn, ties read by structure and a verb typed in a hurry."""

from __future__ import annotations

from typing import Any

import pytest

from said import facts_after

PROJECT = "timesaid"


async def _facts_after(client, subject: str, when: str, text: str) -> list[dict[str, Any]]:
    return await facts_after(client, PROJECT, subject, when, text)


@pytest.mark.parametrize(
    ("said_at", "text", "predicate", "value", "since"),
    [
        # Three weeks before a Monday in Paris: a day, in its week.
        (
            "2027-08-30T11:00:00+02:00",
            "Me and Daniel got married three weeks ago",
            "spouse",
            "Daniel",
            "2027-08-09",
        ),
        # A part of last month, with the verb misspelt.
        (
            "2026-11-02T07:30:00+01:00",
            "j'ai démnagé à Genève fin du mois dernier pour le boulot",
            "home_city",
            "Genève",
            "2026-10",
        ),
        # An approximate amount, the pet named before its kind.
        (
            "2026-09-09T17:00:00+02:00",
            "il y a environ quatre mois on a adopté Moka, notre golden",
            "pet",
            "Moka",
            "2026-05",
        ),
        # The state takes the moment of the change told after it; April of the year before.
        (
            "2027-01-20T18:00:00+01:00",
            "I work at Deloitte now, joined in April",
            "employer",
            "Deloitte",
            "2026-04",
        ),
        # Late evening in Chicago, already the next day in UTC; an amount with a half.
        (
            "2026-11-25T21:00:00-06:00",
            "We joined the local tennis club a year and a half ago",
            "member_of",
            "local tennis club",
            "2025-05",
        ),
    ],
)
async def test_a_composed_time_sets_when_the_fact_began(
    client, said_at, text, predicate, value, since
):
    subject = f"said-{predicate}-{since}"
    facts = await _facts_after(client, subject, said_at, text)
    [fact] = [f for f in facts if f["predicate"] == predicate]
    assert fact["value"] == value and fact["valid_from"].startswith(since), fact


async def test_each_fact_of_a_turn_holds_from_its_own_moment(client):
    # Said at 21:00 in Chicago, 03:00 the next day in UTC.
    facts = await _facts_after(
        client,
        "two-moments",
        "2026-11-25T21:00:00-06:00",
        "I moved to Austin last year and started at Dell two weeks ago",
    )
    by_predicate = {f["predicate"]: f for f in facts}
    assert by_predicate["home_city"]["valid_from"].startswith("2025")
    assert by_predicate["employer"]["value"] == "Dell"
    # Two weeks counted back from Wednesday 25 November: that day, in the week of Monday 9.
    assert by_predicate["employer"]["valid_from"].startswith("2026-11-11")
    assert by_predicate["employer"]["valid_from_grain"] == "week"
    assert by_predicate["home_city"]["valid_from_grain"] == "year"


async def test_the_packet_says_the_period_the_words_named(client):
    # "last month" said on 7 December 2026 names November, not 7 November.
    subject = "lyon-last-month"
    await _facts_after(client, subject, "2026-06-01T09:00:00+01:00", "I live in Paris.")
    facts = await _facts_after(
        client, subject, "2026-12-07T10:00:00+01:00", "I moved to Lyon last month"
    )
    [lyon] = [f for f in facts if f["predicate"] == "home_city"]
    assert lyon["value"] == "Lyon", facts
    assert lyon["valid_from"].startswith("2026-11-01") and lyon["valid_from_grain"] == "month"
    assert lyon["qualifiers"]["valid_from_grain"] == "month"
    # Paris held until Lyon began: the period's start, before the turn.
    scope = {"project_id": PROJECT, "subject_id": subject, "status": "superseded"}
    r = await client.get("/v1/facts", params=scope)
    [paris] = [f for f in r.json()["facts"] if f["value"] == "Paris"]
    assert paris["valid_to"] == lyon["valid_from"] and paris["valid_from_grain"] is None
    body = {"project_id": PROJECT, "subject_id": subject, "query": "Where do I live?"}
    r = await client.post("/v1/context", json=body)
    assert r.status_code == 200, r.text
    [served] = [f for f in r.json()["packet"]["facts"] if f["predicate"] == "home_city"]
    assert served["text"].endswith("(since November 2026)"), served
    assert served["valid_from_grain"] == "month"
    # A fact no time words dated keeps its day.
    plain = await _facts_after(client, "plain-day", "2026-12-07T10:00:00+01:00", "I live in Nice.")
    assert plain[0]["valid_from_grain"] is None
    body = {"project_id": PROJECT, "subject_id": "plain-day", "query": "Where do I live?"}
    r = await client.post("/v1/context", json=body)
    [nice] = r.json()["packet"]["facts"]
    assert nice["text"].endswith("(since 2026-12-07)") and nice["valid_from_grain"] is None
