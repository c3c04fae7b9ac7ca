"""Decisions packed as columns read back as the JSON the trace used to hold (migration 0175)."""

from __future__ import annotations

import math
import random
from typing import get_args
from uuid import UUID

import orjson
import pytest

from haki.context.trace_codec import ACTIONS, KINDS, REASONS, decode, encode
from haki.context.types import Action, Decision, ItemKind, ReasonCode, ScoreParts


def _as_stored_json(decisions: list[Decision]) -> list[dict[str, object]]:
    """What a ``jsonb`` trace gave back: ``to_json`` through a JSON round trip."""
    return orjson.loads(orjson.dumps([d.to_json() for d in decisions]))  # type: ignore[no-any-return]


def _decisions(n: int, seed: int) -> list[Decision]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        reason: ReasonCode = rnd.choice(REASONS)  # type: ignore[assignment]
        scored = rnd.random() < 0.8
        score = (
            ScoreParts(
                semantic=rnd.uniform(-1, 1),
                fulltext=rnd.random(),
                recency=math.exp(-rnd.uniform(0, 30)),
                total=rnd.uniform(0, 3),
                context=rnd.choice([0.0, rnd.random(), 2.5e-06, 1e-07]),
            )
            if scored
            else None
        )
        out.append(
            Decision(
                kind=rnd.choice(KINDS),  # type: ignore[arg-type]
                id=UUID(int=rnd.getrandbits(128)),
                action=rnd.choice(ACTIONS),  # type: ignore[arg-type]
                reason_code=reason,
                rank=rnd.choice([None, i + 1]),
                score=score,
                tokens=rnd.choice([None, rnd.randint(1, 400)]),
            )
        )
    return out


@pytest.mark.parametrize("seed", range(5))
def test_decisions_read_back_as_their_json(seed: int) -> None:
    decisions = _decisions(300, seed)
    assert decode(encode(decisions)) == _as_stored_json(decisions)


def test_scores_read_back_as_the_same_floats() -> None:
    # Not only equal within a tolerance: the exact float of six_places.
    decisions = _decisions(200, 11)
    for got, want in zip(decode(encode(decisions)), _as_stored_json(decisions), strict=True):
        if want["score"] is not None:
            assert got["score"] is not None
            assert [x.hex() for x in got["score"].values()] == [  # type: ignore[union-attr]
                float(x).hex()
                for x in want["score"].values()  # type: ignore[attr-defined]
            ]


def test_order_and_keys_kept() -> None:
    decisions = _decisions(50, 3)
    got = decode(encode(decisions))
    assert [d["id"] for d in got] == [str(d.id) for d in decisions]
    assert all(list(g) == list(d.to_json()) for g, d in zip(got, decisions, strict=True))


def test_scores_out_of_the_int32_range_or_not_finite_kept() -> None:
    base = _decisions(20, 7)
    for value in (1e9, -3e4, math.inf):
        odd = ScoreParts(semantic=value, fulltext=0.5, recency=0.25, total=value, context=0.0)
        decisions = [*base, Decision("fact", UUID(int=1), "included", "top_score", 1, odd, 9)]
        assert decode(encode(decisions))[:-1] == _as_stored_json(base)
        last = decode(encode(decisions))[-1]["score"]
        assert last is not None and last["semantic"] == value


def test_nan_score_kept() -> None:
    odd = ScoreParts(semantic=math.nan, fulltext=0.5, recency=0.25, total=0.1)
    (got,) = decode(
        encode([Decision("episode", UUID(int=2), "excluded", "over_budget", 3, odd, 4)])
    )
    assert got["score"] is not None and math.isnan(got["score"]["semantic"])
    assert got["score"]["fulltext"] == 0.5


def test_no_decisions() -> None:
    assert decode(encode([])) == []


def test_other_format_refused() -> None:
    data = bytearray(encode(_decisions(3, 1)))
    data[0] = 99
    with pytest.raises(ValueError, match="format 99"):
        decode(bytes(data))


def test_compact() -> None:
    decisions = _decisions(150, 5)
    assert len(encode(decisions)) < len(orjson.dumps([d.to_json() for d in decisions])) / 3


def test_the_stored_tables_name_every_literal() -> None:
    assert set(KINDS) == set(get_args(ItemKind))
    assert set(ACTIONS) == set(get_args(Action))
    assert set(REASONS) == set(get_args(ReasonCode))
    assert len(REASONS) <= 16  # four bits of the code byte
