"""Export a subject (API) or a project (CLI) as JSON lines, import it into another
project: idempotent, all or nothing, and the imported subject serves the same facts."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from ops_helpers import haki, packets, populate

from haki_server import as_url, running

SOURCE, TARGET, OTHER = "prj_source", "prj_target", "prj_other"


def parse(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def rows(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if line["kind"] == "row"]


def facts_of(packet_list: list[dict[str, Any]]) -> list[list[tuple[Any, ...]]]:
    return [
        [(f["id"], f["predicate"], f["value"], f["text"]) for f in p["facts"]] for p in packet_list
    ]


def test_export_then_import_round_trip(db_url: str, module_db_url: str, tmp_path: Path) -> None:
    env = {**os.environ, "HAKI_DATABASE_URL": as_url(db_url)}
    # Another database, with its own server secrets: a second server.
    elsewhere = {**os.environ, "HAKI_DATABASE_URL": as_url(module_db_url)}
    as_of = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    with running(db_url, tmp_path / "server.log") as url:
        populate(url, SOURCE)
        # A forgotten fact leaves a receipt, which travels with the subject.
        facts = httpx.get(
            f"{url}/v1/facts", params={"project_id": SOURCE, "subject_id": "maya"}, timeout=30
        ).json()["facts"]
        forgotten = next(f for f in facts if "peanut" not in json.dumps(f["value"]).lower())
        forgot = httpx.post(
            f"{url}/v1/forget",
            json={"project_id": SOURCE, "fact_id": forgotten["id"], "mode": "disable"},
            timeout=30,
        )
        assert forgot.status_code == 200, forgot.text
        source = packets(url, SOURCE, as_of)
        assert any("peanut" in json.dumps(p).lower() for p in source)

        resp = httpx.get(
            f"{url}/v1/subjects/maya/export", params={"project_id": SOURCE}, timeout=60
        )
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("application/x-ndjson")
        lines = parse(resp.text)
        assert lines[0]["kind"] == "header" and lines[0]["subject_id"] == "maya"
        assert lines[-1]["kind"] == "end"
        tables = {line["table"] for line in rows(lines)}
        assert {"events", "facts", "fact_transitions", "forget_receipts"} <= tables
        receipt = next(line for line in rows(lines) if line["table"] == "forget_receipts")
        assert receipt["row"]["fact_id"] == forgotten["id"]
        assert lines[-1]["counts"]["events"] == 3

        missing = httpx.get(
            f"{url}/v1/subjects/nobody/export", params={"project_id": SOURCE}, timeout=30
        )
        assert missing.status_code == 404
        assert missing.json()["error"]["type"] == "not_found"

        # The CLI's project export holds the same rows (one subject here).
        exported = tmp_path / "source.jsonl"
        done = haki("export", "--project", SOURCE, "-o", str(exported), env=env)
        assert done.returncode == 0, done.stderr
        assert rows(parse(exported.read_text())) == rows(lines)

        first = haki("import", str(exported), "--project", TARGET, env=env)
        assert first.returncode == 0, first.stderr
        counts = json.loads(first.stdout)
        assert counts["written"] == lines[-1]["counts"]
        assert sum(counts["skipped"].values()) == 0

        second = haki("import", str(exported), "--project", TARGET, env=env)
        assert second.returncode == 0, second.stderr
        again = json.loads(second.stdout)
        assert sum(again["written"].values()) == 0
        assert again["skipped"] == lines[-1]["counts"]

        target = packets(url, TARGET, as_of)
        assert facts_of(target) == facts_of(source)
        assert any(p["facts"] for p in target)
        # The target's own export is the source's, moved to the target project.
        back = httpx.get(
            f"{url}/v1/subjects/maya/export", params={"project_id": TARGET}, timeout=60
        )
        moved = rows(parse(back.text))
        assert [(r["table"], r["row"]["id"]) for r in moved] == [
            (r["table"], r["row"]["id"]) for r in rows(lines)
        ]
        assert {r["row"]["project_id"] for r in moved} == {TARGET}

        # Into another server, under the same project name: the same rows come back out.
        moved_away = haki("import", str(exported), "--project", SOURCE, env=elsewhere)
        assert moved_away.returncode == 0, moved_away.stderr
        assert json.loads(moved_away.stdout)["written"] == lines[-1]["counts"]
        out = haki("export", "--project", SOURCE, env=elsewhere)
        assert out.returncode == 0, out.stderr
        assert rows(parse(out.stdout)) == rows(lines)

        # A cut file is refused whole: nothing lands in the project.
        cut = tmp_path / "cut.jsonl"
        cut.write_text("\n".join(exported.read_text().splitlines()[:-1]) + "\n")
        refused = haki("import", str(cut), "--project", OTHER, env=env)
        assert refused.returncode == 2 and "cut short" in refused.stderr
        garbage = tmp_path / "garbage.jsonl"
        garbage.write_text(exported.read_text().replace('"kind":"end"', '"kind":"nope"'))
        assert haki("import", str(garbage), "--project", OTHER, env=env).returncode == 2
        listed = httpx.get(f"{url}/v1/subjects", params={"project_id": OTHER}, timeout=30)
        assert listed.json()["subjects"] == []
