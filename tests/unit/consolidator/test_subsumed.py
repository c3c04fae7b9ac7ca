"""A sentence read by a narrower predicate is not also a generic convention (``rules.SUBSUMED``)."""

from __future__ import annotations

import pytest

from haki.providers.extraction.rules import extract_payload


def read(text: str) -> set[str]:
    return {c.predicate for c in extract_payload({"text": text}) if not c.retract}


@pytest.mark.parametrize(
    "text", ["Please use Celsius for temperatures.", "Always use metric units."]
)
def test_a_units_instruction_is_a_units_fact_only(text):
    assert read(text) == {"units"}


def test_a_convention_without_units_is_kept():
    assert "convention" in read("Please always cite your sources.")
