"""What a compiled pattern cannot match without: the literals it needs, read from its syntax (pure).

The risk patterns (``text.risk``, ``text.reach``) are long alternations with
gaps (``[^.!?\\n]{0,60}?``) tried at every position of every sentence; most
sentences of a chat hold none of their words, and reading them costs most
of an episode's marks. ``needs`` reads a pattern's parse tree once and
returns a condition on the literals every match contains — "send" and one
of "password", "token" …; "." followed by a letter for a host — so one scan
of a sentence for all those literals (``Literals``) says which patterns
cannot match it, and they are not tried.

The condition is necessary, never sufficient: it is only ever used to skip
a pattern that could not match, so the answers are those of the patterns.
Case is folded as ``re.IGNORECASE`` folds it (``fold``), so a literal is
looked for in the folded text whatever the pattern's flags; a literal the
tree does not pin down (``\\w``, ``.``, a negated class) adds no condition.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from functools import cache
from re import _constants as C  # type: ignore[attr-defined]  # behind re.compile
from re import _parser as P  # type: ignore[attr-defined]
from typing import Any

from .literals import alternation

# Characters ``re.IGNORECASE`` takes for another that ``str.lower`` does not
# give (``sre_compile``'s equivalences, and the dotted capital I, whose full
# lower case is two characters), and every decimal digit as ``\d`` reads it.
_FOLD = {
    0x130: "i",
    0x131: "i",
    0x17F: "s",
    0xB5: "μ",
    0x345: "ι",
    0x1FBE: "ι",
    0x3C2: "σ",
    0x3D0: "β",
    0x3F5: "ε",
    0x3D1: "θ",
    0x3F0: "κ",
    0x3D6: "π",
    0x3F1: "ρ",
    0x3D5: "φ",
    0x1E9B: "ṡ",
    0x1FD3: "ΐ",
    0x1FE3: "ΰ",
    0xFB05: "ﬆ",
    **{
        cp: str(unicodedata.decimal(chr(cp)))
        for cp in range(sys.maxunicode + 1)
        if chr(cp).isdecimal() and cp > 0x7F
    },
}


def fold(text: str) -> str:
    """``text`` with case folded as the pattern engine compares it, digits as ASCII digits."""
    return text.translate(_FOLD).lower()


# A word boundary (``\\b``) at the start or the end of a literal: "nc" as a
# word, not inside "once".
B = "\x00"
# A condition: a set of literals (one must occur), or ("and" | "or", parts).
Cond = frozenset[str] | tuple[str, tuple["Cond", ...]]
# A set of strings every match of a node is, starts or ends with; None when
# unknown or larger than this.
_CAP = 64
_CLASS_CAP = 40


class _Info:
    __slots__ = ("conds", "exact", "first", "last")

    def __init__(
        self,
        exact: frozenset[str] | None = None,
        first: frozenset[str] | None = None,
        last: frozenset[str] | None = None,
        conds: tuple[Cond, ...] = (),
    ) -> None:
        self.exact = exact
        self.first = exact if first is None else first
        self.last = exact if last is None else last
        self.conds = conds


_EMPTY = _Info(frozenset({""}))


def _product(a: frozenset[str], b: frozenset[str]) -> frozenset[str] | None:
    if len(a) * len(b) > _CAP:
        return None
    return frozenset(x + y for x in a for y in b)


def _lits(strings: frozenset[str] | None) -> Cond | None:
    """A condition from a set of strings one of which every match holds; None if it holds nothing."""
    if not strings:
        return None
    safe = frozenset(_safe(s) for s in strings)
    return None if "" in safe else safe


def _safe(literal: str) -> str:
    """The part of ``literal`` that survives a span of the text replaced by one space.

    ``text.risk`` reads parts of a clause with a span cut out (a kept check,
    a released one): a blank after a non-word character, or a leading one,
    may be that space, so the literal is cut there; any piece of a needed
    literal is needed too. A word boundary (``B``) is kept only at the ends
    of a literal of two characters or more.
    """
    core = literal.replace(B, "")
    lead, trail = literal.startswith(B), literal.endswith(B)
    if core.startswith(" "):
        core, lead = core.lstrip(" "), False
    cut = re.search(r"\W ", core)
    if cut:
        core, trail = core[: cut.start() + 1], False
    if len(core) < 2:
        return core
    return (B if lead else "") + core + (B if trail else "")


def _class(items: list[tuple[object, Any]]) -> frozenset[str] | None:
    chars: set[str] = set()
    for op, av in items:
        if op is C.LITERAL:
            chars.add(fold(chr(av)))
        elif op is C.RANGE:
            lo, hi = av
            if hi - lo > _CLASS_CAP:
                return None
            chars.update(fold(chr(c)) for c in range(lo, hi + 1))
        elif op is C.CATEGORY and av is C.CATEGORY_DIGIT:
            chars.update("0123456789")
        else:
            return None
    return frozenset(chars) if len(chars) <= _CLASS_CAP else None


def _node(op: object, av: Any) -> _Info:
    if op is C.LITERAL:
        return _Info(frozenset({fold(chr(av))}))
    if op is C.IN:
        return _Info(_class(av))
    if op is C.CATEGORY and av is C.CATEGORY_DIGIT:
        return _Info(frozenset("0123456789"))
    if op is C.AT and av is C.AT_BOUNDARY:
        return _Info(frozenset({B}))
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return _EMPTY
    if op is C.SUBPATTERN:
        return _seq(av[-1])
    if op is C.ATOMIC_GROUP:
        return _seq(av)
    if op is C.BRANCH:
        return _branch([_seq(alt) for alt in av[1]])
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        lo, hi, item = av
        return _repeat(lo, hi, _seq(item))
    return _Info()


def _repeat(lo: int, hi: int, inner: _Info) -> _Info:
    if lo == 0:
        if hi == 1 and inner.exact is not None:
            return _Info(inner.exact | {""})
        return _Info()
    if lo == hi == 1:
        return inner
    return _Info(None, inner.first, inner.last, (*inner.conds, *_opt(_lits(inner.exact))))


def _branch(alts: list[_Info]) -> _Info:
    def union(sets: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
        out: set[str] = set()
        for s in sets:
            if s is None:
                return None
            out |= s
        return frozenset(out) if len(out) <= _CAP else None

    exact = union(a.exact for a in alts)
    if exact is not None:
        return _Info(exact)
    ors = []
    for a in alts:
        cond = _all(a)
        if cond is None:
            return _Info(None, union(a.first for a in alts), union(a.last for a in alts))
        ors.append(cond)
    return _Info(
        None, union(a.first for a in alts), union(a.last for a in alts), (("or", tuple(ors)),)
    )


def _opt(cond: Cond | None) -> tuple[Cond, ...]:
    return () if cond is None else (cond,)


def _all(info: _Info) -> Cond | None:
    conds = [*info.conds, *_opt(_lits(info.exact))]
    if not conds:
        return None
    return conds[0] if len(conds) == 1 else ("and", tuple(conds))


def _seq(items: Iterable[tuple[object, Any]]) -> _Info:
    cur: frozenset[str] = frozenset({""})
    first: frozenset[str] | None = None
    conds: list[Cond] = []
    broken = False
    for op, av in items:
        info = _node(op, av)
        joined = _product(cur, info.exact) if info.exact is not None else None
        if joined is not None:
            cur = joined
            continue
        head = (_product(cur, info.first) if info.first is not None else None) or cur
        conds.extend(_opt(_lits(head)))
        if not broken:
            first, broken = head, True
        conds.extend(info.conds)
        cur = info.last if info.last is not None else frozenset({""})
    if not broken:
        return _Info(cur)
    conds.extend(_opt(_lits(cur)))
    return _Info(None, first, cur, tuple(conds))


@cache
def needs(pattern: re.Pattern[str]) -> Cond | None:
    """The literals every match of ``pattern`` holds (module doc); None when it needs none."""
    cond = _all(_seq(P.parse(pattern.pattern, pattern.flags)))
    return None if cond is None else simplify(cond)


def any_of(conds: Iterable[Cond | None]) -> Cond | None:
    """One of ``conds`` holds; None (no condition) when one of them is None."""
    parts = list(conds)
    known = tuple(c for c in parts if c is not None)
    if not known or len(known) < len(parts):
        return None
    return simplify(("or", known))


def simplify(cond: Cond) -> Cond:
    """``cond`` with nested "and"s and "or"s flattened and the literal sets of an "or" joined."""
    if isinstance(cond, frozenset):
        return cond
    kind, parts = cond
    flat: list[Cond] = []
    for part in map(simplify, parts):
        if not isinstance(part, frozenset) and part[0] == kind:
            flat.extend(part[1])
        else:
            flat.append(part)
    if kind == "or":
        joined = frozenset().union(*(p for p in flat if isinstance(p, frozenset)))
        flat = [p for p in flat if not isinstance(p, frozenset)] + ([joined] if joined else [])
        # The literal set first: the cheapest to meet.
        flat.reverse()
    else:
        # The sets of the longest (rarest) literals first, so most fail early.
        flat.sort(key=lambda p: -min(map(len, p)) if isinstance(p, frozenset) else 0)
    return flat[0] if len(flat) == 1 else (kind, tuple(flat))


def literals(cond: Cond | None) -> set[str]:
    if cond is None:
        return set()
    if isinstance(cond, frozenset):
        return set(cond)
    return set().union(*(literals(c) for c in cond[1]))


def holds(cond: Cond | None, present: frozenset[str]) -> bool:
    """Whether the literals ``present`` meet ``cond`` (None: no condition)."""
    if cond is None:
        return True
    if isinstance(cond, frozenset):
        return not cond.isdisjoint(present)
    kind, parts = cond
    if kind == "and":
        return all(holds(c, present) for c in parts)
    return any(holds(c, present) for c in parts)


class Literals:
    """One scan of a text for every literal of a set of conditions: which of them occur."""

    def __init__(self, conds: Iterable[Cond | None]) -> None:
        words: set[str] = set().union(*(literals(c) for c in conds))
        self._words = frozenset(words)
        cores = {w.replace(B, "") for w in words}
        # At every position, the longest literal starting there; the shorter
        # ones starting there are its prefixes. Single characters are read
        # from the set of the text's characters.
        longer = [w for w in cores if len(w) > 1]
        self._scan = re.compile(f"(?=({alternation(longer)}))", re.DOTALL) if longer else None
        self._prefixes: dict[str, tuple[tuple[str, bool], ...]] = {}

    def _found(self, w: str) -> tuple[tuple[str, bool], ...]:
        """The literals ``w`` starts with, each with whether one is wanted at a word boundary."""
        hit = self._prefixes.get(w)
        if hit is None:
            hit = tuple(
                (p, bool({B + p, p + B, B + p + B} & self._words))
                for p in (w[:i] for i in range(2, len(w) + 1))
                if not {p, B + p, p + B, B + p + B}.isdisjoint(self._words)
            )
            self._prefixes[w] = hit
        return hit

    def present(self, text: str) -> frozenset[str]:
        folded = fold(text)
        found: set[str] = set(folded)
        if self._scan is None:
            return frozenset(found)
        # Where ``\b`` holds, found in one pass the first time a literal
        # wanted at a boundary occurs: most texts hold many such literals.
        bounds: set[int] | None = None
        for m in self._scan.finditer(folded):
            at = m.start()
            for p, bounded in self._prefixes.get(m.group(1)) or self._found(m.group(1)):
                found.add(p)
                if bounded:
                    if bounds is None:
                        bounds = {b.start() for b in _BOUNDARY.finditer(text)}
                    lead = at in bounds
                    trail = at + len(p) in bounds
                    if lead:
                        found.add(B + p)
                    if trail:
                        found.add(p + B)
                    if lead and trail:
                        found.add(B + p + B)
        return frozenset(found)


# ``\b`` as the pattern engine reads it: a word character (``str.isalnum``
# or "_") on one side only.
_BOUNDARY = re.compile(r"\b")


def _keys(cond: Cond) -> frozenset[str] | None:
    """Literals one of which is present whenever ``cond`` holds; None when no such set is known."""
    if isinstance(cond, frozenset):
        return cond
    kind, parts = cond
    if kind == "and":
        return next((k for k in map(_keys, parts) if k is not None), None)
    keys = [_keys(p) for p in parts]
    known = [k for k in keys if k is not None]
    return None if len(known) < len(keys) else frozenset().union(*known)


class Gate:
    """Whether a text may meet ``cond``: one scan for its literals, then only the
    alternatives whose first literal set the text meets are asked."""

    def __init__(self, cond: Cond | None) -> None:
        self._literals = Literals([cond])
        alts: tuple[Cond | None, ...] = (cond,)
        if cond is not None and not isinstance(cond, frozenset) and cond[0] == "or":
            alts = cond[1]
        self._always: list[Cond | None] = []
        self._by_literal: dict[str, list[Cond]] = {}
        for alt in alts:
            key = None if alt is None else _keys(alt)
            if alt is not None and key is not None:
                for word in sorted(key):
                    self._by_literal.setdefault(word, []).append(alt)
            else:
                self._always.append(alt)
        self._keyed = frozenset(self._by_literal)

    def open(self, text: str) -> bool:
        present = self._literals.present(text)
        if any(holds(alt, present) for alt in self._always):
            return True
        # Only the literals some alternative is keyed by (a set intersection:
        # most of what a text holds, its letters, keys nothing).
        return any(
            holds(alt, present) for word in present & self._keyed for alt in self._by_literal[word]
        )
