"""CPU ms per text of the int8 document encoder: one text per run against
batches of same-length texts on the graph quantised per row (``query_rows``).

No database. Both graphs are built from the installed model in this run, as
``query_model`` builds them (``rows=False`` / ``True``); every session is
single-threaded with onnxruntime's full optimisation, as ``LocalEmbedder``'s.
Texts go in calls of ``--call`` distinct texts (a consolidation job embeds
up to 100 turns per call); a call is cut into runs of one token count
(``embed_rows.runs``), never padded. Rounds interleave the paths and
alternate which goes first; the figure is process CPU time, one thread.

Paths timed:

- ``alone``: the per-tensor graph, one text per run (``_infer_alone`` before);
- ``rows``: the per-row graph, every run (texts alone included);
- ``mixed``: runs of ``MIN_RUN_ROWS`` texts or more on the per-row graph,
  the others one text per run on the per-tensor graph (what
  ``_infer_alone`` does);
- ``tensor-batched``: the per-tensor graph on the same runs. Its rows share
  one scale, so a vector depends on its companions: not usable, printed as
  the bound of what batching could save with the fused kernels.

Vectors printed: rows batched against rows alone and against the per-tensor
graph alone (both must be 0.0: stored vectors and facts stay as they were).

    python bench/batch_rows.py --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from haki.providers.embed import MAX_TOKENS, QUERY_THREADS, model_files
from haki.providers.embed_rows import MIN_RUN_ROWS
from haki.providers.embed_rows import runs as embed_runs
from haki.providers.query_model import query_model

sys.path.insert(0, str(Path(__file__).resolve().parent))
import short_turns
from locomo import DATA, load


def session(path: Path) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = QUERY_THREADS
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def token_rows(texts: list[str]) -> list[list[int]]:
    from tokenizers import Tokenizer

    _, path = model_files()
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.no_padding()
    return [e.ids for e in tokenizer.encode_batch(texts)]


def runs(rows: list[list[int]], call: int) -> list[list[int]]:
    """Indices of ``rows``, a call of ``call`` texts at a time, cut by token count."""
    out: list[list[int]] = []
    for start in range(0, len(rows), call):
        part = rows[start : start + call]
        out.extend([start + i for i in r] for r in embed_runs([len(r) for r in part]))
    return out


def run(sess: Any, rows: list[list[int]]) -> np.ndarray:
    """Mean-pooled unit vectors of unpadded rows of one length."""
    ids = np.asarray(rows, dtype=np.int64)
    (hidden,) = sess.run(None, {"input_ids": ids, "token_type_ids": np.zeros_like(ids)})
    pooled = hidden.mean(axis=1)
    unit: np.ndarray = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return unit


def vectors(
    sess: Any, rows: list[list[int]], groups: list[list[int]], single: Any = None
) -> np.ndarray:
    """``single``: the session for runs shorter than ``MIN_RUN_ROWS``, one
    text per run (default: every run on ``sess``)."""
    out = np.zeros((len(rows), 384), dtype=np.float32)
    for g in groups:
        if single is not None and len(g) < MIN_RUN_ROWS:
            for i in g:
                out[[i]] = run(single, [rows[i]])
        else:
            out[g] = run(sess, [rows[i] for i in g])
    return out


def cpu_ms_per_text(fn: Callable[[], object], texts: int) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000 / texts


def workloads(short: int, locomo: int) -> dict[str, list[str]]:
    turns, _ = load(DATA, None, 0)
    distinct_short = list(dict.fromkeys(text for _, text, _ in short_turns.turns(short * 4)))
    return {
        "short": distinct_short[:short],
        "locomo": list(dict.fromkeys(t.text for t in turns))[:locomo],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--short", type=int, default=1000, help="distinct short turns")
    parser.add_argument("--locomo", type=int, default=600, help="distinct LoCoMo dev turns")
    parser.add_argument("--call", type=int, default=100, help="texts per embedding call")
    args = parser.parse_args()

    import onnxruntime as ort

    source, _ = model_files()
    with tempfile.TemporaryDirectory() as tmp:
        sessions = {
            "alone": session(Path(str(query_model(source, Path(tmp))))),
            "rows": session(Path(str(query_model(source, Path(tmp), rows=True)))),
        }
    print(f"onnxruntime {ort.__version__}; {args.rounds} rounds, calls of {args.call} texts")
    for name, texts in workloads(args.short, args.locomo).items():
        rows = token_rows(texts)
        singles = [[i] for i in range(len(rows))]
        groups = runs(rows, args.call)
        sizes = Counter(len(g) for g in groups)
        alone = vectors(sessions["alone"], rows, singles)
        rows_alone = vectors(sessions["rows"], rows, singles)
        rows_batched = vectors(sessions["rows"], rows, groups)
        print(
            f"\n{name}: {len(rows)} texts, {statistics.mean(len(r) for r in rows):.1f} tokens, "
            f"{len(groups)} runs of one length ({len(rows) / len(groups):.2f} texts per run; "
            f"runs of 1: {sizes[1]}, of 2-4: {sum(sizes[k] for k in (2, 3, 4))}, "
            f"of 5+: {sum(v for k, v in sizes.items() if k >= 5)})"
        )
        print(
            f"  max |diff|: rows batched vs rows alone {np.abs(rows_batched - rows_alone).max()}, "
            f"vs the per-tensor graph alone {np.abs(rows_batched - alone).max()}"
        )
        paths: dict[str, Callable[[], object]] = {
            "alone": partial(vectors, sessions["alone"], rows, singles),
            "rows": partial(vectors, sessions["rows"], rows, groups),
            "mixed": partial(vectors, sessions["rows"], rows, groups, sessions["alone"]),
            "tensor-batched": partial(vectors, sessions["alone"], rows, groups),
        }
        times: dict[str, list[float]] = {p: [] for p in paths}
        for r in range(args.rounds):
            order = list(paths) if r % 2 == 0 else list(reversed(paths))
            for p in order:
                times[p].append(cpu_ms_per_text(paths[p], len(rows)))
        base = statistics.median(times["alone"])
        for p, ts in times.items():
            med = statistics.median(ts)
            print(
                f"  {p:15} {med:.3f} CPU ms/text (median; x{base / med:.2f} of alone) "
                + " ".join(f"{t:.3f}" for t in ts)
            )


if __name__ == "__main__":
    main()
