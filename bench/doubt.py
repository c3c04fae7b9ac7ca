"""The ``doubt`` stage's two sides, end to end through the public HTTP API.

    .venv/bin/python bench/doubt.py [--conversations 1] [--split dev] [--show]

- **Held back by mistake**: LoCoMo conversations (``locomo_dev.json``, the
  first ``--conversations``) are captured and consolidated as
  ``bench/locomo.py`` does; nobody in them corrects a fact the rules read, so
  every active fact an open ``doubt`` set holds back is a mistake.
- **Corrections**: each case of ``tests/fixtures/extraction/corrections.jsonl``
  of ``--split`` (never a blind file) is its own subject, the statement at
  T0, any turns said ``between``, then the correction, a day apart; a case
  is *applied* when no matching old fact is active and the labelled new
  value is, *unsure* when the old fact is held by an open conflict set. A
  ``keep`` case (a later turn that corrects nothing: "not Rex's fault", a
  neighbour's dog, a question) is *kept* when its old fact stays active and
  unheld, else *wrongly_ended*.

``--show`` prints each held-back LoCoMo fact with the turn that doubted it,
and each correction case that was neither applied nor marked unsure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import correction_splits
import locomo
from _server import REPO, running_server
from extraction_quality import matches

CORRECTIONS = REPO / "tests" / "fixtures" / "extraction" / "corrections.jsonl"
T0 = datetime(2025, 3, 3, 10, tzinfo=UTC)


async def _facts(client: httpx.AsyncClient, project: str, subject: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cursor = None
    while True:
        params = {"project_id": project, "subject_id": subject, "limit": 500}
        if cursor:
            params["cursor"] = cursor
        r = await client.get("/v1/facts", params=params)
        r.raise_for_status()
        body = r.json()
        out.extend(body["facts"])
        cursor = body.get("next_cursor")
        if not cursor:
            return out


async def _doubts(client: httpx.AsyncClient, project: str) -> list[dict[str, Any]]:
    r = await client.get("/v1/conflicts", params={"project_id": project})
    r.raise_for_status()
    return [c for c in r.json()["conflicts"] if c["kind"] == "doubt" and c["status"] == "open"]


async def locomo_side(client: httpx.AsyncClient, conversations: int, show: bool) -> dict[str, Any]:
    turns, _ = locomo.load(locomo.DATA, conversations, 0)
    project = f"doubt-locomo-{datetime.now(UTC):%H%M%S}"
    await locomo.ingest(client, project, turns, lambda n: None)
    subjects = sorted({t.sample_id for t in turns})
    await locomo.consolidate(client, project, subjects)
    every = [f for s in subjects for f in await _facts(client, project, s)]
    active = [f for f in every if f["status"] == "active"]
    doubts = await _doubts(client, project)
    held = {fid for c in doubts for fid in c["fact_ids"]}
    if show:
        for c in doubts:
            for f in c["facts"]:
                print(f"held {f['predicate']}={f['value']!r}  <- {c['reason']}", file=sys.stderr)
        for f in every:
            if f["status"] == "superseded":
                print(f"superseded {f['predicate']}={f['value']!r}", file=sys.stderr)
    return {
        "conversations": conversations,
        "turns": len(turns),
        "active_facts": len(active),
        "held_back_by_doubt": sum(f["id"] in held for f in active),
        # Nobody corrects a fact here either: a rise is a wrong replacement.
        "superseded": sum(f["status"] == "superseded" for f in every),
    }


async def corrections_side(client: httpx.AsyncClient, split: str, show: bool) -> dict[str, Any]:
    rows = [json.loads(line) for line in CORRECTIONS.read_text().splitlines() if line.strip()]
    cases = [r for r in rows if r.get("split") == split]
    project = f"doubt-corr-{datetime.now(UTC):%H%M%S}"
    events = [
        {
            "project_id": project,
            "subject_id": c["id"],
            "kind": "conversation.message",
            "occurred_at": (T0 + timedelta(days=i)).isoformat(),
            "payload": {"text": text},
        }
        for c in cases
        for i, text in enumerate((c["before"], *c.get("between", []), c["text"]))
    ]
    for start in range(0, len(events), 100):
        r = await client.post("/v1/capture", json={"events": events[start : start + 100]})
        r.raise_for_status()
    await locomo.consolidate(client, project, sorted(c["id"] for c in cases))
    held = {fid for c in await _doubts(client, project) for fid in c["fact_ids"]}
    verdicts: dict[str, int] = {"applied": 0, "unsure": 0, "old_current": 0, "old_never_stored": 0}
    keeps: dict[str, int] = {"kept": 0, "wrongly_ended": 0, "old_never_stored": 0}
    for case in cases:
        facts = await _facts(client, project, case["id"])
        old = [f for f in facts if matches(f, case["old"])]
        if case.get("keep"):
            kept = any(f["status"] == "active" and f["id"] not in held for f in old)
            verdict = "old_never_stored" if not old else "kept" if kept else "wrongly_ended"
            keeps[verdict] += 1
            if show and verdict != "kept":
                got = [(f["predicate"], f["value"], f["status"], f["id"] in held) for f in facts]
                print(f"keep:{verdict} {case['id']}: {case['text']!r} {got}", file=sys.stderr)
            continue
        new_ok = not case.get("new") or any(
            f["status"] == "active" and matches(f, case["new"]) for f in facts
        )
        if not old:
            verdict = "old_never_stored"
        elif all(f["status"] != "active" for f in old) and new_ok:
            verdict = "applied"
        elif any(f["id"] in held for f in old):
            verdict = "unsure"
        else:
            verdict = "old_current"
        verdicts[verdict] += 1
        if show and verdict not in ("applied", "unsure"):
            got = [(f["predicate"], f["value"], f["status"]) for f in facts]
            print(f"{verdict} {case['id']}: {case['text']!r} {got}", file=sys.stderr)
    out: dict[str, Any] = {"split": split, "cases": len(cases) - sum(keeps.values()), **verdicts}
    if any(keeps.values()):
        out["keep_cases"] = keeps
    return out


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    # A loaded machine may keep a subject's jobs past the default wait.
    env = {"HAKI_CONSOLIDATE_WAIT_S": "600"}
    with running_server(args.base_url, env=env, start_timeout_s=600) as url:
        async with httpx.AsyncClient(base_url=url, timeout=None) as client:
            return {
                "corrections": await corrections_side(client, args.split, args.show),
                "locomo": await locomo_side(client, args.conversations, args.show),
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="use a running server instead of starting one")
    parser.add_argument("--conversations", type=int, default=1)
    parser.add_argument(
        "--split",
        default="dev",
        choices=correction_splits.READABLE,
    )
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main_async(args)), indent=2))


if __name__ == "__main__":
    main()
