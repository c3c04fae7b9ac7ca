"""``haki backup`` while a server serves, ``haki restore`` into a new data directory:
the restored copy serves the same context packets, byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from haki_server import as_url, running

PROJECT = "prj_backup"
TURNS = [
    "I live in Lyon and I work as a nurse.",
    "I am allergic to peanuts, remember that.",
    "My daughter Ines plays the violin.",
]
QUERIES = ["where do I live?", "what am I allergic to?", "what does Ines play?"]


def haki(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "haki.cli", *args], env=env, capture_output=True, text=True
    )


def populate(url: str) -> None:
    start = datetime.now(UTC) - timedelta(hours=1)
    events = [
        {
            "project_id": PROJECT,
            "subject_id": "maya",
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
        params={"project_id": PROJECT, "subject_id": "maya"},
        timeout=300,
    )
    assert done.status_code == 200, done.text


def packets(url: str, as_of: str) -> list[bytes]:
    """Each query's packet as the server serialised it (the trace id differs per call)."""
    out = []
    for query in QUERIES:
        body = {"project_id": PROJECT, "subject_id": "maya", "query": query, "as_of": as_of}
        resp = httpx.post(f"{url}/v1/context", json=body, timeout=120)
        assert resp.status_code == 200, resp.text
        packet: dict[str, Any] = resp.json()["packet"]
        out.append(json.dumps(packet, sort_keys=True).encode())
    return out


def test_a_backup_taken_while_serving_restores_the_same_packets(
    db_url: str, tmp_path: Path
) -> None:
    archive = tmp_path / "haki.dump"
    restored = tmp_path / "restored"
    as_of = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    env = {**os.environ, "HAKI_DATABASE_URL": as_url(db_url)}
    with running(db_url, tmp_path / "source.log") as url:
        populate(url)
        before = packets(url, as_of)
        done = haki("backup", str(archive), env=env)  # the server keeps serving meanwhile
        assert done.returncode == 0, done.stderr
        assert httpx.get(f"{url}/health", timeout=10).status_code == 200
    assert any(b"peanut" in p.lower() for p in before)  # the packets hold the memory
    assert archive.stat().st_size > 0

    # A second backup to the same file is refused, and the archive is untouched.
    again = haki("backup", str(archive), env=env)
    assert again.returncode == 2 and "already exists" in again.stderr

    embedded_env = {k: v for k, v in env.items() if k != "HAKI_DATABASE_URL"}
    done = haki("restore", str(archive), "--data-dir", str(restored), env=embedded_env)
    assert done.returncode == 0, done.stderr
    # Restoring over a database that holds Haki tables is refused.
    over = haki("restore", str(archive), "--data-dir", str(restored), env=embedded_env)
    assert over.returncode == 2 and "already holds" in over.stderr

    with running(None, tmp_path / "restored.log", data_dir=restored) as url:
        assert packets(url, as_of) == before
        # A backup of the embedded server while it serves leaves it serving.
        second = haki(
            "backup",
            str(tmp_path / "second.dump"),
            env={**embedded_env, "HAKI_DATA_DIR": str(restored)},
        )
        assert second.returncode == 0, second.stderr
        assert packets(url, as_of) == before
