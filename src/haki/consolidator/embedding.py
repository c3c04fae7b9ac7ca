"""Embedding a job's texts off the event loop.

Inference is CPU-bound and would stall every request sharing the loop; the
embedder itself groups texts by length so padding stays small.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from ..providers.embed import Embedder


async def embed_texts(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Unit vectors for ``texts``, in order, computed in a worker thread."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    return await asyncio.to_thread(embedder.embed_documents, list(texts))
