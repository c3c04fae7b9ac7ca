"""Episode ranking is pure: relevance, neighbours and sessions without a database."""

import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from haki.context.config import EpisodeWeights
from haki.context.episode_candidates import Neighbour
from haki.context.episode_ranking import (
    anchors,
    base_relevance,
    bm25_scores,
    context_bonus,
    merge_neighbours,
    rank_episodes,
    sessions,
)
from haki.context.types import EpisodeRow
from haki.text.lexicon import query_terms

T0 = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)


def row(n: int, text: str, *, distance: float = 0.5, minutes: float = 0.0) -> EpisodeRow:
    return EpisodeRow(
        id=uuid.UUID(int=n),
        event_id=uuid.UUID(int=1000 + n),
        event_kind="conversation.message",
        occurred_at=T0 + timedelta(minutes=minutes),
        text=text,
        distance=distance,
    )


def test_query_terms_drop_stop_words_and_stem():
    assert query_terms("When did Caroline go to the painting classes?", 64) == [
        "carolin",
        "go",
        "paint",
        "class",
    ]


def test_bm25_prefers_rare_matching_terms():
    docs = [
        Counter({"paint": 1, "caroline": 1}),
        Counter({"caroline": 1}),
        Counter({"caroline": 1, "dog": 1}),
    ]
    scores = bm25_scores(docs, ["paint", "caroline"], k1=1.2, b=0.75)
    assert scores[0] > scores[1] > scores[2] > 0  # the rare term wins; a longer doc dilutes a match
    assert bm25_scores(docs, ["absent"], 1.2, 0.75) == [0.0, 0.0, 0.0]


def test_relevance_normalises_both_axes():
    rows = [
        row(1, "Caroline: I love painting", distance=0.2),
        row(2, "Melanie: the weather", distance=0.6),
    ]
    rel = base_relevance(rows, ["paint"], EpisodeWeights(semantic=0.5, lexical=0.5))
    assert rel[0].dense == 1.0 and rel[1].dense == 0.0
    assert rel[0].lexical == 1.0 and rel[1].lexical == 0.0
    assert rel[0].base == pytest.approx(1.0) and rel[1].base == pytest.approx(0.0)


def test_sessions_split_on_long_silences():
    rows = [
        row(1, "a", minutes=0),
        row(2, "b", minutes=5),
        row(3, "c", minutes=24 * 60),
        row(4, "d", minutes=24 * 60 + 1),
    ]
    assert sessions(rows, gap_s=3600) == [0, 0, 1, 1]


def test_neighbours_lift_the_answer_next_to_a_matching_turn():
    question_turn = row(1, "Melanie: did you go to the support group?", distance=0.2)
    answer_turn = row(2, "Caroline: yes, last Tuesday", distance=0.7, minutes=1)
    unrelated = row(3, "Caroline: the weather is nice", distance=0.65, minutes=3 * 60)
    rows, pairs = merge_neighbours(
        [question_turn, unrelated], [Neighbour(question_turn.id, 1, answer_turn)]
    )
    assert [r.id for r in rows] == [question_turn.id, unrelated.id, answer_turn.id]
    assert pairs == [(0, 2, 1)]
    w = EpisodeWeights(session=0.0)
    ranked = rank_episodes(rows, ["support", "group"], pairs, w, limit=10)
    order = [s.row.id for s in ranked]
    assert order.index(answer_turn.id) < order.index(unrelated.id)
    assert ranked[order.index(answer_turn.id)].score.context > 0


def test_context_bonus_is_symmetric_and_bounded_by_distance_in_turns():
    rows = [row(1, "a"), row(2, "b")]
    rel = base_relevance(rows, [], EpisodeWeights())
    w = EpisodeWeights(neighbour=(0.3,), neighbour_max=0.1, session=0.0)
    assert context_bonus(rows, rel, [(0, 1, 2)], w) == [
        0.0,
        0.0,
    ]  # two turns apart: no weight given
    bonus = context_bonus(rows, rel, [(0, 1, 1)], w)
    assert bonus[0] == pytest.approx(0.4 * rel[1].base) and bonus[1] == pytest.approx(
        0.4 * rel[0].base
    )


def test_rank_is_total_and_limited():
    rows = [row(n, "same text", distance=0.5) for n in (3, 1, 2)]
    ranked = rank_episodes(rows, ["text"], [], EpisodeWeights(), limit=2)
    assert [s.row.id.int for s in ranked] == [1, 2]  # equal scores: id order
    assert [s.rank for s in ranked] == [1, 2]


def test_anchors_are_the_strongest_rows():
    rows = [row(1, "x", distance=0.9), row(2, "y", distance=0.1), row(3, "z", distance=0.5)]
    rel = base_relevance(rows, [], EpisodeWeights())
    assert [a.int for a in anchors(rows, rel, 2)] == [2, 3]
