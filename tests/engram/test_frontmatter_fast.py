"""The frontmatter subset read without PyYAML gives what PyYAML gives, and anything
outside it is left to PyYAML."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from haki.engram.frontmatter import _plain, _simple_mapping, split

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "engram"
SHARED = ROOT.parent / "shared" / "data" / "engram-rules" / "corpus"
SOURCES = [FIXTURES / "corpus", FIXTURES / "small_repos", SHARED]


def _yaml(raw: str):
    data = yaml.safe_load(raw)
    return {} if data is None else {str(k): _plain(v) for k, v in data.items()}


def _memory_files() -> list[Path]:
    return sorted(p for base in SOURCES if base.is_dir() for p in base.rglob("*.md"))


def test_every_memory_file_of_the_corpora_parses_as_yaml_does() -> None:
    files = _memory_files()
    assert len(files) > 150
    fast = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        if not text.startswith("---"):
            continue
        raw = split(text, str(path))[0]
        got = _simple_mapping(raw)
        if got is not None:
            fast += 1
            assert got == _yaml(raw), path
    # The subset covers what engram writes, so almost every file skips YAML.
    assert fast >= 0.9 * len(files)


def test_the_config_engram_init_writes_parses_as_yaml_does() -> None:
    for path in sorted(FIXTURES.rglob("config.yaml")):
        raw = path.read_text(encoding="utf-8")
        got = _simple_mapping(raw)
        assert got is not None, path
        assert got == _yaml(raw), path


@pytest.mark.parametrize(
    "raw",
    [
        "tags:\n  - a\n  - b\n",  # block list
        "flag: yes\n",  # YAML 1.1 boolean
        "mode: 010\n",  # octal
        "x: 'single'\n",  # single quotes
        "a: 1\na: 2\n",  # duplicate key
        "body: |\n  text\n",  # block scalar
        "a: &x 1\nb: *x\n",  # alias
        "when: 2026-13-01\n",  # not a date
        "list: [1, 2]\n",  # not strings
        'k: "a" trailing\n',
        "k:v\n",
        "k: a: b\n",
        "n: 1.5\n",
    ],
)
def test_anything_outside_the_subset_is_left_to_yaml(raw: str) -> None:
    assert _simple_mapping(raw) is None


def test_plain_words_dates_constants_and_nesting() -> None:
    raw = (
        "# comment\n"
        "id: x\nlevel: foundation\ncreated: 2026-12-05\nn: 8\nglobal: true\nnone: null\n"
        'tags: ["a", "b c"]\nempty: []\nload:\n  limit: 8   # why\n  mode: auto\nlast:\n'
    )
    got = _simple_mapping(raw)
    assert got == _yaml(raw)
    assert got == {
        "id": "x",
        "level": "foundation",
        "created": "2026-12-05",
        "n": 8,
        "global": True,
        "none": None,
        "tags": ["a", "b c"],
        "empty": [],
        "load": {"limit": 8, "mode": "auto"},
        "last": None,
    }


def test_dates_are_checked_as_datetime_checks_them() -> None:
    """The simple subset validates ``YYYY-MM-DD`` without importing ``datetime``: every
    day of leap and common years, century rules, year 0 and out-of-range fields agree
    with ``date.fromisoformat``."""
    import datetime as dt

    from haki.engram.frontmatter import _is_date

    years = [*range(0, 12), 1900, 2000, 2023, 2024, 2100, 2400, 9999]
    for year in years:
        for month in range(0, 14):
            for day in range(0, 33):
                word = f"{year:04d}-{month:02d}-{day:02d}"
                try:
                    valid = dt.date.fromisoformat(word).isoformat() == word
                except ValueError:
                    valid = False
                assert _is_date(word) is valid, word
