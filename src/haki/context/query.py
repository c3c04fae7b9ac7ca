"""User query text → the words of the full-text leg, and the question's form.

``websearch_to_tsquery`` never raises on arbitrary text, but it ANDs every
word: a natural-language question ("when did Anna move to Lyon?") would only
match a fact containing all of its words. We keep the distinct content words;
``context_fulltext_ids`` (migration 0031) joins them with ``or`` (websearch
syntax), so a fact sharing any of them is a full-text candidate and
``ts_rank_cd`` rewards the ones sharing more.

Words are ``\\w+`` runs, so quotes, ``-`` and other websearch operators never
reach PostgreSQL; emoji and punctuation fall away.
"""

from __future__ import annotations

import re

from ..text.lexicon import STOP_WORDS, normalise

_WORD = re.compile(r"\w+", re.UNICODE)

# Function words (the shared English and French list, compared accent-folded)
# match nearly every row, so they cost GIN work and add no ranking signal;
# "or" among them must go anyway, being an operator.


def fulltext_terms(text: str, max_terms: int) -> list[str]:
    """Distinct lowercase content words of ``text``, in order of first use."""
    seen: dict[str, None] = {}
    for match in _WORD.finditer(text.lower()):
        word = match.group().strip("_")
        if len(word) < 2 or normalise(word) in STOP_WORDS or word in seen:
            continue
        seen[word] = None
        if len(seen) >= max_terms:
            break
    return list(seen)


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
