"""A served project with memory, for the operations tests (backup, export, retention)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

TURNS = [
    "I live in Lyon and I work as a nurse.",
    "I am allergic to peanuts, remember that.",
    "My daughter Ines plays the violin.",
]
QUERIES = ["where do I live?", "what am I allergic to?", "what does Ines play?"]


def haki(
    *args: str, env: dict[str, str], stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "haki.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        input=stdin,
    )


def populate(url: str, project: str, subject: str = "maya") -> None:
    """Capture TURNS an hour ago and consolidate them."""
    start = datetime.now(UTC) - timedelta(hours=1)
    events = [
        {
            "project_id": project,
            "subject_id": subject,
            "kind": "conversation.turn",
            "actor_type": "user",
            "occurred_at": (start + timedelta(minutes=i)).isoformat(),
            "payload": {"text": text},
        }
        for i, text in enumerate(TURNS)
    ]
    assert httpx.post(f"{url}/v1/capture", json={"events": events}, timeout=60).status_code < 300
    done = httpx.post(
        f"{url}/v1/consolidate/subject",
        params={"project_id": project, "subject_id": subject},
        timeout=300,
    )
    assert done.status_code == 200, done.text


def packets(url: str, project: str, as_of: str, subject: str = "maya") -> list[dict[str, Any]]:
    """Each query's packet (the trace id differs per call, so it is left out)."""
    out = []
    for query in QUERIES:
        body = {"project_id": project, "subject_id": subject, "query": query, "as_of": as_of}
        resp = httpx.post(f"{url}/v1/context", json=body, timeout=120)
        assert resp.status_code == 200, resp.text
        out.append(resp.json()["packet"])
    return out


def serialised(packets: list[dict[str, Any]]) -> list[bytes]:
    return [json.dumps(p, sort_keys=True).encode() for p in packets]
