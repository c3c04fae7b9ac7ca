"""Embedding consolidation texts off the event loop, and ahead of the jobs.

Inference is CPU-bound and would stall every request sharing the loop; the
embedder itself groups texts by length so padding stays small.

Every project's jobs share the embedder's inference threads, which serve
calls in the order they come. A large job's texts therefore go in slices of
at most ``EMBED_SLICE_CHARS``, one call after the other: another project's
job, arriving meanwhile, waits for one slice, not for the whole job (one
capture of 10 MB made another project's 100-turn consolidate wait 47 s).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from ..jobs.sizing import split_by_size
from ..providers.embed import Embedder
from .stages import stage

EMBED_SLICE_CHARS = 32 * 1024


def slices(texts: Sequence[str], max_chars: int = EMBED_SLICE_CHARS) -> list[range]:
    """Consecutive index ranges over ``texts`` of at most ``max_chars`` in all
    (or one text longer than that by itself)."""
    return split_by_size([len(t) for t in texts], max_events=len(texts), max_bytes=max_chars)


async def embed_texts(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Unit vectors for ``texts``, in order, computed in a worker thread, a
    slice at a time."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    with stage("embedding"):
        parts = [
            await asyncio.to_thread(embedder.embed_documents, list(texts[s.start : s.stop]))
            for s in slices(texts)
        ]
    return parts[0] if len(parts) == 1 else np.vstack(parts)


class PrefetchedEmbedder:
    """An embedder that serves vectors computed ahead of time for known texts.

    The worker embeds the chunks of every job it claimed in one call (fuller
    inference batches, less padding), then runs each job in its own
    transaction with this wrapper; texts it does not know (new facts,
    predicates, or chunks that changed since) go to the wrapped embedder.
    """

    def __init__(self, inner: Embedder, texts: Sequence[str], vectors: np.ndarray):
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.space = getattr(inner, "space", None)
        self._known: dict[str, np.ndarray] = dict(zip(texts, vectors, strict=True))

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._known]
        if missing:
            self._known.update(zip(missing, self.inner.embed_documents(missing), strict=True))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._known[t] for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embed_documents([text])[0]
        return vector
