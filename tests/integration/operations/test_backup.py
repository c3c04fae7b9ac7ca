"""``haki backup`` while a server serves, ``haki restore`` into a new data directory:
the restored copy serves the same context packets, byte for byte."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from ops_helpers import haki, packets, populate, serialised

from haki_server import as_url, running

PROJECT = "prj_backup"


def test_a_backup_taken_while_serving_restores_the_same_packets(
    db_url: str, tmp_path: Path
) -> None:
    archive = tmp_path / "haki.dump"
    restored = tmp_path / "restored"
    as_of = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    env = {**os.environ, "HAKI_DATABASE_URL": as_url(db_url)}
    with running(db_url, tmp_path / "source.log") as url:
        populate(url, PROJECT)
        before = serialised(packets(url, PROJECT, as_of))
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
        assert serialised(packets(url, PROJECT, as_of)) == before
        # A backup of the embedded server while it serves leaves it serving.
        second = haki(
            "backup",
            str(tmp_path / "second.dump"),
            env={**embedded_env, "HAKI_DATA_DIR": str(restored)},
        )
        assert second.returncode == 0, second.stderr
        assert serialised(packets(url, PROJECT, as_of)) == before
