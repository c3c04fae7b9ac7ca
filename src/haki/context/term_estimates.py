"""The episode full-text leg's term estimates, kept between calls (migration 0174).

In a scope larger than ``episode_term_postings``, ``context_episode_lexical``
estimates each query term's postings from the planner's statistics: half
the leg's CPU on a 10,000-turn scope, for figures that change only when
ANALYZE does. The leg returns the estimates it computed with a token of the
statistics they came from (a hash of their content); this cache keeps them
per scope and hands them back with the token, and the leg uses them only
while its statistics still have that token. A stale entry therefore costs
one computation, never a wrong estimate.

The token is the statistics' content, so an entry is right for any
database whose statistics have that token: the cache is one per process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# Scopes kept, least recently used dropped first; and terms kept per scope,
# all dropped when full (a new token drops them anyway).
MAX_SCOPES = 1024
MAX_TERMS = 4096


@dataclass(slots=True)
class _Scope:
    token: int
    estimates: dict[str, int] = field(default_factory=dict)


class TermEstimates:
    """Per scope: the statistics' token and the estimates of the terms seen under it."""

    def __init__(self, max_scopes: int = MAX_SCOPES, max_terms: int = MAX_TERMS) -> None:
        self._scopes: OrderedDict[tuple[str, str], _Scope] = OrderedDict()
        self._max_scopes = max_scopes
        self._max_terms = max_terms
        self._lock = threading.Lock()

    def known(self, project_id: str, subject_id: str, terms: Sequence[str]) -> dict[str, Any]:
        """The leg's parameters ``token``, ``known_terms``, ``known_estimates``:
        the estimates the cache holds among ``terms``. The leg uses them only
        if they cover every term it estimates (it leaves some out: symbols,
        duplicates), under its statistics' current token."""
        with self._lock:
            scope = self._scopes.get((project_id, subject_id))
            if scope is not None:
                self._scopes.move_to_end((project_id, subject_id))
                known = {t: e for t in terms if (e := scope.estimates.get(t)) is not None}
                if known:
                    return {
                        "token": scope.token,
                        "known_terms": list(known),
                        "known_estimates": list(known.values()),
                    }
        return {"token": None, "known_terms": None, "known_estimates": None}

    def learn(
        self,
        project_id: str,
        subject_id: str,
        token: int | None,
        terms: Sequence[str] | None,
        estimates: Sequence[int] | None,
    ) -> None:
        """Keep what the leg returned (nothing when it computed nothing)."""
        if token is None or not terms or estimates is None or len(terms) != len(estimates):
            return
        key = (project_id, subject_id)
        with self._lock:
            scope = self._scopes.get(key)
            if scope is None or scope.token != token:
                scope = self._scopes[key] = _Scope(token)
            self._scopes.move_to_end(key)
            if len(scope.estimates) + len(terms) > self._max_terms:
                scope.estimates.clear()
            scope.estimates.update(zip(terms, estimates, strict=True))
            while len(self._scopes) > self._max_scopes:
                self._scopes.popitem(last=False)


# One per process (see the module's docstring).
ESTIMATES = TermEstimates()
