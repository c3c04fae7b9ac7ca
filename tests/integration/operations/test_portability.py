"""Export a subject (API) or a project (CLI) as JSON lines, import it into another
project: idempotent, all or nothing, and the imported subject serves the same facts."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg
from ops_helpers import haki, packets, populate
from psycopg.types.json import Jsonb

from haki.providers.embed import HashEmbedder
from haki.providers.embedders import embedder_recipe, embedding_space
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


def vectors(db_url: str, project: str) -> dict[tuple[str, str], tuple[int | None, str]]:
    """(table, id) -> (space, vector as text) of every vector the project holds."""
    with psycopg.connect(db_url) as conn:
        found = conn.execute(
            "SELECT 'events', id, embedding_space, embedding::text FROM events"
            " WHERE project_id = %(p)s AND embedding IS NOT NULL UNION ALL"
            " SELECT 'episode_chunks', id, embedding_space, embedding::text FROM episode_chunks"
            " WHERE project_id = %(p)s AND embedding IS NOT NULL UNION ALL"
            " SELECT 'facts', id, embedding_space, embedding::text FROM facts"
            " WHERE project_id = %(p)s AND embedding IS NOT NULL",
            {"p": project},
        ).fetchall()
    return {(t, str(i)): (s, v) for t, i, s, v in found}


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
        # Same model on both sides: the vectors land as they are, in the same space.
        assert counts["reembedded"] == {}
        assert vectors(db_url, TARGET) == vectors(db_url, SOURCE)

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


def test_import_into_another_embedding_space(db_url: str, tmp_path: Path) -> None:
    """The file's vectors are MiniLM's; the target project compares within the
    hash space: the import is refused with nothing written, and with
    --reembed its rows are embedded in the hash space and served from it."""
    env = {**os.environ, "HAKI_DATABASE_URL": as_url(db_url)}
    hashed = HashEmbedder()
    provider, model, dims = embedding_space(hashed)
    with psycopg.connect(db_url) as conn:
        space = conn.execute(
            "INSERT INTO embedding_spaces (provider, model, dimensions, recipe)"
            " VALUES (%s, %s, %s, %s) RETURNING id",
            (provider, model, dims, Jsonb(embedder_recipe(hashed))),
        ).fetchone()[0]
        conn.execute(
            "INSERT INTO project_embedding_spaces (project_id, space) VALUES (%s, %s)",
            (TARGET, space),
        )
    as_of = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    with running(db_url, tmp_path / "server.log") as url:
        populate(url, SOURCE)
        exported = tmp_path / "source.jsonl"
        done = haki("export", "--project", SOURCE, "-o", str(exported), env=env)
        assert done.returncode == 0, done.stderr
        lines = parse(exported.read_text())

        refused = haki("import", str(exported), "--project", TARGET, env=env)
        assert refused.returncode == 2
        assert "embedding_space_mismatch" in refused.stderr
        assert "local:all-MiniLM-L6-v2:384" in refused.stderr
        assert f"{provider}:{model}:{dims}" in refused.stderr
        with psycopg.connect(db_url) as conn:
            for table in ("events", "episode_chunks", "facts", "fact_transitions"):
                held = conn.execute(
                    f"SELECT count(*) FROM {table} WHERE project_id = %s", (TARGET,)
                ).fetchone()
                assert held == (0,), table

        moved = haki("import", str(exported), "--project", TARGET, "--reembed", env=env)
        assert moved.returncode == 0, moved.stderr
        counts = json.loads(moved.stdout)
        assert counts["written"] == lines[-1]["counts"]
        carried = {
            kind: sum(1 for r in rows(lines) if r["table"] == table and r["row"]["embedding"])
            for kind, table in (
                ("chunk", "episode_chunks"),
                ("event", "events"),
                ("fact", "facts"),
            )
        }
        assert counts["reembedded"] == carried and carried["fact"] > 0
        # Every vector is the hash model's, stamped with its space; none of MiniLM's stayed.
        stored = vectors(db_url, TARGET)
        assert len(stored) == sum(carried.values())
        assert {s for s, _ in stored.values()} == {space}
        chunk = next(r["row"] for r in rows(lines) if r["table"] == "episode_chunks")
        _, text = stored[("episode_chunks", chunk["id"])]
        expected = hashed.embed_documents([chunk["text"]])[0]
        assert np.allclose(np.array(json.loads(text)), expected, atol=1e-6)

        # The MiniLM server answers the target project in the hash space, from
        # those vectors: the served fact has semantic evidence.
        body = {
            "project_id": TARGET,
            "subject_id": "maya",
            "query": "where do I live?",
            "as_of": as_of,
        }
        answer = httpx.post(f"{url}/v1/context", json=body, timeout=120).json()
        lyon = [f for f in answer["packet"]["facts"] if "Lyon" in json.dumps(f["value"])]
        assert lyon, answer
        trace = httpx.get(
            f"{url}/v1/inspect/{answer['trace_id']}",
            params={"project_id": TARGET, "subject_id": "maya"},
            timeout=60,
        ).json()
        served = {d["id"]: d for d in trace["decisions"] if d["action"] == "included"}
        assert served[lyon[0]["id"]]["score"]["semantic"] > 0
