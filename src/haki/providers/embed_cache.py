"""Inference skipped for texts already embedded: within a call and across calls.

Conversations repeat themselves ("ok", "thanks", an assistant's stock
phrases, the same fact sentence for every restatement), and each repeat
would cost a full pass of the model. ``unique_positions`` folds a call's
duplicates onto one row; ``DocumentCache`` keeps the vectors of recent short
texts so a later job's repeats cost a lookup. A cached vector is the one the
model gave that text in an earlier batch: batch composition only changes
padding, which the attention mask hides, so it equals a fresh one to float
rounding (``tests/unit/test_embed_cache.py`` checks the model's).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# Texts kept at most: 8,192 x (384 floats + a short key) is about 14 MB.
DOCUMENT_CACHE_SIZE = 8192
# Only short texts repeat word for word; long ones would fill the cache with
# keys that never hit.
DOCUMENT_CACHE_MAX_CHARS = 200


def unique_positions(texts: Sequence[str]) -> tuple[list[str], list[int]]:
    """The distinct texts in first-seen order, and for each input its row among them."""
    rows: dict[str, int] = {}
    positions = [rows.setdefault(t, len(rows)) for t in texts]
    return list(rows), positions


class DocumentCache:
    """A thread-safe LRU of read-only unit vectors keyed by text (short texts only)."""

    def __init__(
        self, size: int = DOCUMENT_CACHE_SIZE, max_chars: int = DOCUMENT_CACHE_MAX_CHARS
    ) -> None:
        self._size = size
        self._max_chars = max_chars
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def get_many(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors among ``texts`` (each hit becomes the most recent)."""
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for text in texts:
                vector = self._items.get(text)
                if vector is not None:
                    self._items.move_to_end(text)
                    found[text] = vector
        return found

    def put_many(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Keep the short ones among ``texts`` (rows of ``vectors``), evicting the oldest."""
        if self._size <= 0:
            return
        with self._lock:
            for text, vector in zip(texts, vectors, strict=True):
                if len(text) > self._max_chars:
                    continue
                kept = vector.copy()
                kept.setflags(write=False)  # shared by every later caller
                self._items[text] = kept
                self._items.move_to_end(text)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
