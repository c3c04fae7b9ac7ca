"""Optional episode-ranking terms: best neighbour (on), speaker match (list questions)."""

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from haki.context.config import RECIPES, EpisodeWeights
from haki.context.episode_ranking import (
    base_relevance,
    context_bonus,
    rank_episodes,
    speaker_named,
    speaker_terms,
)
from haki.context.episodes import episode_weights
from haki.context.types import EpisodeRow

T0 = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
NO_CONTEXT = EpisodeWeights(neighbour=(), session=0.0)


def row(n: int, text: str, *, distance: float = 0.5, minutes: float = 0.0) -> EpisodeRow:
    return EpisodeRow(
        id=uuid.UUID(int=n),
        event_id=uuid.UUID(int=1000 + n),
        event_kind="conversation.message",
        occurred_at=T0 + timedelta(minutes=minutes),
        text=text,
        distance=distance,
    )


def test_only_the_measured_gain_is_on_by_default():
    w = EpisodeWeights()
    assert w.neighbour_max > 0
    assert w.speaker == 0
    assert RECIPES["default"].episode_weights == w


def test_list_questions_weigh_the_named_speaker_and_neighbours_less():
    cfg = RECIPES["default"]
    listing = episode_weights("What books has Melanie read?", cfg)
    assert listing == cfg.list_episode_weights and listing.speaker > 0
    assert listing.neighbour < cfg.episode_weights.neighbour
    assert episode_weights("When did Melanie read that book?", cfg) == cfg.episode_weights
    no_lists = replace(cfg, list_episode_weights=None)
    assert episode_weights("What books has Melanie read?", no_lists) == cfg.episode_weights


def test_neighbour_max_adds_the_strongest_turn_within_reach():
    rows = [
        row(1, "a", distance=0.1),
        row(2, "b", distance=0.5),
        row(3, "c", distance=0.9),
        row(4, "d"),
    ]
    rel = base_relevance(rows, [], EpisodeWeights())
    pairs = [
        (0, 1, 1),
        (1, 2, 2),
        (2, 3, 3),
    ]  # 3 steps apart: out of reach of a 2-step neighbour tuple
    plain = context_bonus(rows, rel, pairs, EpisodeWeights(session=0.0, neighbour_max=0.0))
    extra = context_bonus(rows, rel, pairs, EpisodeWeights(session=0.0, neighbour_max=0.2))
    assert extra[1] - plain[1] == pytest.approx(0.2 * max(rel[0].base, rel[2].base))
    assert extra[0] - plain[0] == pytest.approx(0.2 * rel[1].base)
    assert extra[3] == plain[3] == 0.0


def test_speaker_is_the_name_before_the_colon():
    assert speaker_terms("Caroline: I went to the parade") == frozenset({"carolin"})
    assert speaker_terms("no speaker here") == frozenset()
    rows = [
        row(1, "Melanie: my kids love the beach"),
        row(2, "Caroline: your kids are cute, Melanie!"),
    ]
    assert speaker_named(rows, ["melani", "kid"]) == [True, False]


def test_speaker_weight_lifts_the_named_speakers_turns():
    rows = [
        row(1, "Melanie: we went camping", distance=0.4),
        row(2, "Caroline: Melanie, camping!", distance=0.4),
    ]
    terms = ["melani", "camp"]
    plain = base_relevance(rows, terms, EpisodeWeights())
    named = base_relevance(rows, terms, EpisodeWeights(speaker=0.2))
    assert named[0].base == pytest.approx(plain[0].base + 0.2)
    assert named[1].base == pytest.approx(plain[1].base)


def test_ranking_is_limited_and_keeps_the_parts_consistent():
    rows = [
        row(n, f"turn {n} about painting", distance=0.1 * n, minutes=n * 90) for n in range(1, 6)
    ]
    w = EpisodeWeights()
    base = {r.id: rel.base for r, rel in zip(rows, base_relevance(rows, ["paint"], w), strict=True)}
    ranked = rank_episodes(rows, ["paint"], [], w, limit=3)
    assert [s.rank for s in ranked] == [1, 2, 3]
    assert len({s.row.id for s in ranked}) == 3
    for s in ranked:
        assert s.score.total - s.score.context == pytest.approx(base[s.row.id])


def test_options_at_zero_keep_the_plain_order():
    rows = [row(n, f"turn {n}", distance=d) for n, d in ((1, 0.3), (2, 0.1), (3, 0.2))]
    ranked = rank_episodes(rows, [], [], NO_CONTEXT, limit=3)
    assert [s.row.id.int for s in ranked] == [2, 3, 1]
    assert all(s.score.context == 0.0 for s in ranked)
