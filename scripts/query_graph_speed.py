"""CPU ms per text of the int8 encoder, the graph before ``query_graph`` vs after.

Both graphs are built from the installed model in the same run (as
``query_model`` builds them) and run on single-threaded sessions like
``LocalEmbedder``'s, one text per run. Rounds interleave the two graphs and
alternate which one goes first, so drift on a shared machine falls on both;
the figure is process CPU time (``time.process_time``), not wall time.
Two workloads: LoCoMo dev turns and the short conversational turns of
``bench/short_turns.py``. It also prints the largest |difference| between
the two graphs' vectors over every text, which must be 0.0.

    python scripts/query_graph_speed.py --rounds 7
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from haki.providers.embed import MAX_TOKENS, QUERY_THREADS, _session, model_files
from haki.providers.query_model import _build

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import short_turns
from locomo import DATA, load


def token_rows(texts: list[str]) -> list[np.ndarray]:
    from tokenizers import Tokenizer

    _, path = model_files()
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.no_padding()
    return [np.asarray([e.ids], dtype=np.int64) for e in tokenizer.encode_batch(texts)]


def feeds(rows: list[np.ndarray], masked: bool) -> list[dict[str, np.ndarray]]:
    out = []
    for ids in rows:
        feed = {"input_ids": ids, "token_type_ids": np.zeros_like(ids)}
        if masked:
            feed["attention_mask"] = np.ones_like(ids)
        out.append(feed)
    return out


def vectors(session: Any, batch: list[dict[str, np.ndarray]]) -> np.ndarray:
    """Mean-pooled vectors, as ``LocalEmbedder._run`` makes them of one text."""
    return np.stack([session.run(None, feed)[0][0].mean(axis=0) for feed in batch])


def cpu_ms_per_text(session: Any, batch: list[dict[str, np.ndarray]]) -> float:
    start = time.process_time()
    for feed in batch:
        session.run(None, feed)
    return (time.process_time() - start) * 1000 / len(batch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--texts", type=int, default=500, help="texts per workload")
    args = parser.parse_args()

    import onnxruntime as ort

    source, _ = model_files()
    level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    with tempfile.TemporaryDirectory() as tmp:
        old_path, new_path = Path(tmp) / "old.onnx", Path(tmp) / "new.onnx"
        _build(source, old_path, rewritten=False)
        _build(source, new_path)
        sessions = {
            "old": _session(old_path, QUERY_THREADS, level),
            "new": _session(new_path, QUERY_THREADS, level),
        }
    locomo, _ = load(DATA, None, 0)
    workloads = {
        "locomo": [t.text for t in locomo[: args.texts]],
        "short": [text for _, text, _ in short_turns.turns(args.texts)],
    }
    print(f"onnxruntime {ort.__version__}; {args.rounds} rounds, {args.texts} texts per workload")
    for name, texts in workloads.items():
        rows = token_rows(texts)
        batches = {"old": feeds(rows, masked=True), "new": feeds(rows, masked=False)}
        diff = np.abs(
            vectors(sessions["old"], batches["old"]) - vectors(sessions["new"], batches["new"])
        )
        times: dict[str, list[float]] = {"old": [], "new": []}
        for r in range(args.rounds):
            for side in ("old", "new") if r % 2 == 0 else ("new", "old"):
                times[side].append(cpu_ms_per_text(sessions[side], batches[side]))
        old, new = statistics.median(times["old"]), statistics.median(times["new"])
        tokens = statistics.mean(len(r[0]) for r in rows)
        print(
            f"{name:7} ({tokens:.1f} tokens/text): old {old:.3f} -> new {new:.3f} CPU ms/text "
            f"(median of {args.rounds}, {100 * (new / old - 1):+.1f} %); "
            f"max |diff| of vectors {float(diff.max())}"
        )
        for side in ("old", "new"):
            print(f"    {side} rounds: " + " ".join(f"{t:.3f}" for t in times[side]))


if __name__ == "__main__":
    main()
