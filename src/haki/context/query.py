"""The question's form: whether it asks for a list of things.

Queries are cut into words by ``text.lexicon`` (``query_words`` for the
full-text leg, ``query_terms`` for BM25), like the documents they match.
"""

from __future__ import annotations

import re

# A question asking for several things ("what books has she read?", "how
# many...", "which cities...", "quels sports...", "combien...") is answered
# by turns spread over many conversations, each naming one of them.
_LIST_QUESTION = re.compile(
    r"^\s*(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?!is\b|was\b|does\b|has\b)[a-z]+s\b"
    r"|\bhow\s+many\b|\bin\s+what\s+ways\b|\bboth\b"
    r"|^\s*(?:quels|quelles)\s+\w+s\b|\bcombien\b",
    re.IGNORECASE,
)


def asks_for_list(text: str) -> bool:
    """Whether the question asks for several items rather than one."""
    return _LIST_QUESTION.search(text) is not None
