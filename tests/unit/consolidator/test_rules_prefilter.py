"""The rules prefilter skips only rules that cannot match (providers/extraction/prefilter.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from haki.providers.extraction.patterns import RULES
from haki.providers.extraction.prefilter import Prefilter, needles
from haki.providers.extraction.rules import _PREFILTER, _SENTENCES, extract_utterance
from haki.providers.extraction.types import Utterance

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "extraction"
# Dev fixtures only: the blind sets are never read.
DEV_SETS = ("everyday", "corrections", "locomo_sample", "relative_dates_dev", "traps")


def corpus() -> list[str]:
    texts = []
    for name in DEV_SETS:
        for line in (FIXTURES / f"{name}.jsonl").read_text().splitlines():
            text = json.loads(line).get("text") or ""
            # Each text as written, shouted and lower-cased: case must never matter.
            texts += [text, text.upper(), text.lower()]
    return [s.strip() for t in texts for s in _SENTENCES.split(t.replace("’", "'")) if s.strip()]


def test_no_rule_that_matches_a_sentence_is_skipped():
    sentences = corpus()
    assert len(sentences) > 500
    matched = 0
    for sentence in sentences:
        tried = set(map(id, _PREFILTER.rules_for(sentence)))
        for rule in RULES:
            if rule.pattern.search(sentence):
                matched += 1
                assert id(rule) in tried, (rule.pattern.pattern, sentence)
    assert matched > 300  # the corpus does exercise the rules


def test_extraction_is_the_same_with_and_without_it(monkeypatch):
    texts = [t for t in corpus() if t]
    fast = [extract_utterance(Utterance("user", None, t)) for t in texts]
    monkeypatch.setattr(_PREFILTER, "rules_for", lambda sentence: RULES)
    assert fast == [extract_utterance(Utterance("user", None, t)) for t in texts]


def test_small_talk_tries_few_rules_and_keeps_their_order():
    tried = _PREFILTER.rules_for("Haha, sounds good to me!")
    assert len(tried) < len(RULES) // 4
    order = {id(rule): i for i, rule in enumerate(RULES)}
    assert [order[id(r)] for r in tried] == sorted(order[id(r)] for r in tried)


def test_a_sentence_outside_ascii_tries_every_rule():
    # Case folding outside ASCII has equivalences lower() lacks (dotless ı
    # matches I): such sentences are never filtered.
    assert list(_PREFILTER.rules_for("ı love hiking")) == list(RULES)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (re.compile(r"\bI (?:love|adore) (?P<v>\w+)", re.I), {"love", "adore"}),
        (re.compile(r"\bmy (?:dog|cat)s? (?:is )?called (?P<v>\w+)"), {"called "}),
        (re.compile(r"I (?:really )?like"), {"like"}),
        (re.compile(r"(?:^|\s)(?P<v>\w+)?$"), None),  # nothing required
        (re.compile(r"[Jj]e préfère (?P<v>\w+)"), None),  # its words are not ASCII
    ],
)
def test_needles_are_words_every_match_contains(pattern, expected):
    assert needles(pattern) == (None if expected is None else frozenset(expected))


def test_an_optional_word_is_never_required():
    rule_pattern = re.compile(r"\bI (?:really )?(?:like|enjoy) (?P<v>\w+)", re.I)

    class Rule:
        pattern = rule_pattern

    only = Prefilter([Rule()])
    assert only.rules_for("I enjoy chess")
    assert not only.rules_for("I really do not")


class _Rule:
    def __init__(self, pattern: str):
        self.pattern = re.compile(pattern)


def test_overlapping_short_and_final_needles_are_all_found():
    # Needles are looked up from each position's first characters: ones that
    # overlap, share a start, are shorter than that prefix or end the
    # sentence must all still admit their rules.
    rules = [_Rule(p) for p in ("xy", "abc", "abcd", "bcde", "cde", "e z", "zzz", "qqq")]
    tried = Prefilter(rules).rules_for("xy abcde z")
    assert [r.pattern.pattern for r in tried] == ["xy", "abc", "abcd", "bcde", "cde", "e z"]
    assert list(Prefilter(rules).rules_for("nothing here")) == []
