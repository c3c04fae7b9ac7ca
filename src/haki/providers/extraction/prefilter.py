"""Which rules could match a sentence, read from the words their patterns require.

Most turns of a chat state nothing ("Sounds good, thanks!"), yet trying
every rule on them scanned each sentence once per pattern: about 90 regex
scans per sentence, most of the extractor's time. Each pattern is parsed
once for words that any match must contain (``needles``: at least one of a
set, as alternations give several); a rule whose needles are all absent
from the sentence cannot match it and is not tried.

The test is exact, not a guess: a rule is skipped only when no match is
possible. It applies to ASCII sentences only, where case-insensitive
matching is plain ``lower()`` (outside ASCII, regex case folding has
equivalences ``lower()`` lacks, such as dotless i); other sentences try
every rule, as do rules with no needle found (``needles`` is None).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from re import _parser as sre_parse  # type: ignore[attr-defined]  # behind re.compile
from typing import Any, Protocol, TypeVar

from ...text.literals import alternation

_c = sre_parse  # the parser's opcodes live beside it
_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT)}


def _best(options: list[frozenset[str]]) -> frozenset[str] | None:
    """The requirement to test: needles of five characters or more are selective
    enough, and then the fewest needles cost the least."""
    if not options:
        return None
    return max(options, key=lambda s: (min(5, *(len(n) for n in s)), -len(s)))


def _required(items: Any) -> frozenset[str] | None:
    """Needles of a parsed sequence: one of them is in every match; None if unknown."""
    options: list[frozenset[str]] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            options.append(frozenset(["".join(run)]))
            run.clear()

    for op, arg in items:
        if op is _c.LITERAL:
            run.append(chr(arg))
            continue
        close_run()
        if op is _c.SUBPATTERN:
            inner = _required(arg[-1])
        elif op is _c.BRANCH:
            alternatives = [_required(alt) for alt in arg[1]]
            known = [a for a in alternatives if a is not None]
            inner = frozenset().union(*known) if len(known) == len(alternatives) else None
        elif op in _REPEATS and arg[0] >= 1:
            inner = _required(arg[2])
        else:  # classes, anchors, lookarounds, optional parts: nothing required here
            inner = None
        if inner is not None:
            options.append(inner)
    close_run()
    # Needles outside ASCII are dropped: an ASCII sentence may still match
    # them through case folding (``prefilter`` only judges ASCII sentences).
    ascii_options = [s for s in options if all(n.isascii() for n in s)]
    return _best(ascii_options)


def needles(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Lower-cased words at least one of which every match of ``pattern`` contains;
    None when the pattern requires none that can be read."""
    found = _required(sre_parse.parse(pattern.pattern, pattern.flags))
    return None if found is None else frozenset(n.lower() for n in found)


class _HasPattern(Protocol):
    @property
    def pattern(self) -> re.Pattern[str]: ...


R = TypeVar("R", bound=_HasPattern)


class Prefilter:
    """The rules worth trying on a sentence, in their own order."""

    def __init__(self, rules: Sequence[R]):
        self._rules = tuple(rules)
        required = [needles(rule.pattern) for rule in rules]
        # Each needle is looked for once per sentence, however many rules
        # share it; the rules it admits are bits of one integer.
        self._always = sum(1 << i for i, words in enumerate(required) if words is None)
        admits: dict[str, int] = {}
        for i, words in enumerate(required):
            for word in words or ():
                admits[word] = admits.get(word, 0) | 1 << i
        # Testing every needle with ``in`` scanned the sentence once per
        # needle, hundreds per sentence. One regex finds instead, at each
        # position, the longest needle that starts there (``literals``: a
        # tree of the needles, read once); every needle starting at that
        # position is a prefix of it, so each needle names the rules of its
        # own prefixes that are needles. Every occurrence is still found,
        # overlapping ones included, so the rules admitted are the same.
        self._admits = {
            word: _or(admits.get(word[:end], 0) for end in range(1, len(word) + 1))
            for word in admits
        }
        self._finder = re.compile(f"(?=({alternation(admits)}))") if admits else None

    def rules_for(self, sentence: str) -> Sequence[Any]:
        if not sentence.isascii():
            return self._rules
        mask = self._always
        if self._finder is not None:
            admits = self._admits
            for word in set(self._finder.findall(sentence.lower())):
                mask |= admits[word]
        # The admitted rules, lowest bit first: their own order.
        chosen = []
        rules = self._rules
        while mask:
            lowest = mask & -mask
            chosen.append(rules[lowest.bit_length() - 1])
            mask ^= lowest
        return chosen


def _or(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out
