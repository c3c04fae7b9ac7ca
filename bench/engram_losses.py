"""Where routing loses, on every non-blind set: the stage that drops each missed
must-load memory, and what admitted each memory a nothing-fits task shows.

A missed expected memory is put in one stage: ``hidden`` (role, ignore, shadow),
``no overlap`` (shares no anchor with the task), a routing refusal (``refusal``: too
few anchors and no strong field, ``generic``: generic words only, ``weak meaning``:
small share of the task and far in meaning, ``other_stack``, ``lifecycle``),
``floor`` (ranked, but under the selection floors), ``cut`` (selected past k) or
``gated`` (hash or safety gate). A memory shown on a nothing-fits task, or a
must-not-load one shown, is listed with the words that admitted it, their fields,
its coverage and its cosine with the task.

    python bench/engram_losses.py                 # counts per set and stage
    python bench/engram_losses.py --detail FILE   # every loss, one JSON line each
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from engram_dev_sets import SETS, SMALL, F
from haki.engram import benchmark
from haki.engram.index import open_index
from haki.engram.loader import _query_vector, load, merge_and_filter
from haki.engram.plan import LoadRequest
from haki.engram.routing import route
from haki.engram.semantic import cosine
from haki.engram.workspace import Roots, locate


def _stage(expected: str, plan, routed, pool, k: int) -> tuple[str, str]:
    batch = [i.id for i in plan.batch]
    if expected in batch:
        return ("cut", f"batch position {batch.index(expected) + 1}")
    if any(s.id == expected for s in plan.skipped):
        return ("gated", "")
    if expected not in pool.by_id:
        return ("hidden", "")
    for o in routed.omitted:
        if o.id == expected:
            if o.reason == "weak_match":
                if o.detail.startswith("explains"):
                    return ("weak meaning", o.detail)
                if o.detail.startswith("generic"):
                    return ("generic", o.detail)
                return ("refusal", o.detail)
            return (o.reason, o.detail)
    for rank, s in enumerate(routed.ranked):
        if s.doc.id == expected:
            best = routed.ranked[0].score or 1.0
            return ("floor", f"rank {rank + 1}, {s.score / best:.0%} of best")
    return ("no overlap", "")


def _why(mid: str, routed) -> dict[str, object]:
    for s in routed.ranked:
        if s.doc.id == mid:
            return {
                "id": mid,
                "hits": [r for r in s.reasons if ": " in r and not r.startswith("coverage")],
                "coverage": round(s.coverage, 3),
                "meaning": None if s.meaning is None else round(s.meaning, 3),
            }
    return {"id": mid}


def analyse(name: str, cases, roots: Roots, k: int, out: list[dict], today: str) -> Counter:
    counts: Counter = Counter()
    ix = [open_index(r, roots.config.ignore) for r in roots.all()]
    for case in cases:
        plan = load(LoadRequest(case.query, roles=case.roles, record_usage=False), roots, today)
        pool, _, _ = merge_and_filter(ix, case.roles or roots.config.roles)
        qv = _query_vector(case.query)
        routed = route(case.query, pool, today, query_vector=qv)
        items = (*plan.batch, *plan.omitted_cards)
        shown = [i.id for i in items]
        scoped = [f"{i.scope}:{i.id}" for i in items]
        top = [i.id for i in plan.batch][:k]
        base = {"set": name, "query": case.query, "category": case.category}
        for e in case.expect:
            mid = e.partition(":")[2] or e
            if mid in top:
                continue
            stage, detail = _stage(mid, plan, routed, pool, k)
            pos = pool.by_id.get(mid)
            vec = pool.vector(pos) if pos is not None else None
            meaning = None if vec is None or qv is None else round(cosine(qv, vec), 3)
            counts[f"miss: {stage}"] += 1
            out.append(
                {
                    **base,
                    "kind": "miss",
                    "id": mid,
                    "stage": stage,
                    "detail": detail,
                    "meaning": meaning,
                    "shown": top,
                }
            )
        if not case.expect and shown:
            counts["nothing-fits dirty"] += 1
            for mid in shown:
                out.append(
                    {**base, "kind": "nothing-fits", **_why(mid, routed), "body": mid in top}
                )
        for f in case.forbid:
            fid = f.partition(":")[2] or f
            if any(benchmark.matches(f, s) for s in scoped):
                counts["must-not-load shown"] += 1
                out.append({**base, "kind": "must-not-load", **_why(fid, routed)})
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detail", type=Path, help="write every loss as JSON lines")
    args = parser.parse_args(argv)
    today = time.strftime("%Y-%m-%d")
    out: list[dict] = []
    table: dict[str, Counter] = {}
    for name, file, split, workspace, global_dir in SETS:
        k, cases = benchmark.read_cases(F / file)
        chosen = [c for c in cases if not split or c.split == split]
        table[name] = analyse(name, chosen, locate(workspace, global_dir), k, out, today)
    for name, folder in SMALL:
        table[name] = Counter()
        for path in sorted((F / "small_repos" / folder).glob("*.json")):
            k, cases = benchmark.read_cases(path)
            roots = locate(F / "small_repos" / "repos" / path.stem, None, False)
            table[name] += analyse(name, cases, roots, k, out, today)
    stages = sorted({s for c in table.values() for s in c})
    print("| set | " + " | ".join(stages) + " |")
    print("|---|" + "---|" * len(stages))
    for name, c in table.items():
        print(f"| {name} | " + " | ".join(str(c.get(s, 0)) for s in stages) + " |")
    if args.detail:
        args.detail.write_text("".join(json.dumps(r) + "\n" for r in out), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
