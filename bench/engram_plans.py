"""Every development plan, rendered, as one JSON document: speed work must not change it.

Runs each task of the non-blind sets (``dev_cases.json`` and
``shared_corpus_cases.json`` over the shared corpus, ``cases.json`` over the fixture
corpus, every ``small_repos/cases/*.json`` over its repository) through
``haki.engram.load`` with a fixed date, and writes, per task, the plan
(``LoadPlan.to_dict``), the rendered text, and the built index's rows, postings and
vectors (after the plans, every vector derived: the ones the loads wrote back and the rest). Run it on two checkouts and compare the files byte for byte:

    PYTHONPATH=src python bench/engram_plans.py --out /tmp/after.json
    PYTHONPATH=../base/src python bench/engram_plans.py --out /tmp/before.json
    cmp /tmp/before.json /tmp/after.json

Each set is indexed from a private copy (an empty cache and memo), so the index the
plans come from is the one a cold build makes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path

from haki.engram.benchmark import read_cases
from haki.engram.disclosure import render
from haki.engram.index import Index, open_index
from haki.engram.loader import load
from haki.engram.plan import LoadRequest
from haki.engram.workspace import locate

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "engram"
SHARED = REPO.parent / "shared" / "data" / "engram-rules" / "corpus"
TODAY = "2026-12-05"


def sets() -> list[tuple[str, Path, Path | None, Path]]:
    """``(name, workspace, global dir, cases)`` of every non-blind set."""
    found = [
        ("dev", SHARED, SHARED / "global", FIXTURES / "dev_cases.json"),
        ("shared", SHARED, SHARED / "global", FIXTURES / "shared_corpus_cases.json"),
        (
            "fixture",
            FIXTURES / "corpus" / "workspace",
            FIXTURES / "corpus" / "global",
            FIXTURES / "cases.json",
        ),
    ]
    small = FIXTURES / "small_repos"
    for cases in sorted((small / "cases").glob("*.json")):
        found.append((f"small:{cases.stem}", small / "repos" / cases.stem, None, cases))
    return found


def _copy(src: Path, into: Path) -> Path:
    """The memories of ``src`` in a new repository (same relative layout, no cache)."""
    (into / ".git").mkdir(parents=True)
    shutil.copytree(src, into, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".cache", ".git"))
    return into


def dump() -> dict[str, object]:
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="engram-plans-") as tmp:
        base = Path(tmp)
        os.environ["ENGRAM_CACHE_DIR"] = str(base / "cache")
        os.environ["ENGRAM_MEMO_DIR"] = str(base / "memo")
        for n, (name, workspace, global_dir, cases_path) in enumerate(sets()):
            ws = _copy(workspace, base / f"ws{n}")
            gl = _copy(global_dir, base / f"gl{n}") if global_dir else None
            roots = locate(ws, gl, gl is not None)
            _, cases = read_cases(cases_path)
            plans = []
            for case in cases:
                plan = load(
                    LoadRequest(case.query, roles=case.roles, record_usage=False), roots, TODAY
                )
                plans.append({"plan": plan.to_dict(), "rendered": render(plan).text})
            indexes = [open_index(root, roots.config.ignore) for root in roots.all()]
            out[name] = {
                "plans": plans,
                "indexes": [
                    {"rows": ix.rows, "postings": ix.postings, "vectors": _vectors(ix)}
                    for ix in indexes
                ],
            }
    return out


def _vectors(ix: Index) -> list[str]:
    """Every memory's vector: those the plans' loads derived and wrote back, the rest
    derived now (an index built eagerly, by an older tree, has them all)."""
    derived = getattr(ix, "vector", None)
    if derived is None:
        return list(ix.vectors)
    return [derived(no) for no in range(len(ix.rows))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    text = json.dumps(dump(), sort_keys=True, indent=0)
    # Copies live under a temporary folder whose name differs per run.
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
