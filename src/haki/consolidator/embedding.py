"""Embedding a job's texts in length groups, off the event loop.

A batch is padded to its longest text, and chat turns range from a few
words to hundreds: in one batch, a short turn costs as much as the longest.
Texts are sorted by length and cut into groups whose padded size (longest ×
count) stays under ``PADDED_CHARS_PER_CALL``; on LoCoMo turns this doubles
the local embedder's throughput against one batch per job (measured 80 vs 40
texts per CPU-second).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from ..providers.embed import Embedder

PADDED_CHARS_PER_CALL = 1000


def length_groups(texts: Sequence[str], budget: int = PADDED_CHARS_PER_CALL) -> list[list[int]]:
    """Indices of ``texts`` in groups of similar length (shortest first, ties by index)."""
    groups: list[list[int]] = []
    current: list[int] = []
    for i in sorted(range(len(texts)), key=lambda i: (len(texts[i]), i)):
        if current and len(texts[i]) * (len(current) + 1) > budget:
            groups.append(current)
            current = []
        current.append(i)
    if current:
        groups.append(current)
    return groups


def _embed_grouped(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    for group in length_groups(texts):
        out[group] = embedder.embed_documents([texts[i] for i in group])
    return out


async def embed_texts(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Unit vectors for ``texts``, in order, computed in a worker thread."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    return await asyncio.to_thread(_embed_grouped, embedder, list(texts))
