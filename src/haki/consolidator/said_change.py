"""A later turn about a held fact that says it changed, when no narrower reading took it (pure).

The readings of ``doubt_plan`` each need a frame of their own: a value
after a negation, a correction cue beside a topic word, a from-now-on
sentence with a new value of the old one's shape, a life event of the
table. Sets written apart from the code leave the old fact current when
the turn says a change in other words ("mornings are dead to me", "not
rowing anymore" against ``member_of: Riverside Rowing Club``, "utilise
plutôt t.duval@proton.example"), or respells a name in lower case ("not
jake, jack", "mathis* pas mathieu", "it's Pickle, no s"). Two general
decisions close that class:

- **A respelled name** (``respelled``): a word of the sentence that is the
  held name misspelt (same first letter, at most two edits, not the name
  itself) in a frame that sets it in the old one's place: the old name
  after a negation in that sentence, a copula right before the word ("it's
  Pickle", "c'est Max") or a chat asterisk after it ("mathis*"). It
  replaces the fact, capitalised as the held value is.
- **A change said of the fact** (``changed``): a statement that says a
  change (an error cue, a life event, or a change said in other words:
  ``providers.extraction.corrections.said_changed``) and is about one held
  fact, by naming a word of its value ("mornings" for "morning workouts",
  "rowing" for "Riverside Rowing Club"), a topic word of its predicate, or
  giving a new value of a shape only that predicate holds (an e-mail
  address, a phone number), with the turn at least ``CHANGE_SIMILARITY``
  close to the fact by meaning. The value the sentence gives of the
  fact's shape replaces it; with none, the stage puts it in doubt.

Cost: a wrong reading holds back a fact nobody corrected until someone
resolves the doubt; the closeness floor, the speaker's own statement (no
possessive of another person, no moment or trip) and one fact at most
(none when two are equally pointed at, or the fact has a sibling of its
family not named) bound that; ``bench/doubt.py --conversations 3`` counts the LoCoMo
facts held back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..providers.extraction.corrections import cue_strength, said_changed
from ..text.lexicon import STOP_WORDS
from ..text.topics import AskedQuestion, asks_about, value_terms
from .corrections import Held, Replacement, about_someone_else, named_after_negation, temporary
from .life_events import tells_an_end
from .takeback import SOMEONE_ELSE, unnamed_sibling
from .value_shapes import denies_another, replacement, shape

# Closeness of the turn to the fact it says changed (local MiniLM, the
# vectors of ``doubt_plan.TOPIC_SIMILARITY``). On the check9 training set
# the turns this reading takes scored 0.27-0.35 against their fact
# ("utilise plutôt t.duval@…" 0.27 against the e-mail, "not rowing
# anymore" 0.31, "mornings are dead to me" 0.35).
CHANGE_SIMILARITY = 0.25

# A word ranking one value above another ("utilise plutôt …", "use this one
# instead") says which is the new one only when the value has a shape of its
# own: beside a held value written out ("je préfère plutôt le jazz
# manouche") it may be the one chosen, not the one set aside.
RANKED = re.compile(r"\b(?:plutôt|instead|à la place|rather)\b", re.IGNORECASE)
# Someone else as the subject: "She had a tough time, going through a
# divorce, losing her job" tells another person's life.
_THIRD = re.compile(
    r"\b(?:she|he|they|she's|he's|they're|they've|you|you're|you've|il|elle|ils|elles|tu|vous)\b",
    re.IGNORECASE,
)
# Shapes that say the predicate by themselves: one address is held, another is given.
_OWN_SHAPES = ("email", "phone")


def says_change(sentence: str) -> bool:
    """Does a statement say that something held was wrong, ended or changed?

    Only the strong words: an error cue, a life event, ``said_changed``. The weak
    ones ("stop", "quit", "more into", "changed") are everyday chat when the
    fact is pointed at by a single word of its value: on eight LoCoMo
    conversations they held back four facts nobody corrected ("I just
    can't stop writing" against ``likes: reading``, "I'm more into reading
    and fantasy novels" against a fantasy forum, "nature was telling me to
    stop" against ``likes: connection to nature``).
    """
    return bool(cue_strength(sentence) == 2 or tells_an_end(sentence) or said_changed(sentence))


def names_a_word(said: AskedQuestion, value: object) -> bool:
    """The sentence names a content word of the value, or a derivation of it
    ("mornings" for "morning workouts")."""
    found = [t for t in value_terms(value) if len(t) >= 4 and t not in STOP_WORDS]
    return any(t in said.stems or t in said.heads for t in found)


def changed(sentences: Sequence[str], held: Sequence[Held]) -> Replacement | Held | None:
    """The one held fact a statement says changed, with its new value when it gives one."""
    found: dict[object, tuple[int, Held, str]] = {}
    values = [f.value for f in held]
    for sentence in sentences:
        ranked_only = not says_change(sentence)
        if (ranked_only and not RANKED.search(sentence)) or temporary(sentence):
            continue
        if SOMEONE_ELSE.search(sentence) or _THIRD.search(sentence):
            continue
        asked = AskedQuestion.of(sentence)
        for fact in held:
            if fact.predicate == "name" or (fact.similarity or 0.0) < CHANGE_SIMILARITY:
                continue
            if about_someone_else(sentence, fact.predicate, fact.qualifiers):
                continue
            # "I don't live in Lyon any more" while Paris is held ends
            # another value, not the held one: the topic word points at
            # nothing here.
            if denies_another([sentence], fact.value):
                continue
            weight = _pointed(asked, sentence, fact, values, ranked_only)
            if weight and weight > found.get(fact.id, (0, fact, ""))[0]:
                found[fact.id] = (weight, fact, sentence)
    if not found:
        return None
    top = max(w for w, _, _ in found.values())
    best = [(fact, sentence) for w, fact, sentence in found.values() if w == top]
    if len(best) != 1 or unnamed_sibling(best[0][0], top == 2, held):
        # Two facts alike pointed at, or a topic with two facts of one slot
        # (two dogs): the turn says not which one changed.
        return None
    fact, sentence = best[0]
    new = replacement(sentence, fact.value, values, fact.predicate)
    return Replacement(fact, new, sentence) if new is not None else fact


def _pointed(
    asked: AskedQuestion, sentence: str, fact: Held, values: Sequence[object], ranked_only: bool
) -> int:
    """How a statement points at a fact: 2 by a word of its value, 1 by a topic
    word or a new value of a shape only its predicate holds, 0 not at all.
    With only a word of rank for a change, only the new value's shape points."""
    if not ranked_only and names_a_word(asked, fact.value):
        return 2
    if not ranked_only and asks_about(asked, fact.predicate):
        return 1
    own = shape(fact.value) in _OWN_SHAPES
    return int(own and replacement(sentence, fact.value, values) is not None)


_WORDS = re.compile(r"[^\W\d_][\w'’-]*")
_COPULA_BEFORE = re.compile(r"(?:\bit['’]?s|\bit is|\bc['’]est|\bis|\bwas)\s+$", re.IGNORECASE)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance (short words only: names)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def respelled(sentence: str, value: object) -> str | None:
    """The held one-word name respelt in ``sentence``, in a frame that puts it in the old one's place."""
    old = str(value).strip()
    if shape(value) != "name" or " " in old or len(old) < 3:
        return None
    key = old.casefold()
    negated = named_after_negation(sentence, value)
    found = set()
    for match in _WORDS.finditer(sentence):
        word = match.group(0)
        low = word.casefold()
        if low == key or low[0] != key[0] or len(low) < 3 or low in STOP_WORDS:
            continue
        if _edits(low, key) > (1 if len(key) <= 3 else 2):
            continue
        # The chat asterisk that marks a correction, after the word or before it ("*Leon").
        starred = sentence[match.end() : match.end() + 1] == "*" or (
            match.start() > 0 and sentence[match.start() - 1] == "*"
        )
        after_copula = _COPULA_BEFORE.search(sentence[: match.start()]) is not None
        if negated or starred or after_copula:
            found.add(word[0].upper() + word[1:] if old[:1].isupper() else word)
    return found.pop() if len(found) == 1 else None


# A frame that may respell a held name: a copula before a word, a chat asterisk.
_RESPELL_FRAME = re.compile(
    r"[^\W\d_]\*|(?:^|\s)\*[^\W\d_]|\b(?:it['’]?s|it is|c['’]est)\s+[^\W\d_]", re.IGNORECASE
)


def may_respell(turn: str) -> bool:
    """Is the turn worth reading for a respelled name only?"""
    return _RESPELL_FRAME.search(turn) is not None


def respelled_fact(sentences: Sequence[str], held: Sequence[Held]) -> Replacement | None:
    """The one held name a statement respells, with the new spelling."""
    found: dict[object, Replacement] = {}
    for sentence in sentences:
        for fact in held:
            if fact.predicate == "name" or about_someone_else(
                sentence, fact.predicate, fact.qualifiers
            ):
                continue
            new = respelled(sentence, fact.value)
            if new is not None:
                found.setdefault(fact.id, Replacement(fact, new, sentence))
    return next(iter(found.values())) if len(found) == 1 else None
