"""Episodic memory: ranked turns of the scope, packed after facts in the same budget.

Phase 1 gathers candidates: the full-text top-K (sent while the query is
embedded), then the cosine top-K and both legs' rows; the turns around the
strongest candidates come in a second, small query; ranking is pure
(``episode_ranking``). With ``as_of`` only events that had occurred by
then are eligible. ``episode_top_k = 0`` turns episodes off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..storage import Connection
from .config import EpisodeWeights, RetrievalConfig
from .episode_candidates import (
    EpisodeQuery,
    EpisodeWork,
    LexicalHits,
    episode_candidates,
    neighbours,
)
from .episode_ranking import (
    anchors,
    base_relevance,
    merge_neighbours,
    rank_episodes,
)
from .query import asks_for_list
from .types import Scored


def episode_weights(query: str, cfg: RetrievalConfig) -> EpisodeWeights:
    """The ranking weights for this question: list questions have their own."""
    if cfg.list_episode_weights is not None and asks_for_list(query):
        return cfg.list_episode_weights
    return cfg.episode_weights


async def ranked_episodes(
    conn: Connection,
    q: EpisodeQuery,
    vec: np.ndarray,
    terms: Sequence[str],
    lexical: LexicalHits,
    cfg: RetrievalConfig,
    w: EpisodeWeights,
) -> tuple[list[Scored], EpisodeWork]:
    """Both legs' candidates, the turns around the strongest, ranked (not
    packed), and the rows each step handled."""
    work = EpisodeWork(
        lexical_postings=lexical.postings,
        lexical_fetched=lexical.fetched,
        lexical_ranked=lexical.ranked,
    )
    if cfg.episode_top_k < 1:
        return [], work
    rows = await episode_candidates(conn, q, vec, lexical.ids, cfg)
    work = replace(work, pool=len(rows))
    if not rows:
        return [], work
    rel = base_relevance(rows, terms, w)
    found = await neighbours(conn, q, vec, anchors(rows, rel, cfg.episode_anchors), cfg)
    every, pairs = merge_neighbours(rows, found)
    ranked = rank_episodes(every, terms, pairs, w, cfg.episode_top_k)
    return ranked, replace(work, neighbours=len(found), ranked=len(every))
