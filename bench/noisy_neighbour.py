"""Noisy neighbour: how long a small project's consolidation waits while a
large capture of another project is being consolidated.

One ``haki serve`` (embedded PostgreSQL, in-process worker, the bundled
embedder) per checkout. Project ``small-alone`` times a 100-turn
consolidation with nothing else queued; then project ``big`` captures
1,000 events of 10 kB in one batch (within the limits), and once its
consolidation runs, project ``small`` captures 100 turns and times its
consolidation (``POST /v1/consolidate/subject`` until it answers 200). It
also prints what ``jobs`` recorded of the big project's jobs.

    .venv/bin/python bench/noisy_neighbour.py --baseline /tmp/base/src

``--baseline DIR``: a ``src`` directory of another checkout, run in the same
invocation (only same-run pairs mean anything on a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime

import httpx

from _server import running_server


def _turns(project: str, subject: str, n: int, size: int) -> list[dict[str, object]]:
    filler = "and then we talked about the weather, the trains and the garden. "
    return [
        {
            "project_id": project,
            "subject_id": subject,
            "kind": "message",
            "occurred_at": f"2026-01-01T{i // 60 % 24:02d}:{i % 60:02d}:00Z",
            "payload": {
                "role": "user",
                "content": f"Turn {i}: I live in city number {i % 7}. "
                + (filler * (size // len(filler) + 1))[:size],
            },
        }
        for i in range(n)
    ]


def _consolidate(c: httpx.Client, project: str, subject: str, limit_s: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < limit_s:
        try:
            r = c.post(
                "/v1/consolidate/subject",
                params={"project_id": project, "subject_id": subject},
                timeout=max(1.0, limit_s - (time.monotonic() - start)),
            )
        except httpx.TimeoutException:
            break  # still unanswered when the limit ran out
        if r.status_code == 200:
            return time.monotonic() - start
        time.sleep(0.2)
    return float("nan")


def _duration(row: dict[str, object], since: str) -> float | None:
    end, begin = row.get("finished_at"), row.get(since)
    if not isinstance(end, str) or not isinstance(begin, str):
        return None
    return (datetime.fromisoformat(end) - datetime.fromisoformat(begin)).total_seconds()


def measure(url: str, args: argparse.Namespace) -> dict[str, object]:
    out: dict[str, object] = {}
    with httpx.Client(base_url=url, timeout=600) as c:
        small = _turns("small-alone", "u", args.turns, 80)
        assert c.post("/v1/capture", json={"events": small}).status_code == 202
        out["alone_s"] = _consolidate(c, "small-alone", "u", args.limit)
        big = _turns("big", "b", args.big_events, args.big_kb * 1000)
        t = time.monotonic()
        r = c.post("/v1/capture", json={"events": big})
        assert r.status_code == 202, r.text
        out["big_capture_s"] = time.monotonic() - t
        print(f"  {out}", file=sys.stderr, flush=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            listed = c.get("/v1/jobs", params={"project_id": "big", "status": "running"}).json()
            if listed["jobs"]:
                break
            time.sleep(0.5)
        time.sleep(args.settle)
        small = _turns("small", "u", args.turns, 80)
        assert c.post("/v1/capture", json={"events": small}).status_code == 202
        out["beside_big_s"] = _consolidate(c, "small", "u", args.limit)
        jobs = c.get("/v1/jobs", params={"project_id": "big", "limit": 200}).json()
        out["big_jobs"] = jobs["counts"]
        done = [j for j in jobs["jobs"] if j["status"] == "done"]
        out["big_done_finished_minus_started_s"] = sorted(
            round(d, 3) for j in done if (d := _duration(j, "started_at")) is not None
        )[:5]
        out["big_done_finished_minus_claimed_s"] = sorted(
            round(d, 3) for j in done if (d := _duration(j, "claimed_at")) is not None
        )[:5]
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--baseline", help="src directory of the checkout to compare with")
    p.add_argument("--turns", type=int, default=100)
    p.add_argument("--big-events", type=int, default=1000)
    p.add_argument("--big-kb", type=int, default=10)
    p.add_argument("--settle", type=float, default=20.0, help="seconds into the big job")
    p.add_argument("--limit", type=float, default=600.0, help="give up timing after this")
    args = p.parse_args()
    runs = [("baseline", args.baseline)] if args.baseline else []
    runs.append(("this tree", None))
    for name, src in runs:
        env = {"PYTHONPATH": src} if src else {}
        with running_server(env=env, python=sys.executable) as url:
            print(name, measure(url, args), flush=True)


if __name__ == "__main__":
    main()
