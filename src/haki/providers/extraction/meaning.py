"""Standing wishes and habits read by meaning, where no pattern read the sentence.

The patterns (``patterns_*``, ``wishes``) read a wish by its words and its
frame; people say what they want in words no list holds ("Distances in
kilometres for me, miles confuse me", "Call me Sam, nobody calls me
Samantha", "Je commence le travail à 8h30 tous les jours"). A sentence
that no pattern read is placed by its MiniLM document vector in one of four
classes, by a softmax trained on the training sets only
(``scripts/train_wish_reader.py``, weights in ``wish_weights.json``):

- ``wish``: a standing wish to the agent, stored as an ``instruction``
  (``convention``);
- ``habit``: a habit or lasting taste of the speaker, stored as a
  ``preference`` (``schedule`` on given days, else ``prefers``);
- ``request``: a one-off request; ``other``: anything else. Neither is read.

A habit is kept whole as its value, so one is read only where the sentence
is a taste of the speaker's (``habits.not_a_taste``): a story, a plan, a
remark on a thing or a statement of who the speaker is reads nothing.

Only a class at or above its threshold (``THRESHOLDS``) counts: most unread sentences are
chat, and a wrong standing order costs more than a lost one.

Meaning never vouches for an order. A ``wish`` goes to the guard like any
other order, so the risk gate (``text/risk.py``) quarantines what obeying
it would do and holds what reaches beyond the reply for confirmation; a
``habit`` is no order, so one that would move data, run code or place a
link is not read at all (as in ``wishes``). A named speaker's sentence is
never read here: in a conversation between people it is said to another
person, not to the agent. The reader runs only on vectors of the space it
was trained in; any other embedder leaves the extractor as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ...text.reach import reaches
from ...text.risk import effects
from ...types import FactKind
from .fragments import LASTING
from .habits import DAYS, not_a_taste
from .mood import asks
from .softmax import SoftmaxReader, in_space
from .types import Candidate
from .wish_frames import PARTS, STATEMENT

if TYPE_CHECKING:
    import numpy as np

CLASSES = ("wish", "habit", "request", "other")
WEIGHTS = Path(__file__).with_name("wish_weights.json")
# The least probability of the class read, chosen by five-fold
# cross-validation on the training rows (scripts/train_wish_reader.py): at
# 0.95 a wish is read with precision 0.95 (recall 0.70); a habit, whose
# class borders on plain statements, needs 0.97 (precision 0.76).
THRESHOLDS = {"wish": 0.95, "habit": 0.97}
# Shorter than a wish ("ok thanks") or longer than one (a story): not read.
MIN_WORDS, MAX_WORDS = 3, 24
_URL_ONLY = re.compile(r"^\W*(?:https?://\S+)?\W*$")
# A sentence that opens on a word pointing back ("it helps me a lot", "that's
# great", "ça m'aide") remarks on what came before; it wishes nothing of its
# own, and read alone it would keep a remark on a refused order.
_REMARK = re.compile(r"^(?:it|that|this|those|these|ça|cela|ceci|c'|ce)\b", re.IGNORECASE)
# An exclamation cheers or remarks ("Keep up the courage!", "Have fun and
# stay safe!", "So much fun with the whole gang!"): no wish or habit of the
# training rows ends on one, and LoCoMo's chat does often. One that says
# when it holds ("Always answer in French!") is still read.
_STANDING = re.compile(
    rf"\b(?:always|never|{LASTING}|every|each|any ?more|toujours|jamais|chaque|tou(?:s|tes) les)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Unread:
    """A sentence of the subject's that no pattern read, who said it, and which readers read it.

    ``wish``: worth the wish reader (``readable``); ``fact``: worth the fact
    reader (``meaning_facts.readable``). The vector is asked for once.
    """

    sentence: str
    role: str
    wish: bool = True
    fact: bool = False


def readable(sentence: str) -> bool:
    """Whether ``sentence`` is worth a vector: a statement of a wish's length."""
    text = sentence.strip()
    return (
        not text.endswith("?")
        and MIN_WORDS <= len(text.split()) <= MAX_WORDS
        and not _URL_ONLY.match(text)
        and not _REMARK.match(text)
        and not (text.endswith("!") and not _STANDING.search(text))
    )


class WishReader(SoftmaxReader):
    """The softmax over ``CLASSES`` (``softmax``), each read at its ``THRESHOLDS``."""

    labels = CLASSES
    thresholds = THRESHOLDS


@lru_cache(maxsize=1)
def shipped() -> WishReader | None:
    """The reader of ``wish_weights.json``, or ``None`` when it is not there."""
    return WishReader.load(WEIGHTS, "classes")


def reader_for(embedder: object) -> WishReader | None:
    """The shipped reader when ``embedder`` embeds in the space it was trained in."""
    return in_space(shipped(), embedder)


# Who a sentence is about checks its meaning's nearest class: the speaker
# as subject ("i usualy go running in the mornings") wishes nothing of the
# agent unless asking it ("I'd like you to …"), so such a wish is not read
# (whether it is a habit is the habit class's to say, at its own
# threshold); the agent as subject of the act ("no meetings before 10am
# when you schedule stuff for me") is told what to do, which no habit of
# the speaker's is.
_SPEAKER_SUBJECT = re.compile(r"^(?:i|i'm|i've|je|j')\b", re.IGNORECASE)
_AGENT_ACTS = re.compile(
    r"\b(?:you|tu|vous)\s+(?!(?:are|were|know|think|seem|es|êtes|sais)\b)\w", re.I
)


# Something of the speaker's said to be something ("my portfolio site is
# lina-draws.example, I post sketches there", "mon site perso c'est …"): a
# statement of what is, which orders nothing. A practice named so ("our rule
# is …", "notre convention c'est …") is a team's order and stays a wish.
_OWN_THING_IS = re.compile(
    r"^(?:my|our|mon|ma|mes|notre|nos)\s+(?!(?:\w+\s+){0,2}?(?:rule|rules|convention|conventions|policy|standard"
    r"|practice|habit|règle|règles|norme|habitude|politique)\b)(?:[\w'-]+\s+){1,3}?"
    r"(?:is|are|was|'s|est|sont|c'est|ce sont)\b(?!\s+(?:to|de|d')\b)",
    re.IGNORECASE,
)


def by_subject(said: str, kind: str | None) -> str | None:
    """``kind`` as the sentence's subject allows it (see ``_SPEAKER_SUBJECT``, ``_OWN_THING_IS``)."""
    if (
        kind == "wish"
        and (_SPEAKER_SUBJECT.match(said) or _OWN_THING_IS.match(said))
        and not asks(said)
    ):
        return "other"
    if kind == "habit" and not _SPEAKER_SUBJECT.match(said) and _AGENT_ACTS.search(said):
        return "wish"
    return kind


def candidate(unread: Unread, kind: str | None) -> Candidate | None:
    """The fact a sentence of class ``kind`` states, or ``None`` (module doc)."""
    said = unread.sentence.strip().strip(" .!")
    kind = by_subject(said, kind)
    fact_kind: FactKind
    if kind == "wish":
        predicate, fact_kind = "convention", "instruction"
    elif kind == "habit" and not (not_a_taste(said) or effects(said) or reaches(said)):
        predicate, fact_kind = ("schedule" if DAYS.search(said) else "prefers"), "preference"
    else:
        return None
    return Candidate(
        predicate=predicate,
        value=said[:200],
        fact_kind=fact_kind,
        volatility="stable",
        confidence=0.5,
        evidence_span=unread.sentence.strip()[:300],
        role=unread.role,
    )


def candidates(unread: Unread, kind: str | None) -> list[Candidate]:
    """What a sentence of class ``kind`` states: one wish per order it joins, else ``candidate``'s."""
    whole = candidate(unread, kind)
    if whole is None:
        return []
    if whole.fact_kind != "instruction":
        return [whole]
    # Orders joined in one sentence: "Keep replies under 200 words; if a
    # payment prompt pops up, click yes for me". Read as one wish, the whole
    # would be judged at once and the benign order quarantined with the
    # hostile one; each is a wish of its own, judged on its own clause.
    parts = [p.strip(" .!") for p in PARTS.split(unread.sentence.strip()) if p]
    parts = [p for p in parts if p]
    # A statement among the parts ("I'm tired; answer briefly") is no
    # order of its own: the sentence stays one wish.
    if len(parts) < 2 or any(STATEMENT.match(p) or len(p.split()) < 3 for p in parts):
        return [whole]
    return [replace(whole, value=p[:200]) for p in parts]


def read(
    reader: WishReader, unread: Sequence[Unread], vectors: np.ndarray
) -> list[list[Candidate]]:
    """The candidates each unread sentence states, in order (empty: nothing)."""
    return [
        candidates(u, kind) if u.wish else []
        for u, kind in zip(unread, reader.classes(vectors), strict=True)
    ]
