"""User query text → the words of the full-text leg.

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

_WORD = re.compile(r"\w+", re.UNICODE)

# Function words in English and French: they match nearly every row, so they
# cost GIN work and add no ranking signal. "or" must go, being an operator.
STOP_WORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "ours", "she", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "up", "us", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "about", "after", "before", "any", "all", "also", "just", "more", "most", "some", "such", "only", "own", "au", "aux", "avec", "ce", "ces", "cet", "cette", "dans", "de", "des", "du", "elle", "elles", "en", "est", "et", "être", "il", "ils", "je", "la", "le", "les", "leur", "leurs", "lui", "ma", "mais", "me", "mes", "moi", "mon", "ne", "nos", "notre", "nous", "on", "ou", "où", "par", "pas", "pour", "qu", "que", "qui", "sa", "se", "ses", "son", "sont", "sur", "ta", "te", "tes", "toi", "ton", "tu", "un", "une", "vos", "votre", "vous", "y"]
)


def fulltext_terms(text: str, max_terms: int) -> list[str]:
    """Distinct lowercase content words of ``text``, in order of first use."""
    seen: dict[str, None] = {}
    for match in _WORD.finditer(text.lower()):
        word = match.group().strip("_")
        if len(word) < 2 or word in STOP_WORDS or word in seen:
            continue
        seen[word] = None
        if len(seen) >= max_terms:
            break
    return list(seen)

