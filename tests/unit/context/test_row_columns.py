"""Fact and chunk rows come back as tuples read by position (``fact_row``,
``episode_row``): each statement's columns must stay in the order of the
fields they fill, followed by its own."""

import re
from dataclasses import fields

import pytest

from haki.context import candidates, episode_candidates, multihop
from haki.context.types import EpisodeRow, FactRow


def output_columns(sql: str) -> list[str]:
    """The names of the outer SELECT's columns: each one's alias, else its column."""
    select = sql[sql.rindex("\nSELECT") + len("\nSELECT") :]
    select = select[: select.index("\nFROM")]
    items, depth, start = [], 0, 0
    for i, ch in enumerate(select):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(select[start:i])
            start = i + 1
    items.append(select[start:])
    names = []
    for item in items:
        alias = re.search(r"\bAS (\w+)\s*$", item.strip())
        names.append(alias.group(1) if alias else item.strip().rsplit(".", 1)[-1])
    return names


def init_fields(cls: type) -> list[str]:
    return [f.name for f in fields(cls) if f.init]


@pytest.mark.parametrize(
    ("sql", "own"),
    [(candidates.SEMANTIC, ["blocked"]), (multihop.HOP, ["ord", "ranked"])],
    ids=["phase 2", "multi-hop"],
)
def test_fact_statements_select_factrow_fields_in_order(sql, own):
    assert len(init_fields(FactRow)) == candidates.FACT_ROW_WIDTH
    assert output_columns(sql) == init_fields(FactRow) + own


@pytest.mark.parametrize(
    ("sql", "own"),
    [(episode_candidates.SEMANTIC, []), (episode_candidates.NEIGHBOURS, ["anchor_id", "offset_n"])],
    ids=["pool", "neighbours"],
)
def test_chunk_statements_select_episoderow_fields_in_order(sql, own):
    assert len(init_fields(EpisodeRow)) == episode_candidates.CHUNK_ROW_WIDTH
    assert output_columns(sql) == init_fields(EpisodeRow) + own
