"""One turn said through the API: captured at the speaker's offset, consolidated, its active facts read back."""

from __future__ import annotations

from typing import Any


async def facts_after(
    client, project: str, subject: str, when: str, text: str
) -> list[dict[str, Any]]:
    """The active facts of ``subject`` once ``text``, said at ``when``, is captured and consolidated."""
    event = {
        "project_id": project,
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": when,
        "payload": {"text": text},
    }
    assert (await client.post("/v1/capture", json={"events": [event]})).status_code == 202
    scope = {"project_id": project, "subject_id": subject}
    r = await client.post("/v1/consolidate/subject", params=scope)
    assert r.status_code == 200 and r.json()["waited"]["failed"] == [], r.text
    r = await client.get("/v1/facts", params=scope)
    assert r.status_code == 200, r.text
    return [f for f in r.json()["facts"] if f["status"] == "active"]
