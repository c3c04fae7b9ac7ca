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
"""

from __future__ import annotations

import argparse
import bisect
import time
from collections.abc import Callable
from pathlib import Path

from engram_dev_sets import SETS, F
from haki.engram import benchmark
from haki.engram.frontmatter import parse
from haki.engram.index import Doc, open_index
from haki.engram.loader import _query_vector, merge_and_filter
from haki.engram.record import replace
from haki.engram.routing import DEFAULT_ROUTING, route
from haki.engram.semantic import Table, cosine, open_table
from haki.engram.text import words
from haki.engram.workspace import Root, locate

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


def collect(table: Table) -> tuple[list[Row], dict[tuple[str, str], tuple[str, str]]]:
    today = time.strftime("%Y-%m-%d")
    rows: list[Row] = []
    texts: dict[tuple[str, str], tuple[str, str]] = {}
    for _, file, split, workspace, global_dir in SETS:
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
            for s in route(case.query, pool, today, query_vector=task, cfg=SEED_ONLY).ranked:
                key = (s.doc.scope, s.doc.id)
                if key not in texts:
                    texts[key] = memory_texts(by_scope[s.doc.scope], s.doc)
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
                        "coverage": s.coverage,
                        "one word": len(set(s.matched)) == 1,
                        "static, whole memory": meaning,
                        "static, curated fields": cosine(task, curated) if curated else 0.0,
                        "static, task less shared words": (
                            cosine(rest_vector, memory) if rest_vector and memory else 0.0
                        ),
                        "static, z over the pool": (meaning - mean) / spread,
                        "static, rank in the pool": -sum(1 for x in near if x > meaning + 1e-9),
                        "coverage (words)": s.coverage,
                    }
                )
    return rows, texts


def add_full_model(rows: list[Row], texts: dict[tuple[str, str], tuple[str, str]]) -> None:
    """The full MiniLM, task against the memory: the ceiling of the distilled table."""
    from haki.providers.embed import LocalEmbedder

    embedder = LocalEmbedder(fast_documents=False)
    keys = sorted(texts)
    tasks = sorted({str(r["task"]) for r in rows})
    curated = embedder.embed_documents([texts[k][0] for k in keys])
    whole = embedder.embed_documents([texts[k][1] for k in keys])
    queries = embedder.embed_documents(tasks)
    doc_at = {k: i for i, k in enumerate(keys)}
    task_at = {t: i for i, t in enumerate(tasks)}
    for r in rows:
        vector = queries[task_at[str(r["task"])]]
        at = doc_at[r["key"]]  # type: ignore[index]
        r["full MiniLM, whole memory"] = float(vector @ whole[at])
        r["full MiniLM, curated fields"] = float(vector @ curated[at])


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
    parser.add_argument("--full", action="store_true", help="also the full MiniLM model")
    args = parser.parse_args(argv)
    table = open_table()
    if table is None:
        raise SystemExit("no static table: run `engram distil` first")
    rows, texts = collect(table)
    if args.full:
        add_full_model(rows, texts)
    signals = [k for k in rows[0] if k not in ("label", "task", "key", "coverage", "one word")]
    populations: list[tuple[str, Callable[[Row], bool]]] = [
        ("all", lambda r: True),
        ("coverage < 30 %", lambda r: float(r["coverage"]) < 0.3),  # type: ignore[arg-type]
        ("one word", lambda r: bool(r["one word"])),
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
