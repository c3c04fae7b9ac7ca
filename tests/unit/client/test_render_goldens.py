"""The shared render goldens (tests/fixtures/render/) match the Python renderer.

The TypeScript SDK's tests read the same files, so a change to either
renderer that the other does not follow fails one of the two suites.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from haki.client import render

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "render"
CASES = sorted(FIXTURES.glob("*.json"))


def test_the_fixture_folder_has_cases():
    assert len(CASES) >= 5


@pytest.mark.parametrize("case_file", CASES, ids=[c.stem for c in CASES])
def test_render_matches_golden(case_file: Path):
    case = json.loads(case_file.read_text(encoding="utf-8"))
    expected = case_file.with_suffix(".txt").read_text(encoding="utf-8")
    assert render(case["packet"], subject_id=case.get("subject_id")) == expected
