"""The int8 query session under other onnxruntime options: same vectors? less CPU?

A context call embeds its query on one thread of the int8 build
(``providers/query_model.py``). This script builds that session as
``LocalEmbedder`` does, then one variant per option, checks each variant's
vectors against it bit for bit on the corpus questions, and runs every
session on every question in turn (interleaved, so the machine's drift hits
all alike), printing each one's CPU and wall time per query.

    .venv/bin/python bench/query_session_options.py --questions 200 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from context_corpus import queries
from haki.providers.embed import QUERY_THREADS, LocalEmbedder, model_files
from haki.providers.query_model import query_model

LEVELS = ort.GraphOptimizationLevel
# name: (graph optimisation level, session config entries, SessionOptions attributes)
VARIANTS: dict[str, tuple[Any, dict[str, str], dict[str, Any]]] = {
    "current": (LEVELS.ORT_ENABLE_ALL, {}, {}),
    "extended level": (LEVELS.ORT_ENABLE_EXTENDED, {}, {}),
    "basic level": (LEVELS.ORT_ENABLE_BASIC, {}, {}),
    "no GELU approximation": (
        LEVELS.ORT_ENABLE_ALL,
        {"optimization.enable_gelu_approximation": "0"},
        {},
    ),
    "denormals as zero": (LEVELS.ORT_ENABLE_ALL, {"session.set_denormal_as_zero": "1"}, {}),
    "no memory arena": (LEVELS.ORT_ENABLE_ALL, {}, {"enable_cpu_mem_arena": False}),
    "no memory pattern": (LEVELS.ORT_ENABLE_ALL, {}, {"enable_mem_pattern": False}),
}


def session(model: Path | bytes, level: Any, entries: dict[str, str], attrs: dict[str, Any]) -> Any:
    """``embed._session``'s options for the query session, plus one variant."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = QUERY_THREADS
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = level
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    for key, value in entries.items():
        opts.add_session_config_entry(key, value)
    for key, value in attrs.items():
        setattr(opts, key, value)
    source = model if isinstance(model, bytes) else str(model)
    return ort.InferenceSession(source, opts, providers=["CPUExecutionProvider"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="haki-query-model-") as cache:
        model = query_model(model_files()[0], Path(cache))
        tokenizer = LocalEmbedder()._loaded_tokenizer()
        feeds = []
        for q in queries(args.questions):
            ids = np.asarray([tokenizer.encode(q).ids], dtype=np.int64)
            feeds.append({"input_ids": ids, "token_type_ids": np.zeros_like(ids)})
        sessions = {name: session(model, *v) for name, v in VARIANTS.items()}
        reference = [sessions["current"].run(None, f)[0] for f in feeds]
        cpu = dict.fromkeys(sessions, 0.0)
        wall: dict[str, list[float]] = {name: [] for name in sessions}
        for _ in range(args.rounds):
            for feed in feeds:
                for name, s in sessions.items():
                    c, w = time.process_time(), time.perf_counter()
                    s.run(None, feed)
                    wall[name].append((time.perf_counter() - w) * 1000)
                    cpu[name] += (time.process_time() - c) * 1000
    runs = args.rounds * len(feeds)
    print(f"{len(feeds)} questions x {args.rounds} rounds, one thread")
    for name, s in sessions.items():
        same = all(
            np.array_equal(s.run(None, f)[0], r) for f, r in zip(feeds, reference, strict=True)
        )
        print(
            f"  {name:24} same vectors: {'yes' if same else 'NO '}  CPU {cpu[name] / runs:.3f} ms"
            f"  wall p50 {statistics.median(wall[name]):.3f} ms"
        )


if __name__ == "__main__":
    main()
