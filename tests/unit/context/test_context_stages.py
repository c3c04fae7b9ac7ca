"""The pure stages: scoring, gate, filters, packing, rendering, packet — no database."""

import json
import math
import random
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from haki.context.config import DEFAULT, VOLATILITY_HORIZONS, described
from haki.context.filters import blocked_decisions, is_expired, split_expired
from haki.context.gate import Gate, apply_gate, passes
from haki.context.packet import build_packet
from haki.context.packing import check_budget, pack
from haki.context.render import (
    estimate_tokens,
    fact_text,
    render,
    render_all,
    value_text,
)
from haki.context.scoring import rank, recency
from haki.context.types import EpisodeRow, FactRow, Scored, ScoreParts, six_places
from haki.errors import BudgetExceeded

AT = datetime(2026, 6, 1, tzinfo=UTC)
IDS = {name: uuid.UUID(int=i + 1) for i, name in enumerate("abcdefgh")}


def fact(
    name="a",
    *,
    distance=0.3,
    fulltext=0.0,
    value="x",
    age_days=0.0,
    volatility="stable",
    reinforced_days=None,
    valid_from=True,
    search_text="",
):
    since = AT - timedelta(days=age_days)
    return FactRow(
        id=IDS[name],
        predicate="note",
        value_json=json.dumps(value),
        confidence=0.9,
        valid_from=since if valid_from else None,
        recorded_from=since,
        last_reinforced_at=None
        if reinforced_days is None
        else AT - timedelta(days=reinforced_days),
        source_event_ids=(),
        fact_kind="attribute",
        volatility=volatility,
        search_text=search_text,
        distance=distance,
        fulltext=fulltext,
    )


def test_fact_renders_its_search_text_when_there_is_one():
    from haki.context.render import fact_text

    row = fact(value="Sweden", search_text="Caroline is from: Sweden", valid_from=False)
    assert fact_text(row) == "Caroline is from: Sweden"
    assert fact_text(fact(value="Sweden", valid_from=False)) == "note: Sweden"


def episode(name="a", *, distance=0.3, text="hello"):
    return EpisodeRow(
        id=IDS[name],
        event_id=IDS[name],
        event_kind="m",
        occurred_at=AT,
        text=text,
        distance=distance,
    )


def scored_episode(**kwargs):
    parts = ScoreParts(semantic=0.7, fulltext=0.0, recency=0.0, total=0.7)
    return Scored(row=episode(**kwargs), score=parts, rank=1)


# scoring


def test_score_parts_follow_the_documented_formula():
    [s] = rank([fact(distance=0.2, fulltext=0.5, age_days=30)], DEFAULT, AT)
    w = DEFAULT.weights
    assert s.score.semantic == pytest.approx(0.8)
    assert s.score.recency == pytest.approx(pytest.approx(0.36788, rel=1e-4))
    assert s.score.total == pytest.approx(
        w.semantic * 0.8 + w.fulltext * 0.5 + w.recency * s.score.recency
    )


def test_rank_orders_by_total_then_id_and_caps():
    rows = [fact("c", distance=0.5), fact("b", distance=0.1), fact("a", distance=0.5)]
    ranked = rank(rows, DEFAULT, AT, limit=2)
    assert [s.row.id for s in ranked] == [IDS["b"], IDS["a"]]
    assert [s.rank for s in ranked] == [1, 2]


def test_recency_is_one_for_future_dates_and_decays_with_tau():
    assert recency(AT + timedelta(days=3), AT, timedelta(days=30)) == 1.0
    assert recency(AT - timedelta(days=60), AT, timedelta(days=30)) == pytest.approx(
        0.1353, rel=1e-3
    )


def test_missing_embedding_scores_zero_semantic():
    [s] = rank([fact(distance=None, fulltext=0.4)], DEFAULT, AT)
    assert s.score.semantic == 0.0


# recall gate


def _gate(max_distance, query="tell me everything", fact_max_distance=0.45):
    return Gate.of(query, max_distance, fact_max_distance)


def test_gate_off_keeps_everything():
    ranked = rank([fact("a", distance=1.9), fact("b", distance=None)], DEFAULT, AT)
    kept, dropped = apply_gate(ranked, _gate(0.0))
    assert len(kept) == 2 and dropped == []


def test_gate_drops_rows_beyond_the_floor_with_their_scores():
    ranked = rank(
        [fact("a", distance=0.2), fact("b", distance=0.7), fact("c", distance=None)], DEFAULT, AT
    )
    kept, dropped = apply_gate(ranked, _gate(0.5))
    assert [s.row.id for s in kept] == [IDS["a"]]
    assert {d.id for d in dropped} == {IDS["b"], IDS["c"]}
    assert all(
        d.reason_code == "below_relevance_floor" and d.action == "excluded" and d.score
        for d in dropped
    )
    assert passes(0.5, 0.5) and not passes(0.5001, 0.5)


def test_a_floor_at_the_largest_cosine_distance_keeps_rows_without_a_vector():
    # Below 2 a row without a comparable vector cannot show it is close enough;
    # at 2 (the default episode floor) the floor judges nothing and keeps it.
    assert not passes(None, 1.99)
    assert passes(None, 2.0) and passes(1.999, 2.0)


def test_gate_keeps_the_fact_a_question_asks_about_at_any_distance():
    home = replace(fact("a", distance=0.8, value="Lyon"), predicate="home_city")
    job = replace(fact("b", distance=0.8, value="midwife"), predicate="occupation")
    ranked = rank([home, job], DEFAULT, AT)
    kept, dropped = apply_gate(ranked, _gate(0.6, "Where does Maya live?"))
    assert [s.row.id for s in kept] == [IDS["a"]] and [d.id for d in dropped] == [IDS["b"]]
    # Naming the value asks about the fact too.
    kept, _ = apply_gate(ranked, _gate(0.6, "Is she still a midwife?"))
    assert [s.row.id for s in kept] == [IDS["b"]]


def test_gate_holds_facts_nobody_asked_about_to_the_stricter_fact_floor():
    ranked = rank([fact("a", distance=0.4), fact("b", distance=0.5)], DEFAULT, AT)
    # An episode at 0.5 passes a 0.6 floor; a fact off the question's topic does not.
    kept, _ = apply_gate(ranked, _gate(0.6, "What is her blood type?"))
    assert [s.row.id for s in kept] == [IDS["a"]]
    assert _gate(0.6).keeps(episode("c", distance=0.5))
    # The stricter of both floors applies.
    kept, _ = apply_gate(ranked, _gate(0.3, "What is her blood type?"))
    assert kept == []


# hard filters


@pytest.mark.parametrize(
    ("volatility", "days", "expired"),
    [
        ("stable", 10_000, False),
        ("slow", 364, False),
        ("slow", 366, True),
        ("volatile", 59, False),
        ("volatile", 61, True),
        ("ephemeral", 6, False),
        ("ephemeral", 8, True),
    ],
)
def test_volatility_horizons(volatility, days, expired):
    assert (
        is_expired(fact(age_days=days, volatility=volatility), AT, VOLATILITY_HORIZONS) is expired
    )


def test_reinforcement_restarts_the_horizon_and_hidden_rows_get_no_score():
    fresh = fact("a", age_days=30, volatility="ephemeral", reinforced_days=1)
    stale = fact("b", age_days=30, volatility="ephemeral")
    kept, hidden = split_expired([fresh, stale], AT, VOLATILITY_HORIZONS)
    assert kept == [fresh]
    assert [(d.id, d.action, d.reason_code, d.score) for d in hidden] == [
        (IDS["b"], "excluded", "volatility_expired", None)
    ]


def test_blocked_decisions_are_sorted_and_unscored():
    ds = blocked_decisions([fact("b"), fact("a")])
    assert [(d.id, d.action, d.reason_code, d.score) for d in ds] == [
        (IDS["a"], "blocked", "conflict_open", None),
        (IDS["b"], "blocked", "conflict_open", None),
    ]


# budget and packing


@pytest.mark.parametrize("bad", [0, -1, 1.0, "10", True, None, [3]])
def test_budget_must_be_a_positive_integer(bad):
    with pytest.raises(BudgetExceeded):
        check_budget(bad)


def test_check_budget_passes_positive_integers():
    assert check_budget(1) == 1 and check_budget(900) == 900


def test_over_budget_is_traced_not_dropped_and_smaller_items_still_fit():
    rows = [
        fact("a", distance=0.1, value="x" * 40),
        fact("b", distance=0.2, value="y" * 80),
        fact("c", distance=0.3, value="z"),
    ]
    items = render_all(rank(rows, DEFAULT, AT))
    result = pack(items, budget=items[0].tokens + items[2].tokens)
    assert [i.scored.row.id for i in result.included] == [IDS["a"], IDS["c"]]
    assert [(d.id, d.action, d.reason_code) for d in result.decisions] == [
        (IDS["a"], "included", "top_score"),
        (IDS["b"], "excluded", "over_budget"),
        (IDS["c"], "included", "top_score"),
    ]
    assert result.remaining == 0
    assert all(d.tokens == i.tokens for d, i in zip(result.decisions, items, strict=True))


def test_pack_reason_is_the_stage_reason():
    result = pack(render_all(rank([fact("a")], DEFAULT, AT)), 100, "multi_hop_expansion")
    assert result.decisions[0].reason_code == "multi_hop_expansion"


# rendering


def test_cost_is_a_quarter_of_the_rendered_length_at_least_one():
    assert (
        estimate_tokens("") == 1 and estimate_tokens("abc") == 1 and estimate_tokens("x" * 40) == 10
    )
    item = render(rank([fact(value="lives in Lyon")], DEFAULT, AT)[0])
    assert (
        item.text == "note: lives in Lyon (since 2026-06-01)" and item.tokens == len(item.text) // 4
    )


def test_structured_values_render_as_compact_sorted_json():
    assert value_text({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    assert fact_text(fact(value=["x"], valid_from=False)) == 'note: ["x"]'


def test_episode_text_is_dated_verbatim_excerpt():
    item = render(scored_episode(text="We met in Oslo."))
    assert item.text == "[2026-06-01] We met in Oslo."


# packet


def test_packet_warnings_and_status():
    facts = render_all(rank([fact("a")], DEFAULT, AT))
    p = build_packet(facts, [], blocked=2, expired=1, gated=0)
    assert p.warnings == (
        "open_conflict: 2 fact(s) hidden pending conflict resolution",
        "volatility_expired: 1 fact(s) hidden past their volatility horizon",
    )
    assert p.status == "degraded" and p.empty_reason is None
    assert p.facts[0]["id"] == str(IDS["a"]) and set(p.facts[0]) >= {
        "predicate",
        "value",
        "confidence",
        "valid_from",
        "source_event_ids",
        "fact_kind",
        "volatility",
    }


def test_empty_reason_only_when_the_gate_emptied_the_packet():
    assert build_packet([], [], blocked=0, expired=0, gated=3).empty_reason == "no_relevant_memory"
    assert build_packet([], [], blocked=0, expired=0, gated=3).status == "ok"
    assert build_packet([], [], blocked=0, expired=0, gated=0).empty_reason is None
    eps = render_all([scored_episode()])
    assert build_packet([], eps, blocked=0, expired=0, gated=3).empty_reason is None


def test_recipe_records_its_knobs():
    cfg = replace(DEFAULT, recall_max_distance=0.4)
    data = cfg.describe()
    assert data["name"] == "default" and data["recall_max_distance"] == 0.4
    assert (
        data["recency_tau"] == 30 * 86400
        and data["weights"]["semantic"] == DEFAULT.weights.semantic
    )


def test_a_recipe_is_described_once_and_each_variant_apart():
    cfg = replace(DEFAULT, recall_max_distance=0.4)
    assert json.loads(described(cfg)) == json.loads(json.dumps(cfg.describe()))
    assert described(replace(DEFAULT, recall_max_distance=0.4)) is described(cfg)
    assert json.loads(described(DEFAULT))["recall_max_distance"] == DEFAULT.recall_max_distance


def test_six_places_rounds_as_round_does():
    rng = random.Random(7)
    values = [rng.uniform(-3.0, 3.0) for _ in range(20_000)] + [0.0, -0.0, 1.0, 1.25e-6]
    assert [six_places(x) for x in values] == [round(x, 6) for x in values]
    # At a half-way point the scaled product rounds first: a millionth apart.
    assert abs(six_places(2.5e-6) - round(2.5e-6, 6)) <= 1e-6 + 1e-12
    assert six_places(float("inf")) == float("inf")
    assert math.isnan(six_places(float("nan")))
