"""Words for lexical matching: normalisation, tokens, stop words (EN + FR), light stemming.

Shared by Engram's routing and the context assembler, so a query and a
document are always cut the same way. Two matchers, one rule each:

- BM25 in Python (Engram, episode ranking): documents go through ``terms``
  and queries through ``query_terms``, which is ``terms`` made distinct.
- PostgreSQL full text: documents are indexed by the ``'simple'``
  configuration (lower case, accents kept, split on non-word characters), so
  ``query_words`` cuts a query the same way and sends whole words.

Both drop the same stop words and one-letter words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_TOKEN = re.compile(r"[a-z0-9]+(?:[+#][a-z0-9+#]*)?")

STOP_WORDS_EN = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "down",
        "during",
        "each",
        "else",
        "even",
        "ever",
        "every",
        "few",
        "for",
        "from",
        "further",
        "get",
        "gets",
        "got",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "need",
        "needs",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "please",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "use",
        "used",
        "using",
        "very",
        "via",
        "want",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "yes",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "also",
        "may",
        "might",
        "must",
        "shall",
        "still",
        "thing",
        "things",
        "way",
        "ways",
        "make",
        "makes",
        "making",
        "new",
        "like",
        "etc",
        "e",
        "g",
        "ie",
        "eg",
        "one",
        "two",
    ]
)

STOP_WORDS_FR = frozenset(
    [
        "au",
        "aux",
        "avec",
        "ce",
        "ces",
        "cet",
        "cette",
        "dans",
        "de",
        "des",
        "du",
        "elle",
        "elles",
        "en",
        "et",
        "eux",
        "il",
        "ils",
        "je",
        "la",
        "le",
        "les",
        "leur",
        "leurs",
        "lui",
        "ma",
        "mais",
        "me",
        "meme",
        "mes",
        "moi",
        "mon",
        "ne",
        "nos",
        "notre",
        "nous",
        "on",
        "ou",
        "par",
        "pas",
        "pour",
        "qu",
        "que",
        "qui",
        "sa",
        "se",
        "ses",
        "son",
        "sur",
        "ta",
        "te",
        "tes",
        "toi",
        "ton",
        "tu",
        "un",
        "une",
        "vos",
        "votre",
        "vous",
        "est",
        "sont",
        "ete",
        "etre",
        "avoir",
        "fait",
        "faire",
        "comment",
        "quand",
        "quel",
        "quelle",
        "quels",
        "quelles",
        "donc",
        "car",
        "ni",
        "si",
        "sans",
        "sous",
        "chez",
        "entre",
        "vers",
        "cela",
        "ceci",
        "ca",
        "tout",
        "tous",
        "toute",
        "toutes",
        "plus",
        "moins",
        "tres",
        "bien",
        "aussi",
        "alors",
        "puis",
        "comme",
        "faut",
        "dois",
        "doit",
    ]
)

STOP_WORDS = STOP_WORDS_EN | STOP_WORDS_FR

_ACCENTS = str.maketrans("àâäáéèêëîïíôöóùûüúçœæ", "aaaaeeeeiiiooouuuucoa")


def normalise(text: str) -> str:
    return text.lower().translate(_ACCENTS)


@lru_cache(maxsize=65536)  # vocabularies repeat; stemming is the hot part of scoring
def stem(word: str) -> str:
    """Light suffix stripping: folds plurals and common verb forms, nothing more.

    Aggressive stemmers conflate unrelated technical words (``test``/``testify``);
    a light one keeps ids and tool names recognisable.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix, repl in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: len(w) - len(suffix)] + repl
            if suffix in ("ing", "ed") and len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]
            break
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("ational", "at"),
    ("ation", "at"),
    ("ing", ""),
    ("ed", ""),
    ("ly", ""),
)


def words(text: str) -> list[str]:
    """Lower-cased word tokens, unstemmed, in order."""
    return _TOKEN.findall(normalise(text))


def terms(text: str) -> list[str]:
    """Stemmed index terms, stop words kept out."""
    return [stem(w) for w in words(text) if w not in STOP_WORDS and len(w) > 1]


def _distinct(items: Iterable[str], limit: int) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
        if len(seen) >= limit:
            break
    return list(seen)


def query_terms(text: str, limit: int) -> list[str]:
    """Distinct stemmed content terms of a query, in order of first use."""
    return _distinct(terms(text), limit)


# PostgreSQL's parser splits on what is not a letter or digit; ``_`` too.
_PG_WORD = re.compile(r"[^\W_]+")


def query_words(text: str, limit: int) -> list[str]:
    """Distinct lower-case content words of a query, accents kept, in order of first use.

    Only letters and digits reach PostgreSQL, so quotes, ``-`` and the other
    websearch operators never do.
    """
    lowered = (w for w in _PG_WORD.findall(text.lower()) if len(w) > 1)
    return _distinct((w for w in lowered if normalise(w) not in STOP_WORDS), limit)
