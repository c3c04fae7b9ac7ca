"""Work status, activities and moves said as an event or a duration, end to end: captured at
the speaker's offset, consolidated on the real database, the fact holds from the moment its
words name (``providers.extraction.patterns_status``, ``when_aside``); another person's job
stores none."""

from __future__ import annotations

import pytest

from said import facts_after

PROJECT = "statusframe"


@pytest.mark.parametrize(
    ("said_at", "text", "predicate", "value", "since"),
    [
        # A tenure counted back from the turn: two years, that year.
        (
            "2026-07-02T10:10:00-04:00",
            "I've been at Spotify for two years now, backend mostly, and I'm thinking about "
            "switching teams.",
            "employer",
            "Spotify",
            "2024",
        ),
        # The start told in a "since" clause, the work by its activity.
        (
            "2027-04-11T23:55:00-03:00",
            "since i quit the bank in february ive been freelancing as a translator",
            "occupation",
            "translator",
            "2027-02",
        ),
        # A business named in the clause after its founding, dated by that clause.
        (
            "2025-04-17T22:45:00+08:00",
            "i registered my own company last thursday, it's called Lantern Works, so put that "
            "as the sender",
            "employer",
            "Lantern Works",
            "2025-04-10",
        ),
        # A known place in lower case, late at night in Osaka (the day before in UTC).
        (
            "2026-01-25T02:15:00+09:00",
            "anyway i moved to osaka a couple of months ago for work",
            "home_city",
            "Osaka",
            "2025-11",
        ),
        # A season with its year.
        (
            "2026-09-29T18:00:00+01:00",
            "so ive been a member of the Riverside Rowing Club since spring 2024 and they asked "
            "me to write the newsletter",
            "member_of",
            "Riverside Rowing Club",
            "2024-03",
        ),
    ],
)
async def test_a_status_said_by_its_event_holds_from_its_words(
    client, said_at, text, predicate, value, since
):
    facts = await facts_after(client, PROJECT, f"frame-{predicate}-{since}", said_at, text)
    [fact] = [f for f in facts if f["predicate"] == predicate]
    assert fact["value"] == value and fact["valid_from"].startswith(since), fact


async def test_another_persons_job_is_not_the_speakers(client):
    facts = await facts_after(
        client,
        PROJECT,
        "frame-other",
        "2026-07-02T10:10:00-04:00",
        "my wife has been working at IBM for 5 years and she wants a change",
    )
    assert not [f for f in facts if f["predicate"] in ("employer", "occupation")], facts
