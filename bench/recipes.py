"""Experimental retrieval recipes: the ablations of docs/retrieval.md, registered for benchmarks.

They are not product recipes: a server only knows them when started through
``bench/_serve.py`` (which ``bench/locomo.py --recipe NAME`` does). Each
differs from the default in one lever; a change to the episode weights
applies to both weight sets (general and list questions).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from haki.context.config import DEFAULT, EpisodeWeights, RetrievalConfig, register


def ablation(name: str, weights: dict[str, Any] | None = None, **changes: Any) -> RetrievalConfig:
    if weights:
        changes["episode_weights"] = replace(DEFAULT.episode_weights, **weights)
        if DEFAULT.list_episode_weights is not None:
            changes["list_episode_weights"] = replace(DEFAULT.list_episode_weights, **weights)
    return replace(DEFAULT, name=name, **changes)


# The 8 nearest chunks by cosine alone: the plainest episodic memory, as a floor.
SEED_EPISODES = replace(
    DEFAULT,
    name="seed_episodes",
    episode_top_k=8,
    episode_candidates=8,
    episode_fulltext=False,
    episode_neighbours=0,
    episode_weights=EpisodeWeights(semantic=1.0, lexical=0.0, neighbour=(), session=0.0),
    list_episode_weights=None,
)

ABLATIONS = (
    SEED_EPISODES,
    ablation("episodes_k8", episode_top_k=8),
    ablation("episodes_k32", episode_top_k=32),
    ablation("wide_episodes", episode_candidates=128, episode_anchors=48, hnsw_ef_search=200),
    ablation("no_neighbours", {"neighbour": ()}, episode_neighbours=0),
    ablation("no_session", {"session": 0.0}),
    ablation("no_episode_fulltext", {"lexical": 0.0, "semantic": 1.0}, episode_fulltext=False),
    ablation("no_neighbour_max", {"neighbour_max": 0.0}),
    ablation("no_list_questions", list_episode_weights=None),
    ablation("term_matches_256", episode_term_matches=256),
    ablation("fact_term_matches_1000", fulltext_max_term_matches=1_000),
    ablation(
        "speaker_match",
        list_episode_weights=None,
        episode_weights=replace(DEFAULT.episode_weights, speaker=0.2),
    ),
)


def register_all() -> None:
    for cfg in ABLATIONS:
        register(cfg)
