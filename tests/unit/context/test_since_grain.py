"""The packet says when a fact began no finer than its words said it (pure rendering)."""

import json
import uuid
from datetime import UTC, datetime

import pytest

from haki.context.render import fact_entry, fact_text, render
from haki.context.types import FactRow, Scored, ScoreParts
from haki.text.since import since_text

# How the consolidator stores a fact said on 2026-12-07: noon of its period's first day.
NOV_1 = datetime(2026, 11, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("moment", "grain", "expected"),
    [
        (NOV_1, "month", "November 2026"),
        (datetime(2026, 11, 2, 12, tzinfo=UTC), "week", "the week of 2026-11-02"),
        # A week is named by its Monday even if the stored day is another one.
        (datetime(2026, 11, 5, 12, tzinfo=UTC), "week", "the week of 2026-11-02"),
        (datetime(2024, 1, 1, 12, tzinfo=UTC), "year", "2024"),
        (datetime(2026, 12, 6, 12, tzinfo=UTC), "day", "2026-12-06"),
        (datetime(2026, 12, 6, 9, tzinfo=UTC), None, "2026-12-06"),  # no time words: as before
        (datetime(2026, 12, 6, 9, tzinfo=UTC), "fortnight", "2026-12-06"),  # unknown: the day
    ],
)
def test_since_is_said_at_its_grain(moment, grain, expected):
    assert since_text(moment, grain) == expected


def row(grain, search_text="home_city: Lyon"):
    return FactRow(
        id=uuid.UUID(int=1),
        predicate="home_city",
        value_json=json.dumps("Lyon"),
        confidence=0.9,
        valid_from=NOV_1,
        recorded_from=datetime(2026, 12, 7, 15, tzinfo=UTC),
        last_reinforced_at=None,
        source_event_ids=(),
        fact_kind="attribute",
        volatility="stable",
        search_text=search_text,
        distance=0.2,
        fulltext=0.0,
        grain=grain,
    )


def test_the_packet_line_and_entry_carry_the_grain():
    assert fact_text(row("month")) == "home_city: Lyon (since November 2026)"
    assert fact_text(row(None)) == "home_city: Lyon (since 2026-11-01)"
    scored = Scored(row=row("month"), score=ScoreParts(0.5, 0.0, 0.5, 0.5), rank=1)
    entry = fact_entry(render(scored))
    assert entry["valid_from_grain"] == "month"
    assert entry["text"].endswith("(since November 2026)")


def test_the_facts_api_names_the_grain_of_its_qualifiers():
    from haki.api.schemas.facts import FactOut

    now = datetime(2026, 12, 7, 15, tzinfo=UTC)
    base = {
        "id": uuid.UUID(int=2), "org_id": "o", "project_id": "p", "subject_type": "user",
        "subject_id": "u", "predicate": "home_city", "value": "Lyon", "status": "active",
        "confidence": 0.9, "version": 1, "valid_from": NOV_1, "valid_to": None,
        "recorded_from": now, "recorded_to": None, "supersedes_id": None,
        "source_event_ids": [], "fact_kind": "attribute", "volatility": "stable",
        "reinforcement_count": 0, "last_reinforced_at": None, "origin_trust": "trusted",
        "evidence_span": None, "updated_at": now,
    }  # fmt: skip
    dated = FactOut.model_validate({**base, "qualifiers": {"valid_from_grain": "month"}})
    assert dated.model_dump(mode="json")["valid_from_grain"] == "month"
    assert FactOut.model_validate({**base, "qualifiers": {}}).valid_from_grain is None
    # A qualifier someone wrote by hand that is no grain is not passed off as one.
    odd = FactOut.model_validate({**base, "qualifiers": {"valid_from_grain": "soon"}})
    assert odd.valid_from_grain is None


def test_the_sdk_block_says_the_grain_too():
    from haki.client import render as render_block

    fact = {
        "id": "f1", "predicate": "home_city", "value": "Lyon", "valid_from": NOV_1.isoformat(),
        "source_event_ids": ["e1234567890"], "fact_kind": "attribute", "volatility": "stable",
        "origin_trust": "trusted", "text": "home_city: Lyon (since November 2026)",
    }  # fmt: skip
    packet = {"status": "ok", "facts": [{**fact, "valid_from_grain": "month"}], "episodes": []}
    assert "- home_city: Lyon (since November 2026; sources e1234567)" in render_block(packet)
    # A server that sends no grain (older, or a fact dated by its event): the day, as before.
    older = {"status": "ok", "facts": [fact], "episodes": []}
    assert "(since 2026-11-01; sources" in render_block(older)
