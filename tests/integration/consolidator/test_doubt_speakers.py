"""The doubt stage reads a named speaker's turn against that speaker's facts only (end to end)."""

from datetime import UTC, datetime, timedelta

P = "doubt-speakers"
T0 = (datetime.now(UTC) - timedelta(days=1)).replace(second=0, microsecond=0)
CLUB = "I'm in the Riverside Rowing Club, we race most weekends"
LAPSED = "let my membership lapse in spring and didn't renew. not rowing anymore"


async def _say(client, subject, turns, minute):
    events = [
        {
            "project_id": P,
            "subject_id": subject,
            "thread_id": "t1",
            "kind": "conversation.message",
            "occurred_at": (T0 + timedelta(minutes=minute + i)).isoformat(),
            "payload": {"speaker": speaker, "text": text},
        }
        for i, (speaker, text) in enumerate(turns)
    ]
    r = await client.post("/v1/capture", json={"events": events})
    assert r.status_code == 202, r.text
    r = await client.post(
        "/v1/consolidate/subject", params={"project_id": P, "subject_id": subject}
    )
    assert r.status_code == 200, r.text


async def test_a_speakers_change_puts_only_their_own_fact_in_doubt(client):
    await _say(client, "conv-1", [("Caroline", CLUB), ("Melanie", CLUB)], 0)
    r = await client.get("/v1/facts", params={"project_id": P, "subject_id": "conv-1"})
    club = {
        f["qualifiers"].get("speaker"): f for f in r.json()["facts"] if "Rowing" in str(f["value"])
    }
    assert set(club) == {"Caroline", "Melanie"}
    await _say(client, "conv-1", [("Melanie", LAPSED)], 60)
    r = await client.get("/v1/conflicts", params={"project_id": P})
    doubted = {i for c in r.json()["conflicts"] if c["kind"] == "doubt" for i in c["fact_ids"]}
    assert club["Melanie"]["id"] in doubted
    assert club["Caroline"]["id"] not in doubted
