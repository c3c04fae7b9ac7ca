"""Corrections read by the held value's type, a slip, a computed age and a thing
parted with, end to end through the API on a real database."""

from __future__ import annotations

from typing import Any

import pytest

from said import facts_after

P = "by-type"


async def _all(client, subject: str) -> list[tuple[str, Any, str]]:
    r = await client.get("/v1/facts", params={"project_id": P, "subject_id": subject})
    assert r.status_code == 200, r.text
    return sorted((f["predicate"], f["value"], f["status"]) for f in r.json()["facts"])


async def _doubted(client, subject: str) -> list[Any]:
    r = await client.get("/v1/conflicts", params={"project_id": P, "subject_id": subject})
    assert r.status_code == 200, r.text
    return [f["value"] for c in r.json()["conflicts"] if c["kind"] == "doubt" for f in c["facts"]]


@pytest.mark.parametrize(
    ("subject", "before", "after", "predicate", "old", "new"),
    [
        (
            "lang",
            "I'm learning German for my job, B1 exam in may",
            "dropped german, the job fell through. switched to italian because nonna does not speak english",
            "learning",
            "German for my job",
            "Italian",
        ),
        (
            "bass",
            "I play bass in a cover band, mostly 90s stuff",
            "hmm I think I said bass before? it's guitar, I only play bass when our bassist flakes. but yeah, guitar",
            "plays",
            "bass",
            "guitar",
        ),
        (
            "age",
            "I'm 27 and just starting to think about retirement savings",
            "it was my birthday last week so add a year lol, redo the projections pls",
            "age",
            27,
            28,
        ),
    ],
)
async def test_the_new_value_replaces_the_held_one(
    client, subject, before, after, predicate, old, new
):
    await facts_after(client, P, subject, "2026-03-01T09:00:00Z", before)
    active = await facts_after(client, P, subject, "2026-03-02T09:00:00Z", after)
    assert (predicate, new) in [(f["predicate"], f["value"]) for f in active]
    stored = await _all(client, subject)
    assert (predicate, old, "superseded") in stored
    assert (predicate, old, "active") not in stored


async def test_a_thing_parted_with_is_held_back_and_a_keep_turn_is_not(client):
    await facts_after(
        client,
        P,
        "line",
        "2026-03-01T09:00:00Z",
        "mon num c'est le 555-0134 si le formulaire le demande",
    )
    await facts_after(
        client,
        P,
        "line",
        "2026-03-02T09:00:00Z",
        "j'ai résilié ma ligne, plus de portable pour l'instant",
    )
    assert await _doubted(client, "line") == ["555-0134"]
    # A language said in passing, with no change cue, takes nothing back.
    await facts_after(client, P, "keep", "2026-03-01T09:00:00Z", "I'm learning German for my job")
    await facts_after(
        client, P, "keep", "2026-03-02T09:00:00Z", "had a great italian dinner with friends"
    )
    assert ("learning", "German for my job", "active") in await _all(client, "keep")
    assert await _doubted(client, "keep") == []


async def test_a_turn_restating_a_held_dislike_neither_doubts_nor_ends_it(client):
    """The turn that says "I really don't like olives" again is one of the
    fact's sources and a candidate of the doubt stage: naming the value after
    a negation there affirms it, it takes nothing back."""
    await facts_after(client, P, "olives", "2026-03-01T09:00:00Z", "I really don't like olives.")
    await facts_after(client, P, "olives", "2026-03-02T09:00:00Z", "I really don't like olives.")
    assert ("dislikes", "olives", "active") in await _all(client, "olives")
    assert await _doubted(client, "olives") == []
