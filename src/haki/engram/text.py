"""Engram's vocabulary on top of the shared text core: anchors, paths, token estimates."""

from __future__ import annotations

import re

from ..text.budget import estimate_tokens
from ..text.lexicon import _ACCENTS, _TOKEN, STOP_WORDS, normalise, stem, terms
from .french import FRENCH_NON_ANCHORS

__all__ = [
    "ENGRAM_STOP_WORDS",
    "STOP_WORDS",
    "anchors",
    "estimate_tokens",
    "mentions_workflow",
    "normalise",
    "query_paths",
    "stem",
    "terms",
    "words",
]

# French stop words that are also English words a coding task means ("comment this function").
ENGLISH_WORDS = frozenset(["comment", "car", "plus", "son"])
# What is left of English contractions once the apostrophe splits them ("don't" -> "don").
CONTRACTIONS = frozenset(
    ["don", "doesn", "didn", "isn", "aren", "wasn", "won", "shouldn", "ll", "ve", "re"]
)
ENGRAM_STOP_WORDS = (STOP_WORDS - ENGLISH_WORDS) | CONTRACTIONS


def words(text: str) -> list[str]:
    """``haki.text.lexicon.words``: lower-cased word tokens, unstemmed, in order.

    Its accent table is a per-character lookup, most of the cost of cutting a memory's
    body, and it only maps a few accented letters: text holding none of them (ASCII, or
    dashes, arrows and quotes) skips it (same tokens)."""
    lowered = text.lower()
    if lowered.isascii():
        return _TOKEN.findall(lowered)
    if any(letter in lowered for letter in _ACCENTED):
        lowered = lowered.translate(_ACCENTS)
    return _TOKEN.findall(lowered)


# The letters the accent table maps, each looked for by a substring test: a character
# class of them costs every process 0.4 ms to compile, more than the tests cost a build.
_ACCENTED = tuple(map(chr, _ACCENTS))


_PATHLIKE = re.compile(r"[\w.*-]*(?:/[\w.*-]+)+|[\w*-]+(?:\.[a-z0-9]{1,6})+\b")

# Words that describe Engram itself; on their own they would match every memory.
GENERIC_MEMORY_WORDS = frozenset(
    [
        "rule",
        "rules",
        "knowledge",
        "memory",
        "memories",
        "skill",
        "skills",
        "context",
        "agent",
        "agents",
        "engram",
        "guideline",
        "guidelines",
        "instruction",
        "instructions",
        "note",
        "notes",
        "regle",
        "regles",
        "memoire",
        "memoires",
        "connaissance",
        "connaissances",
        "convention",
        "conventions",
        "best",
        "practice",
        "practices",
        "help",
    ]
)

# Request verbs: they say that the agent acts, not what the task is about.
GENERIC_VERBS = frozenset(
    [
        "add",
        "adding",
        "create",
        "creating",
        "make",
        "write",
        "writing",
        "open",
        "update",
        "updating",
        "change",
        "changing",
        "edit",
        "editing",
        "implement",
        "handle",
        "put",
        "show",
        "tell",
        "give",
        "look",
        "find",
        "try",
        "want",
        "like",
        "know",
        "explain",
        "explaining",
        "describe",
        "describing",
        "compute",
        "computing",
    ]
)

# Type words that steer routing towards skills without being a match by themselves.
WORKFLOW_WORDS = frozenset({"workflow", "workflows"})


def anchors(query: str) -> list[str]:
    """The query's meaningful words, unstemmed, deduplicated in order of appearance."""
    seen: dict[str, None] = {}
    for w in words(query):
        if (
            len(w) < 2
            or w in ENGRAM_STOP_WORDS
            or w in GENERIC_MEMORY_WORDS
            or w in GENERIC_VERBS
            or w in FRENCH_NON_ANCHORS
            or w in WORKFLOW_WORDS
        ):
            continue
        seen.setdefault(w, None)
    return list(seen)


def mentions_workflow(query: str) -> bool:
    """``workflow`` as a word of the task; ``.github/workflows/ci.yml`` is a path, not a request."""
    return any(w in WORKFLOW_WORDS for w in words(_PATHLIKE.sub(" ", query)))


def query_paths(query: str) -> list[str]:
    """Path-like tokens (``src/app/x.py``, ``foo.test.ts``) that may hit ``applies_to`` globs."""
    found = []
    for p in _PATHLIKE.findall(query):
        if "/" not in p and "." not in p:
            continue
        p = p.rstrip(".")  # a sentence's full stop, not part of the path
        found.append(p[2:] if p.startswith("./") else p.lstrip("/"))
    return [p for p in found if p]
