"""The episode full-text leg's term estimates, worked out in the server (migration 0174).

In a scope larger than ``episode_term_postings``, ``context_episode_lexical``
estimates each query term's postings from the planner's statistics: half
the leg's CPU on a 10,000-turn scope, for figures that change only when
ANALYZE does. When the leg reads the statistics it returns what the
estimates come from (the scope's keyed words and their frequencies, in the
statistics' order, and ``reltuples``) with a token of the statistics (a
hash of their content). This cache keeps them per scope, works out the
estimates of later calls' terms as the leg does, and hands them back with
the token; the leg uses them only while its statistics still have that
token. A stale entry therefore costs one computation, never a wrong
estimate.

An estimate is the leg's: ``round(sum(freq) * reltuples)`` over the scope's
words that start with the lowercased term, the sum in float4 in the
statistics' order (numpy ``float32``, the same IEEE single additions as
PostgreSQL's ``float4pl``), the product in float8, rounded half to even
(``rint``, as Python's ``round``). Only ASCII terms are worked out here:
PostgreSQL's ``lower()`` follows the database's locale, Python's does not,
and beyond ASCII they may differ; the leg estimates those itself.

The token is the statistics' content, so an entry is right for any database
whose statistics have that token: the cache is one per process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Scopes kept, least recently used dropped first; and terms remembered per
# scope, all dropped when full.
MAX_SCOPES = 1024
MAX_TERMS = 4096

NOTHING_KNOWN: dict[str, Any] = {"token": None, "known_terms": None, "known_estimates": None}


@dataclass(slots=True)
class _Scope:
    token: int
    words: tuple[str, ...]
    freqs: tuple[np.float32, ...]
    rows: float
    estimates: dict[str, int] = field(default_factory=dict)

    def estimate(self, term: str) -> int:
        prefix = term.lower()
        total: np.float32 | None = None
        for word, freq in zip(self.words, self.freqs, strict=True):
            if word.startswith(prefix):
                total = freq if total is None else np.float32(total + freq)
        return 0 if total is None else round(float(total) * self.rows)


class TermEstimates:
    """Per scope: the statistics' token and what the estimates are worked out from."""

    def __init__(self, max_scopes: int = MAX_SCOPES, max_terms: int = MAX_TERMS) -> None:
        self._scopes: OrderedDict[tuple[str, str], _Scope] = OrderedDict()
        self._max_scopes = max_scopes
        self._max_terms = max_terms
        self._lock = threading.Lock()

    def known(self, project_id: str, subject_id: str, terms: Sequence[str]) -> dict[str, Any]:
        """The leg's parameters ``token``, ``known_terms``, ``known_estimates``:
        the estimates of ``terms`` that can be worked out here. The leg uses
        them only if they cover every term it estimates (it leaves some out:
        symbols, duplicates), under its statistics' current token."""
        with self._lock:
            scope = self._scopes.get((project_id, subject_id))
            if scope is None:
                return NOTHING_KNOWN
            self._scopes.move_to_end((project_id, subject_id))
            known: dict[str, int] = {}
            for term in terms:
                if not term.isascii() or term in known:
                    continue
                value = scope.estimates.get(term)
                if value is None:
                    if len(scope.estimates) >= self._max_terms:
                        scope.estimates.clear()
                    value = scope.estimates[term] = scope.estimate(term)
                known[term] = value
        if not known:
            return NOTHING_KNOWN
        return {
            "token": scope.token,
            "known_terms": list(known),
            "known_estimates": list(known.values()),
        }

    def learn(
        self,
        project_id: str,
        subject_id: str,
        token: int | None,
        words: Sequence[str] | None,
        freqs: Sequence[float] | None,
        rows: float | None,
    ) -> None:
        """Keep what the leg returned (nothing when it read no statistics)."""
        if token is None or words is None or freqs is None or rows is None:
            return
        if len(words) != len(freqs):
            return
        scope = _Scope(token, tuple(words), tuple(np.float32(f) for f in freqs), float(rows))
        key = (project_id, subject_id)
        with self._lock:
            self._scopes[key] = scope
            self._scopes.move_to_end(key)
            while len(self._scopes) > self._max_scopes:
                self._scopes.popitem(last=False)


# One per process (see the module's docstring).
ESTIMATES = TermEstimates()
