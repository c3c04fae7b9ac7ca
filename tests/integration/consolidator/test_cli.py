"""``haki consolidate --all`` queues never-consolidated events and drains the queue."""

from __future__ import annotations

import json
import uuid

import psycopg
from click.testing import CliRunner
from consolidator_helpers import as_url
from psycopg.types.json import Jsonb

from haki.cli import cli


def test_consolidate_all_backfills_and_prints_counts(db_url):
    with psycopg.connect(db_url) as conn:
        for i, text in enumerate(["I live in Paris.", "I love hiking."]):
            conn.execute(
                "INSERT INTO events (project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key)"
                " VALUES ('p1', 'u1', 'note', now() + make_interval(mins => %s), %s, 'sha256:x', %s)",
                (i, Jsonb({"text": text}), uuid.uuid4().hex),
            )
    env = {
        "HAKI_DATABASE_URL": as_url(db_url),
        "HAKI_EMBED_PROVIDER": "hash",
        "HAKI_ALLOW_HASH_EMBEDDER": "true",
    }
    result = CliRunner().invoke(cli, ["consolidate", "--all", "--quiet"], env=env)
    assert result.exit_code == 0, result.output
    counts = json.loads(result.stdout.strip().splitlines()[-1])
    assert (
        counts["jobs"] == {"done": 1}
        and counts["events"] == 2
        and counts["actions"] == {"insert": 2}
    )

    again = CliRunner().invoke(cli, ["consolidate", "--all", "--quiet"], env=env)
    assert json.loads(again.stdout.strip().splitlines()[-1])["jobs"] == {}
