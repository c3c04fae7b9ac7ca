"""Runs INSIDE the gethaki 0.2.0 virtualenv: every public client method against a live server.

Prints one JSON document of what each call returned (or the typed error it
raised); ``test_gethaki.py`` asserts on it. Only the original client's code
and the standard library are used here, plus httpx (its one dependency) to
list conflict sets, which that client has no method for.
"""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from haki.runtime import build_prompt_context, capture_turn

from haki import AsyncHakiClient, HakiApiError, HakiClient

URL = sys.argv[1]
P, ORG = "prj_compat", "org_compat"
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def event(subject: str, text: str, minutes: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "org_id": ORG,
        "project_id": P,
        "subject_type": "user",
        "subject_id": subject,
        "kind": "conversation.message",
        "occurred_at": (START + timedelta(minutes=minutes)).isoformat(),
        "payload": {"role": "user", "content": text},
        "idempotency_key": f"probe-{uuid.uuid4()}",
        **extra,
    }


def error(exc: HakiApiError) -> dict[str, Any]:
    return {"status": exc.status_code, "type": exc.error_type, "field": exc.field}


def fails(call: Any) -> dict[str, Any]:
    try:
        call()
    except HakiApiError as exc:
        return error(exc)
    return {"status": None}


async def afails(call: Any) -> dict[str, Any]:
    try:
        await call()
    except HakiApiError as exc:
        return error(exc)
    return {"status": None}


def open_conflict(subject: str) -> dict[str, Any]:
    answer = httpx.get(
        f"{URL}/v1/conflicts", params={"project_id": P, "subject_id": subject}, timeout=10
    )
    answer.raise_for_status()
    return answer.json()["conflicts"][0]


def sync_probe(out: dict[str, Any]) -> None:
    c = HakiClient(URL)
    out["health"] = c.health()
    out["create_key"] = c.create_key(project_id=P, org_id=ORG)  # sends "label": null
    out["list_keys"] = c.list_keys()
    out["capture"] = c.capture(
        [event("usr_a", "I live in Lyon.", 0), event("usr_a", "I love hiking in the Alps.", 1)]
    )
    out["capture_batch_key"] = c.capture([event("usr_a", "I work at Acme.", 2)], "batch-1")
    out["capture_turn"] = capture_turn(c, "usr_a", P, "My favourite colour is green.", "Noted!")
    # An untrusted source's claim is quarantined in a conflict set of its own.
    c.capture([event("usr_q", "I live in Paris.", 3, origin_trust="untrusted")])
    out["consolidate"] = c.consolidate()
    c.capture([event("usr_a", "I have a dog named Rex.", 4)])
    out["consolidate_subject"] = c.consolidate_subject(project_id=P, subject_id="usr_a")
    out["facts"] = c.facts(project_id=P, subject_id="usr_a")
    out["facts_active"] = c.facts(project_id=P, subject_id="usr_a", status="active")
    out["context"] = c.context("usr_a", "where does the user live? any pets?", P)
    out["prompt"] = build_prompt_context(out["context"]["packet"])
    trace = out["context"]["trace_id"]
    out["inspect"] = c.inspect(trace, project_id=P, subject_id="usr_a")
    out["feedback_trace"] = c.feedback(project_id=P, rating="useful", trace_id=trace)
    fact_id = out["facts_active"]["facts"][0]["id"]
    out["feedback_fact"] = c.feedback(project_id=P, rating="incorrect", fact_id=fact_id)
    conflict = open_conflict("usr_q")
    out["resolve_conflict"] = c.resolve_conflict(
        conflict["id"], project_id=P, keep_fact_id=conflict["fact_ids"][0]
    )
    out["forget_fact"] = c.forget(project_id=P, fact_id=fact_id)
    out["forget_subject"] = c.forget(project_id=P, subject_id="usr_q", mode="delete")
    # 1,000 events: the whole history in one answer to a client that does not page.
    c.capture([event("usr_many", f"note {i}", i) for i in range(1000)])
    out["timeline_1000"] = c.timeline("usr_many", P)
    out["timeline_small"] = c.timeline("usr_a", P)
    out["revoke_key"] = c.revoke_key(out["create_key"]["id"])
    out["revoke_unknown"] = fails(lambda: c.revoke_key(str(uuid.uuid4())))
    start = c.cli_device_start()
    out["device_start"] = start
    out["device_pending"] = c.cli_device_poll(start["device_code"])
    # What a person does in the console page (dev mode: the project is named).
    httpx.post(
        f"{URL}/v1/cli/device/approve", json={"project_id": P, "user_code": start["user_code"]}
    ).raise_for_status()
    out["device_approved"] = c.cli_device_poll(start["device_code"])
    out["device_again"] = c.cli_device_poll(start["device_code"])
    out["device_poll"] = c.cli_device_poll("no-such-code")
    c.close()


async def async_probe(out: dict[str, Any]) -> None:
    async with AsyncHakiClient(URL) as c:
        a: dict[str, Any] = {}
        a["health"] = await c.health()
        a["create_key"] = await c.create_key(project_id=P, org_id=ORG)
        a["list_keys"] = await c.list_keys()
        a["capture"] = await c.capture([event("usr_b", "I live in Nantes.", 10)])
        await c.capture([event("usr_r", "I live in Brest.", 11, origin_trust="untrusted")])
        a["consolidate"] = await c.consolidate()
        await c.capture([event("usr_b", "I have a cat named Tom.", 12)])
        a["consolidate_subject"] = await c.consolidate_subject(project_id=P, subject_id="usr_b")
        a["facts"] = await c.facts(project_id=P, subject_id="usr_b", status="active")
        a["context"] = await c.context("usr_b", "where does the user live?", P)
        trace = a["context"]["trace_id"]
        a["inspect"] = await c.inspect(trace, project_id=P, subject_id="usr_b")
        a["timeline"] = await c.timeline("usr_b", P)
        a["feedback"] = await c.feedback(project_id=P, rating="useful", trace_id=trace)
        conflict = open_conflict("usr_r")
        a["resolve_conflict"] = await c.resolve_conflict(
            conflict["id"], project_id=P, keep_fact_id=conflict["fact_ids"][0]
        )
        a["forget"] = await c.forget(project_id=P, subject_id="usr_b")
        a["revoke_key"] = await c.revoke_key(a["create_key"]["id"])
        a["device_start"] = await c.cli_device_start()
        a["device_poll"] = await c.cli_device_poll(a["device_start"]["device_code"])
        out["async"] = a


def main() -> None:
    out: dict[str, Any] = {}
    sync_probe(out)
    asyncio.run(async_probe(out))
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
