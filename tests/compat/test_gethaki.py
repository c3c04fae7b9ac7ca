"""The original ``gethaki`` 0.2.0 client, unchanged, against this server.

Every public method of its ``HakiClient`` and ``AsyncHakiClient`` is called
from its own virtualenv (``gethaki_probe.py``) against ``haki serve`` in a
subprocess; the assertions check the fields that client and its CLI read.
Then its own end-to-end check runs: ``haki connect`` and ``haki verify``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import httpx

PROBE = Path(__file__).with_name("gethaki_probe.py")


def run_probe(venv: Path, url: str) -> dict[str, Any]:
    done = subprocess.run(
        [str(venv / "bin/python"), str(PROBE), url],
        capture_output=True,
        text=True,
        timeout=600,
        cwd="/",  # never import this repository's haki instead of gethaki's
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def check_consolidated(answer: dict[str, Any]) -> None:
    assert answer["processed"] == sum(answer["jobs"].values()) >= 1
    assert {"events", "chunks", "candidates", "rejected", "actions"} <= answer.keys()


def check_decisions(trace: dict[str, Any]) -> None:
    assert trace["decisions"]
    for d in trace["decisions"]:
        named = d["fact_id"] if d["kind"] == "fact" else d["episode_id"]
        assert named == d["id"]


def check_resolved(answer: dict[str, Any]) -> None:
    assert answer["status"] == "resolved"
    assert answer["conflict_id"] == answer["id"] and answer["kept_fact_id"]
    assert answer["superseded_fact_ids"] == answer["superseded"]
    assert answer["resolved_at"]


def check_device_start(answer: dict[str, Any]) -> None:
    # The fields `haki login` reads (verification_uri_complete is optional there).
    assert answer["device_code"] and answer["user_code"]
    assert answer["verification_uri"].endswith("/console/device")
    assert answer["verification_uri_complete"].endswith(answer["user_code"])
    assert answer["expires_in"] > 0 and answer["interval"] >= 0.5


def test_every_gethaki_method_gets_the_fields_it_reads(gethaki_venv, server_url):
    out = run_probe(gethaki_venv, server_url)

    assert (out["health"]["status"], out["health"]["database"]) == ("ok", "ok")
    key = out["create_key"]
    assert key["key"] and key["prefix"] and key["label"] == ""
    assert (key["project_id"], key["org_id"]) == ("prj_compat", "org_compat")
    listed = {k["id"]: k for k in out["list_keys"]["keys"]}
    assert listed[key["id"]]["revoked_at"] is None
    assert out["capture"]["status"] == "accepted" and len(out["capture"]["events"]) == 2
    assert out["capture_batch_key"]["status"] == out["capture_turn"]["status"] == "accepted"

    check_consolidated(out["consolidate"])
    check_consolidated(out["consolidate_subject"])
    statuses = {f["status"] for f in out["facts"]["facts"]}
    assert statuses and {f["status"] for f in out["facts_active"]["facts"]} == {"active"}

    packet = out["context"]["packet"]
    assert any("Lyon" in json.dumps(f["value"]) for f in packet["facts"])
    prompt = out["prompt"]
    assert prompt.startswith("<haki_memory>") and prompt.endswith("</haki_memory>")
    assert "Lyon (valid from 2026-01-05" in prompt  # value and date of each fact
    assert "no-source" not in prompt  # every fact names its source events
    if packet["episodes"]:
        assert "] conversation.message: user: " in prompt  # speaker kept in the excerpt
    check_decisions(out["inspect"])

    assert out["feedback_trace"]["feedback_id"] == out["feedback_trace"]["id"]
    assert out["feedback_fact"]["fact_status"] == "disputed"
    check_resolved(out["resolve_conflict"])
    assert out["forget_fact"]["scope"] == "fact" and out["forget_fact"]["forget_id"]
    assert out["forget_subject"]["scope"] == "subject"
    assert out["forget_subject"]["mode"] == "delete"

    whole = out["timeline_1000"]
    assert len(whole["events"]) == 1000 and whole["next_cursor"] is None
    assert [e["payload"]["content"] for e in whole["events"]][:2] == ["note 0", "note 1"]
    # Five turns, less the source turn of the fact forgotten above: a forget
    # takes a fact's source turns out of every route (docs/ledger.md, Forget).
    assert len(out["timeline_small"]["events"]) == 4

    assert out["revoke_key"]["status"] == "revoked" and out["revoke_key"]["revoked_at"]
    assert out["revoke_unknown"] == {"status": 404, "type": "key_not_found", "field": "key_id"}
    check_device_start(out["device_start"])
    assert out["device_pending"]["status"] == "pending"
    approved = out["device_approved"]
    assert approved["status"] == "approved" and approved["api_key"].startswith("hk_")
    assert approved["project_id"] == "prj_compat" and approved["org_id"]
    assert out["device_again"]["status"] == "expired"  # the key is handed out once
    assert out["device_poll"]["status"] == "expired"

    a = out["async"]
    assert a["health"]["status"] == "ok" and a["create_key"]["key"]
    assert a["capture"]["status"] == "accepted" and a["list_keys"]["keys"]
    check_consolidated(a["consolidate"])
    check_consolidated(a["consolidate_subject"])
    assert a["facts"]["facts"] and a["context"]["trace_id"]
    check_decisions(a["inspect"])
    assert len(a["timeline"]["events"]) == 2
    assert a["feedback"]["feedback_id"]
    check_resolved(a["resolve_conflict"])
    assert a["forget"]["scope"] == "subject"
    assert a["revoke_key"]["status"] == "revoked"
    check_device_start(a["device_start"])
    assert a["device_poll"]["status"] == "pending"


def test_gethaki_connect_and_verify(gethaki_venv, server_url, tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}  # its config goes to ~/.haki/config.json
    haki = str(gethaki_venv / "bin/haki")
    connect = subprocess.run(
        [haki, "connect", "--api-url", server_url],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd="/",
    )
    assert connect.returncode == 0, connect.stdout + connect.stderr
    assert f"connected to {server_url} (ok, db ok)" in connect.stdout
    verify = subprocess.run(
        [haki, "verify"], capture_output=True, text=True, env=env, timeout=300, cwd="/"
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "1 supersession" in verify.stdout
    assert "OK — your agent remembered across conversations" in verify.stdout


def test_gethaki_login_by_device_approval(gethaki_venv, server_url, tmp_path):
    """``haki login`` of the original client: it shows a code, a person approves it, the
    terminal saves a working key."""
    env = {**os.environ, "HOME": str(tmp_path), "BROWSER": "true"}  # no browser opens
    login = subprocess.Popen(
        [str(gethaki_venv / "bin/haki"), "login", "--api-url", server_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd="/",
    )
    try:
        assert login.stdout is not None
        first = login.stdout.readline()
        assert first.startswith("Code : "), first
        code = first.removeprefix("Code : ").strip()
        approve = httpx.post(
            f"{server_url}/v1/cli/device/approve",
            json={"project_id": "prj_login", "user_code": code},
        )
        assert approve.status_code == 200, approve.text
        rest, _ = login.communicate(timeout=60)
    finally:
        if login.poll() is None:
            login.kill()
    assert login.returncode == 0, rest
    saved = json.loads((tmp_path / ".haki" / "config.json").read_text())
    assert saved["project_id"] == "prj_login" and saved["api_key"].startswith("hk_")
