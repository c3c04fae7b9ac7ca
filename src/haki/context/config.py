"""Retrieval knobs as data: one frozen ``RetrievalConfig`` and its named recipes.

A recipe is a value, not a branch: the assembler reads every knob from the
config it is given, and each trace records the recipe it ran with. The score
weights here are documented but are not part of the public API contract; they
may change between versions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from datetime import timedelta
from functools import lru_cache
from typing import Any

import orjson

from ..errors import ConfigError

RETRIEVAL_TOP_K = 64
CANDIDATE_LIMIT = 256
EPISODE_TOP_K = 48
MULTI_HOP_MAX_ENTITIES = 2
MULTI_HOP_MAX_PER_ENTITY = 5

# How long a fact of each volatility stays servable after it was last
# confirmed; "stable" facts never expire.
VOLATILITY_HORIZONS: dict[str, timedelta] = {
    "slow": timedelta(days=365),
    "volatile": timedelta(days=60),
    "ephemeral": timedelta(days=7),
}


@dataclass(frozen=True, slots=True)
class Weights:
    """Hybrid score weights. Semantic similarity dominates because it is the
    only term that generalises across wording; full text rewards exact names
    and numbers the embedder blurs; recency only separates near-ties."""

    semantic: float = 0.65
    fulltext: float = 0.25
    recency: float = 0.10


@dataclass(frozen=True, slots=True)
class EpisodeWeights:
    """Episode ranking weights (see ``episode_ranking``); not public contract."""

    semantic: float = 0.5
    lexical: float = 0.5
    neighbour: tuple[float, ...] = (0.25, 0.15)  # by turns apart: 1, 2
    # Plus this times the best base among the turns within len(neighbour)
    # steps: one strong turn nearby counts, not only the sum of all of them.
    neighbour_max: float = 0.2
    session: float = 0.5
    session_top: int = 3
    # A longer silence than this between two turns starts another session.
    session_gap_s: float = 3600.0
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    # Added to the base relevance of a turn whose speaker (the ``Name:`` the
    # chunker puts before a speaker's turn) the query names: a question about
    # someone is mostly answered by what they said, not by turns addressed to
    # them. 0 turns it off.
    speaker: float = 0.0


# For questions asking for a list (``query.asks_for_list``): the items sit in
# turns of the person asked about, spread over many conversations, so the
# speaker the question names counts and the turns around a hit count less
# (measured in docs/retrieval.md).
LIST_EPISODE_WEIGHTS = EpisodeWeights(speaker=0.4, neighbour=(0.1, 0.05), neighbour_max=0.1)


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    name: str = "default"
    top_k: int = RETRIEVAL_TOP_K  # per axis (cosine, full text), phase 1
    candidate_limit: int = CANDIDATE_LIMIT  # phase 2 cap, after scoring
    recency_tau: timedelta = timedelta(days=30)
    weights: Weights = field(default_factory=Weights)
    episode_top_k: int = EPISODE_TOP_K  # most episodes served
    # Episode phase 1: per-leg top-K; the full-text leg can be turned off
    # (cosine nearness alone).
    episode_candidates: int = RETRIEVAL_TOP_K
    episode_fulltext: bool = True
    # Matches each query term may bring to the episode full-text leg: a
    # common word stops costing more than this, a rare word is never crowded
    # out. As many as the leg returns (``episode_candidates``): past that, a
    # common word's extra matches are turns holding that word alone, which
    # rank as ties broken by id, an arbitrary slice of its turns; they cost
    # heap reads and ts_rank_cd calls and change no recall (docs/context.md,
    # "Bounded work per call").
    episode_term_matches: int = RETRIEVAL_TOP_K
    # Matches the episode full-text leg fetches over all terms (each term
    # gets an equal share, at most ``episode_term_matches``): a long query
    # costs no more than a short one. docs/context.md, "Bounded work per call".
    episode_lexical_rows: int = 2048
    # Postings the episode full-text leg reads through the GIN index, which
    # builds a term's whole bitmap before any LIMIT: a term estimated to occur
    # in more of the scope's turns than ``episode_term_postings`` is left out
    # (its capped sample would be an arbitrary slice of a word in one turn of
    # ten), and the terms kept add up to at most ``episode_lexical_postings``
    # (rarest first). Estimates come from the planner's statistics.
    episode_term_postings: int = 2048
    episode_lexical_postings: int = 8192
    # Each fetched turn is tested against every term kept: turns fetched times
    # terms stay under this, so a long query fetches fewer turns (migration
    # 0110); up to eleven terms, the per-term share binds first.
    episode_rank_items: int = 8192
    # Turns fetched on each side of the strongest candidates (0: none).
    episode_neighbours: int = 2
    episode_anchors: int = 24
    episode_weights: EpisodeWeights = field(default_factory=EpisodeWeights)
    # Used instead of ``episode_weights`` for list questions; None: never.
    list_episode_weights: EpisodeWeights | None = LIST_EPISODE_WEIGHTS
    multi_hop_max_entities: int = MULTI_HOP_MAX_ENTITIES
    multi_hop_max_per_entity: int = MULTI_HOP_MAX_PER_ENTITY
    # Matches of one entity ranked to keep its multi_hop_max_per_entity: a
    # name in a thousand facts scores them all alike (one occurrence each),
    # so ranking past the first few hundred reads heap pages to break ties.
    multi_hop_scan_limit: int = 256
    # Cosine-distance floor of the recall gate; 0 turns the gate off.
    recall_max_distance: float = 0.0
    # With the gate on, a fact the question does not ask about (text.topics)
    # passes only within this floor too (context/gate.py).
    recall_fact_max_distance: float = 0.35
    # hnsw returns at most ef_search rows per scan, so it must exceed top_k.
    hnsw_ef_search: int = 100
    # How the cosine leg reads a scope (migration 0111's functions, explained
    # in candidates.py and measured in docs/scaling.md): exactly when it has
    # at most exact_scope_rows facts (or chunks) and either at most
    # exact_cheap_rows or less than hnsw_scope_share of the table; through
    # the hnsw index otherwise. A tenth of the table: below that the walk
    # meets other subjects' rows more than its own, and at 5,000 of 175,000
    # rows it took 27 ms where the exact read took 7 (docs/scaling.md).
    exact_scope_rows: int = 10_000
    exact_cheap_rows: int = 1_000
    hnsw_scope_share: float = 0.10
    # Longest query text handed to the full-text stage, in distinct terms.
    max_query_terms: int = 64
    # A query word estimated to match more facts than this (across the whole
    # table: the GIN index is not per scope) is dropped from the full-text
    # leg: it costs the most and discriminates the least. Each match kept is
    # ranked by ts_rank_cd: words in 850-920 of the 10,000-fact benchmark's
    # facts made most of its slowest tenth (docs/context.md, "Full-text query").
    fulltext_max_term_matches: int = 500
    # At most this many full-text matches are ranked (last bound on cost).
    fulltext_scan_limit: int = 2_000
    # A match costs what it is scored against: one test per term kept, or the
    # whole query's items (ts_rank_cd zeroes 32 kB for each). Matches scored
    # times those items stay under this, so a long query scores fewer matches
    # (migration 0109); up to four terms, the scan limit binds first.
    fulltext_rank_items: int = 8_192
    # The words kept, rarest first, match at most this many facts in all (by
    # the same estimate): a long question of words each under the limit above
    # builds every one of their GIN bitmaps.
    fulltext_max_postings: int = 4_000

    def __post_init__(self) -> None:
        if self.hnsw_ef_search < max(self.top_k, self.episode_candidates):
            raise ValueError("hnsw_ef_search must be at least top_k and episode_candidates")
        if self.top_k < 1 or self.candidate_limit < 1:
            raise ValueError("top_k and candidate_limit must be positive")

    def describe(self) -> dict[str, Any]:
        """The recipe as JSON, stored with each trace."""
        data = asdict(self)
        data["recency_tau"] = self.recency_tau.total_seconds()
        return data


@lru_cache(maxsize=64)
def described(cfg: RetrievalConfig) -> bytes:
    """``cfg.describe()`` as JSON, built once per recipe: every trace stores
    it, and ``asdict`` copies the whole configuration each time."""
    return orjson.dumps(cfg.describe())


DEFAULT = RetrievalConfig()
WIDE_RECALL = replace(
    DEFAULT, name="wide_recall", top_k=128, hnsw_ef_search=200, episode_candidates=128
)

# The recipes a deployment can pick (HAKI_CONTEXT_RECIPE). Benchmarks add
# their experimental ones with ``register`` (bench/recipes.py).
RECIPES: dict[str, RetrievalConfig] = {cfg.name: cfg for cfg in (DEFAULT, WIDE_RECALL)}


def register(cfg: RetrievalConfig) -> None:
    """Make a recipe selectable by name; a name is never silently redefined."""
    if RECIPES.get(cfg.name, cfg) != cfg:
        raise ValueError(f"recipe {cfg.name!r} is already registered with other values")
    RECIPES[cfg.name] = cfg


def recipe(
    name: str = "default",
    *,
    recall_max_distance: float = 0.0,
    recall_fact_max_distance: float = DEFAULT.recall_fact_max_distance,
) -> RetrievalConfig:
    """A named recipe with the deployment's recall floor applied."""
    if name not in RECIPES:
        raise ConfigError(
            f"HAKI_CONTEXT_RECIPE: unknown recipe {name!r} (one of {', '.join(sorted(RECIPES))})",
            field="HAKI_CONTEXT_RECIPE",
        )
    return replace(
        RECIPES[name],
        recall_max_distance=recall_max_distance,
        recall_fact_max_distance=recall_fact_max_distance,
    )
