"""Relative dates and corrections end to end, through a real server (issue 41's blind figures).

    .venv/bin/python bench/memory_truth_e2e.py [--base-url URL] [--dates FILE] [--corrections FILE] \
        > summary.json 2> detail.jsonl

Each relative-date turn is captured as its own subject at its ``occurred_at``;
each correction case as its own subject, the first statement at T0 and the
correction one day later; one consolidation; then ``/v1/facts`` (every status)
and ``/v1/conflicts`` are read back. A date counts as resolved when an active
fact matching the expected one has a ``valid_from`` in the expected day, week,
month or year; a correction as applied when the old fact is no longer active
and the new one is, as marked unsure when the old fact sits in an open
conflict. Without ``--base-url`` a server is started on an embedded database.

The default files are the blind sets (``tests/fixtures/extraction/
relative_dates.jsonl`` and ``blind_corrections.jsonl``): run them to report,
never to tune on.
"""

import argparse
import json
import sys
from datetime import datetime, timedelta
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from _server import running_server  # noqa: E402
from extraction_quality import matches, within  # noqa: E402

FIX = REPO / "tests" / "fixtures" / "extraction"
PROJECT = "blind-e2e"
T0 = datetime.fromisoformat("2025-03-03T10:00:00+00:00")


def load(name):
    return [json.loads(line) for line in (FIX / name).read_text().splitlines() if line.strip()]


def same(vf: str, occurred_at: str, want: str, gran: str) -> bool:
    """``vf`` in the labelled day, week, month or year, on the speaker's clock.

    A label may name its period by its first day ("2026-02-01" for February)
    or by its prefix ("2026-02"): both read the same (``within``).
    """
    at = datetime.fromisoformat(occurred_at.replace("Z", "+00:00"))
    moment = datetime.fromisoformat(vf.replace("Z", "+00:00"))
    return within(moment, {"valid_from": want, "granularity": gran}, at)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-url", help="a running server; default: start one")
    ap.add_argument("--dates", default="relative_dates.jsonl", help="file under the fixtures")
    ap.add_argument("--corrections", default="blind_corrections.jsonl")
    args = ap.parse_args()
    rel = load(args.dates)
    corr = load(args.corrections)
    unusable = [
        r.get("id") for r in rel if not r.get("facts") or "granularity" not in r["facts"][0]
    ]
    if unusable:
        # Each row is judged on its first labelled fact, its valid_from and granularity.
        ap.error(f"{args.dates}: rows without facts[0].valid_from/granularity: {unusable[:5]}")
    events = []
    for r in rel:
        events.append(
            {
                "project_id": PROJECT,
                "subject_id": r["id"],
                "kind": "conversation.message",
                "occurred_at": r["occurred_at"],
                "payload": {"text": r["text"]},
                "origin_trust": "trusted",
            }
        )
    for c in corr:
        for i, t in enumerate((c["before"], c["text"])):
            events.append(
                {
                    "project_id": PROJECT,
                    "subject_id": c["id"],
                    "kind": "conversation.message",
                    "occurred_at": (T0 + timedelta(days=i)).isoformat(),
                    "payload": {"text": t},
                    "origin_trust": "trusted",
                }
            )
    out = {"relative_dates": {}, "corrections": {}}
    detail = []
    with running_server(args.base_url) as url, httpx.Client(base_url=url, timeout=600) as cl:
        for s in range(0, len(events), 100):
            cl.post("/v1/capture", json={"events": events[s : s + 100]}).raise_for_status()
        cl.post("/v1/consolidate", json={"project_id": PROJECT}).raise_for_status()

        def facts(sub):
            r = cl.get("/v1/facts", params={"project_id": PROJECT, "subject_id": sub, "limit": 100})
            r.raise_for_status()
            return r.json()["facts"]

        def conflicts(sub):
            r = cl.get("/v1/conflicts", params={"project_id": PROJECT, "subject_id": sub})
            r.raise_for_status()  # a conflict check that cannot run must not read as "none"
            return r.json()

        found = resolved = capture_day = 0
        for r in rel:
            g = r["facts"][0]
            fs = [f for f in facts(r["id"]) if f["status"] == "active"]
            hit = [f for f in fs if matches({"predicate": f["predicate"], "value": f["value"]}, g)]
            ok = bool(hit) and any(
                f.get("valid_from")
                and same(f["valid_from"], r["occurred_at"], g["valid_from"], g["granularity"])
                for f in hit
            )
            cap = bool(hit) and all(
                f.get("valid_from")
                and same(f["valid_from"], r["occurred_at"], r["occurred_at"][:10], "day")
                for f in hit
            )
            found += bool(hit)
            resolved += ok
            capture_day += cap
            detail.append(
                {
                    "set": "relative_dates",
                    "id": r["id"],
                    "lang": r["lang"],
                    "fact_found": bool(hit),
                    "resolved": ok,
                    "expected": [g["valid_from"], g["granularity"]],
                    "got": [(f["predicate"], f["value"], f.get("valid_from")) for f in fs],
                }
            )
        n = len(rel)
        out["relative_dates"] = {
            "turns": n,
            "fact_found": found,
            "resolved": resolved,
            "resolved_rate": round(resolved / n, 3),
            "valid_from_is_capture_day": capture_day,
        }
        applied = unsure = stayed_current = old_missing = 0
        by_lang = {}
        for c in corr:
            fs = facts(c["id"])
            old = [
                f
                for f in fs
                if matches({"predicate": f["predicate"], "value": f["value"]}, c["old"])
            ]
            old_first = [
                f
                for f in old
                if f.get("valid_from")
                and datetime.fromisoformat(f["valid_from"].replace("Z", "+00:00"))
                < T0 + timedelta(hours=12)
            ] or old
            conf = conflicts(c["id"])
            conf_txt = json.dumps(conf) if conf else ""
            states = sorted({f["status"] for f in old_first})
            in_conflict = any(f["id"] in conf_txt for f in old_first)
            new_ok = c["new"] is None or any(
                f["status"] == "active"
                and matches({"predicate": f["predicate"], "value": f["value"]}, c["new"])
                for f in fs
            )
            if not old_first:
                verdict = "old_never_stored"
                old_missing += 1
            elif "active" not in states and new_ok:
                verdict = "applied"
                applied += 1
            elif in_conflict or any(s in ("disputed", "contested", "unsure") for s in states):
                verdict = "marked_unsure"
                unsure += 1
            else:
                verdict = "old_still_current" if "active" in states else "old_ended_new_missing"
                stayed_current += verdict == "old_still_current"
            bl = by_lang.setdefault(c["lang"], {"cases": 0, "applied": 0, "marked_unsure": 0})
            bl["cases"] += 1
            bl["applied"] += verdict == "applied"
            bl["marked_unsure"] += verdict == "marked_unsure"
            detail.append(
                {
                    "set": "corrections",
                    "id": c["id"],
                    "lang": c["lang"],
                    "verdict": verdict,
                    "old_states": states,
                    "in_open_conflict": in_conflict,
                    "facts": [(f["predicate"], f["value"], f["status"]) for f in fs],
                }
            )
        n = len(corr)
        out["corrections"] = {
            "cases": n,
            "applied": applied,
            "marked_unsure": unsure,
            "old_still_current": stayed_current,
            "old_never_stored": old_missing,
            "applied_or_unsure_rate": round((applied + unsure) / n, 3),
            "by_lang": by_lang,
        }
        out["relative_dates"]["by_lang"] = {
            lang: {
                "turns": sum(1 for r in rel if r["lang"] == lang),
                "resolved": sum(
                    1
                    for d in detail
                    if d["set"] == "relative_dates" and d["lang"] == lang and d["resolved"]
                ),
            }
            for lang in ("en", "fr")
        }
        sample = [f for r in rel for f in facts(r["id"])][:1]
        out["fact_fields_seen"] = sorted(sample[0]) if sample else []
        out["open_conflicts_seen"] = sum(len(conflicts(c["id"]).get("conflicts", [])) for c in corr)
    for d in detail:
        print(json.dumps(d, ensure_ascii=False), file=sys.stderr)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
