"""One bound for the per-text memos of every reader, and one way to forget them all (pure).

A turn's text is read by several readers in turn (its episode marks, the
guard, the turn's clauses, the extractors): each memoises what it reads per
text, so a turn pays for each reading once. Every such memo is made here, with
one bound, and is listed, so ``clear`` forgets them all (to compare two
readings of the same texts, ``bench/marks_same_output.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import _lru_cache_wrapper, lru_cache
from typing import TypeVar

T = TypeVar("T")

MEMO_SIZE = 4096

_MEMOS: list[_lru_cache_wrapper[object]] = []


def memo(fn: Callable[..., T]) -> _lru_cache_wrapper[T]:
    """``fn`` memoised per argument up to ``MEMO_SIZE`` entries, and listed for ``clear``."""
    cached = lru_cache(maxsize=MEMO_SIZE)(fn)
    _MEMOS.append(cached)
    return cached


def clear() -> None:
    """Forget every memo made by ``memo``."""
    for cached in _MEMOS:
        cached.cache_clear()
