"""Time as said, end to end: a dated turn captured at the speaker's offset, consolidated on the
real database, holds from the moment its words name (``providers.extraction.when``), for the
composed forms, two dated facts in one turn, ties read by structure and a verb typed in a hurry."""

from __future__ import annotations

from typing import Any

import pytest

PROJECT = "timesaid"


async def _facts_after(client, subject: str, when: str, text: str) -> list[dict[str, Any]]:
    event = {
        "project_id": PROJECT,
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": when,
        "payload": {"text": text},
    }
    assert (await client.post("/v1/capture", json={"events": [event]})).status_code == 202
    scope = {"project_id": PROJECT, "subject_id": subject}
    r = await client.post("/v1/consolidate/subject", params=scope)
    assert r.status_code == 200 and r.json()["waited"]["failed"] == [], r.text
    r = await client.get("/v1/facts", params=scope)
    assert r.status_code == 200, r.text
    return [f for f in r.json()["facts"] if f["status"] == "active"]


@pytest.mark.parametrize(
    ("said_at", "text", "predicate", "value", "since"),
    [
        # Three weeks before a Monday in Paris: a day.
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
    assert by_predicate["employer"]["valid_from"].startswith("2026-11-11")
