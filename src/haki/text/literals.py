"""A set of literal words as one regex that reads a text once (pure).

``re`` tries the alternatives of ``a|b|c…`` one after the other at every
position of the text, so a pattern of a hundred words costs a hundred tests
per character. Written as a tree of their shared beginnings
(``(?:a(?:go|pril)|b(?:ack|e…))``), a position costs the tests of the few
words that start with its character. The set of strings matched is the
same, so a search finds a match exactly where the flat alternation would.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_Node = dict[str, "_Node"]
_END = ""  # marks a word ending at a node (no character is empty)


def alternation(words: Iterable[str]) -> str:
    """A regex matching exactly ``words`` (non-empty, taken literally), longest first
    at each position: the greedy tree tries a longer word before its prefix."""
    root: _Node = {}
    for word in sorted(set(words)):
        if not word:
            raise ValueError("an empty word matches everywhere")
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[_END] = {}
    if not root:
        raise ValueError("no words")
    return _emit(root)


def _emit(node: _Node) -> str:
    ends = _END in node
    branches = [re.escape(char) + _emit(child) for char, child in sorted(node.items()) if char]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 and not ends else "(?:" + "|".join(branches) + ")"
    return body + "?" if ends else body
