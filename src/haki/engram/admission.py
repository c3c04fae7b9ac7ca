"""Which memories a task may load: the seed's anchor rule, and the only rejections it
leaves room for.

The seed ("Ancrer, classer et affiner"): a query of four anchors or more needs two
anchor matches, or one match on a strong field (id, tag, directive, an ``applies_to``
path); a shorter query needs one match. Vector results without term overlap never
admit a memory. Precision past that comes from ranking and tiered disclosure, not
from a veto of what this rule admits.
"""

from __future__ import annotations

MANY_ANCHORS = 4


def admits(n_anchors: int, matched: int, strong: bool, many: int = MANY_ANCHORS) -> bool:
    """The seed's rule, nothing more.

    ``n_anchors``: the task's meaningful terms; ``matched``: how many of them the memory
    shares (a shorthand or word form of an anchor counts as that anchor); ``strong``:
    one of them is in the memory's id, tags or directive, or a path of the task matches
    its ``applies_to``. A semantic score is not a match: it cannot make this true.
    """
    if strong:
        return True
    return matched >= (2 if n_anchors >= many else 1)


def refusal(n_anchors: int, matched: int, many: int = MANY_ANCHORS) -> str:
    """Why ``admits`` said no, for ``--dry-run``."""
    if n_anchors >= many:
        return f"{matched}/{n_anchors} anchors, no strong field"
    return "no anchor matched"
