"""The memory-truth scenario end to end, through the HTTP API on a real database:
a move, a correction, what was true before and after, then forget."""

from __future__ import annotations

from typing import Any

import pytest

SCOPE = {"project_id": "truth", "subject_id": "maya"}
BEFORE_MOVE = "2026-03-15T00:00:00Z"
AFTER_MOVE = "2026-04-15T00:00:00Z"


async def _say(client, text: str, when: str) -> None:
    event = {
        **SCOPE,
        "kind": "conversation.message",
        "occurred_at": when,
        "payload": {"text": text},
    }
    assert (await client.post("/v1/capture", json={"events": [event]})).status_code == 202
    r = await client.post("/v1/consolidate/subject", params=SCOPE)
    assert r.status_code == 200 and r.json()["waited"]["failed"] == [], r.text


async def _served(client, query: str, **extra: Any) -> dict[str, Any]:
    r = await client.post("/v1/context", json={**SCOPE, "query": query, **extra})
    assert r.status_code == 200, r.text
    packet = r.json()["packet"]
    return {
        "facts": sorted(str(f["value"]) for f in packet["facts"]),
        "episodes": " ".join(e["text"] for e in packet["episodes"]),
    }


async def _listed(client, **params: Any) -> list[tuple[str, str]]:
    r = await client.get("/v1/facts", params={**SCOPE, **params})
    return sorted((f["value"], f["status"]) for f in r.json()["facts"])


@pytest.mark.parametrize("mode", ["disable", "delete"])
async def test_move_correction_as_of_and_forget(client, mode):
    await _say(client, "Hi! My name is Maya. I live in Paris.", "2026-03-01T09:00:00Z")
    await _say(client, "I work at Initech.", "2026-03-01T09:05:00Z")
    await _say(client, "I moved to Berlin.", "2026-04-01T09:00:00Z")

    # The move: Paris ends when Berlin begins.
    homes = [f for f in await _listed(client) if f[0] in ("Paris", "Berlin")]
    assert homes == [("Berlin", "active"), ("Paris", "superseded")]

    # A correction: the employer was misheard, so the caller dates the new value
    # from the old one's start (a correction is otherwise dated when it is made).
    facts = (await client.get("/v1/facts", params=SCOPE)).json()["facts"]
    [initech] = [f for f in facts if f["value"] == "Initech"]
    r = await client.patch(
        f"/v1/facts/{initech['id']}",
        json={"project_id": "truth", "value": "Initrode", "valid_from": initech["valid_from"]},
    )
    assert r.status_code == 200 and r.json()["fact"]["supersedes_id"] == initech["id"]

    question = "Where does Maya live and who does she work for?"
    now = await _served(client, question)
    assert "Berlin" in now["facts"] and "Initrode" in now["facts"]
    assert "Paris" not in now["facts"] and "Initech" not in now["facts"]

    # As of before the move: Paris, and the corrected employer (never Initech).
    then = await _served(client, question, as_of=BEFORE_MOVE)
    assert "Paris" in then["facts"] and "Initrode" in then["facts"]
    assert "Berlin" not in then["facts"] and "Initech" not in then["facts"]
    assert "Berlin" not in then["episodes"]
    later = await _served(client, question, as_of=AFTER_MOVE)
    assert "Berlin" in later["facts"] and "Paris" not in later["facts"]
    listed_then = [v for v, _ in await _listed(client, as_of=BEFORE_MOVE)]
    assert "Paris" in listed_then and "Initech" not in listed_then

    # Forget: nothing of Maya is served any more, at any time.
    r = await client.post("/v1/forget", json={**SCOPE, "mode": mode})
    assert r.status_code == 200, r.text
    for extra in ({}, {"as_of": BEFORE_MOVE}, {"as_of": AFTER_MOVE}):
        assert await _served(client, question, **extra) == {"facts": [], "episodes": ""}
    timeline = (await client.get("/v1/timeline", params=SCOPE)).json()
    assert not timeline.get("events", timeline.get("items"))
    assert await _listed(client) == []
