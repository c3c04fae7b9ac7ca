"""Hostile queries for ``bench/context_latency.py --workload hostile``.

What an agent may pass as its query when nobody shaped it: a pasted log, a
page of noise, numbers, single letters, one word over and over, symbols, a
string of the scope's most frequent words. None of it is a question; each
kind stresses a different part of the full-text legs (many terms none of
the scope holds, prefixes of one letter, a single term repeated, terms the
statistics call frequent, nothing the parser keeps). The cost of a call
must still follow the caps, not the text.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable

from context_corpus import CITIES, NAMES, TOPICS, TURN_TEMPLATES

# The scope's own frequent words: every template's words, which thousands
# of the corpus's turns share.
FREQUENT = sorted(
    {
        w
        for t in TURN_TEMPLATES
        for w in re.findall(r"[a-z]+", re.sub(r"\{\w+\}", " ", t).lower())
        if len(w) > 1
    }
)


def _noise(rng: random.Random) -> str:
    """A pasted page of random letters: hundreds of "words" no turn holds."""
    return "".join(
        rng.choice(string.ascii_lowercase + "     ") for _ in range(rng.randint(2_000, 10_000))
    )


def _numbers(rng: random.Random) -> str:
    return " ".join(str(rng.randint(0, 9_999)) for _ in range(rng.randint(50, 300)))


def _letters(rng: random.Random) -> str:
    """Single letters and two-letter stubs: prefixes of a large share of the scope's words."""
    pool = list(string.ascii_lowercase) + [n[:2].lower() for n in NAMES]
    return " ".join(rng.choice(pool) for _ in range(rng.randint(10, 40)))


def _repeated(rng: random.Random) -> str:
    return " ".join([rng.choice(NAMES + FREQUENT)] * rng.randint(50, 500))


def _symbols(rng: random.Random) -> str:
    marks = ["🎸", "🎻", "???", "!!!", "...", "###", "->", "::", "«»", "—"]
    return " ".join(rng.choice(marks) for _ in range(rng.randint(20, 200)))


def _frequent(rng: random.Random) -> str:
    """The scope's most common words, 30 to 80 of them in any order."""
    return " ".join(rng.choice(FREQUENT) for _ in range(rng.randint(30, 80)))


def _log(rng: random.Random) -> str:
    """A pasted log: timestamps, ids and a few of the scope's names and cities."""
    lines = []
    for _ in range(rng.randint(5, 40)):
        stamp = f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z"
        ident = "".join(rng.choice("0123456789abcdef") for _ in range(12))
        lines.append(
            f"{stamp} ERROR worker-{rng.randint(1, 64)} {rng.choice(TOPICS)} sync for "
            f"{rng.choice(NAMES)} in {rng.choice(CITIES)} timed out after {rng.randint(1, 90)}s id={ident}"
        )
    return "\n".join(lines)


def _scripts(rng: random.Random) -> str:
    """Accents, Cyrillic, CJK and Arabic words around a name of the scope."""
    words = [
        "Où",
        "était",
        "Élodie",
        "ça",
        "Привет",
        "как",
        "дела",
        "東京",
        "旅行",
        "مرحبا",
        "straße",
    ]
    return " ".join(rng.choice([*words, rng.choice(NAMES)]) for _ in range(rng.randint(5, 60)))


KINDS: list[Callable[[random.Random], str]] = [
    _noise,
    _numbers,
    _letters,
    _repeated,
    _symbols,
    _frequent,
    _log,
    _scripts,
]


def hostile_queries(n: int, seed: int = 5, avoid: frozenset[str] = frozenset()) -> list[str]:
    """``n`` distinct hostile queries, the kinds in turn."""
    rng = random.Random(seed)
    out: list[str] = []
    seen = set(avoid)
    while len(out) < n:
        text = KINDS[len(out) % len(KINDS)](rng)
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out
