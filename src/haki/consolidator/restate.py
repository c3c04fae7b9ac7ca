"""Turns that say what holds from now on, and routines named with a new day (pure).

"We're in Bordeaux now", "finalement je préfère la mer maintenant", "yoga
moved to Thursday mornings": no word says the held value was wrong, the
turn states the new one. ``restated`` reads a new value of the held
fact's shape in a from-now-on sentence; ``restated_slot`` finds the fact
such a sentence speaks of when it gives no value to read; ``by_context``
finds a routine by the activity it is held for. ``doubt_plan`` decides
in which order these readings are tried.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..providers.extraction.corrections import new_state
from ..text.lexicon import STOP_WORDS
from ..text.topics import AskedQuestion, asks_about
from .corrections import SHAPE_SIMILARITY, Held, Replacement, about_someone_else, temporary
from .predicates import spec
from .takeback import SOMEONE_ELSE, writes
from .value_shapes import replacement, same_day, shape

# A new value of the held fact's shape beside its topic word needs less
# closeness than a cue alone: on the training splits such turns scored
# 0.23-0.45 against the fact they replaced ("just settled into our new flat
# in Denver" 0.23 against home_city Boston).
RESTATE_TOPIC_SIMILARITY = 0.2
# A sentence saying what holds from now on, with no value of the held
# fact's shape to read ("finalement je préfère la mer maintenant", "team
# decided on 2 spaces for indentation now"), is about the held fact it is
# at least ``RESTATE_SLOT_SIMILARITY`` close to: a value the rules read in
# the turn, in the fact's family, replaces it (0.37 for "la mer" against
# ``prefers: montagne``). With no such value the fact is put in doubt only
# at ``RESTATE_DOUBT_SIMILARITY``: the training turns that change a value
# in words scored 0.48-0.50, while LoCoMo turns saying "now" of something
# else reached 0.35-0.36 ("I'm now friends with one of my fellow
# volunteers" against ``volunteers_at``; ``bench/doubt.py --conversations 3``).
RESTATE_SLOT_SIMILARITY = 0.35
RESTATE_DOUBT_SIMILARITY = 0.45
# Beside a word saying something changed or was wrong, "now" speaks of a
# change rather than of a new friend or a new hobby: the fact it is closest
# to is doubted from ``RESTATE_SLOT_SIMILARITY`` on ("j'ai changé d'équipe,
# je suis de jour maintenant, 6h-14h" 0.42 against a night-shift schedule).
RESTATE_CUED_DOUBT_SIMILARITY = RESTATE_SLOT_SIMILARITY


def restated(sentences: Sequence[str], held: Sequence[Held]) -> Replacement | None:
    """A held value a sentence saying what holds from now on replaces (pure).

    "We're in Bordeaux now", "my dog's name is actually Max": the fact is
    the one the sentence is closest to, by topic word (with
    ``RESTATE_TOPIC_SIMILARITY``) or by meaning alone (``SHAPE_SIMILARITY``), and
    the sentence gives exactly one new value of its shape without naming
    the old one. With no such value nothing happens: "I'm now part of the
    brigade" or "my new job is great" restate or add, and doubting on such
    words would hold back facts nobody corrected.
    """
    best: tuple[float, str, Replacement] | None = None
    values = [f.value for f in held]
    for sentence in sentences:
        if not new_state(sentence) or temporary(sentence):
            continue
        asked, said = AskedQuestion.of(sentence), sentence.casefold()
        for fact in held:
            sim = fact.similarity
            if sim is None or fact.predicate == "name" or writes(fact.value, said):
                continue
            topical = sim >= RESTATE_TOPIC_SIMILARITY and asks_about(asked, fact.predicate)
            if not (topical or sim >= SHAPE_SIMILARITY) or siblings(fact, held):
                continue
            if about_someone_else(sentence, fact.predicate, fact.qualifiers):
                continue
            new = replacement(sentence, fact.value, values)
            if new is not None:
                key = (sim + (1.0 if topical else 0.0), str(fact.id))
                if best is None or key > best[:2]:
                    best = (*key, Replacement(fact, new, sentence))
    return best[2] if best else None


def restated_slot(sentences: Sequence[str], held: Sequence[Held]) -> Held | None:
    """The held fact a from-now-on sentence speaks of without a value to read (pure).

    Only the closest fact at ``RESTATE_SLOT_SIMILARITY`` or more, of a sentence
    that is not bound to a moment, not said of someone else and does not
    repeat the held value; a fact of a many-valued predicate (hobby, friend)
    only if the sentence says the old value ended or ranks the new above it ("I still love sushi these days" keeps it): what
    replaces it is the value the rules read in the turn, in its family, or
    nothing and the fact is put in doubt.
    """
    best: Held | None = None
    for sentence in sentences:
        if not new_state(sentence) or temporary(sentence) or SOMEONE_ELSE.search(sentence):
            continue
        said = sentence.casefold()
        for fact in held:
            sim = fact.similarity
            if sim is None or sim < RESTATE_SLOT_SIMILARITY or fact.predicate == "name":
                continue
            if spec(fact.predicate).cardinality == "many" and not _OLD_ENDS.search(said):
                # A new hobby or a new friend sits beside the old ones: only a
                # sentence saying the old one ended (or ranking the new above
                # it, as a preference does) speaks of the held value.
                continue
            if writes(fact.value, said) and not _RATHER_THAN.search(said):
                continue
            if about_someone_else(sentence, fact.predicate, fact.qualifiers):
                continue
            if best is None or (sim, str(fact.id)) > (best.similarity or 0.0, str(best.id)):
                best = fact
    return best


# Words saying the held value ended, moved or was set aside for the new one.
_OLD_ENDS = re.compile(
    r"\b(?:no longer|no more|any ?more|not|never|stopp?ed|quit|gave up|given up|dropped|switched"
    r"|replaced|instead|rather|prefer\w*|moved|changed|rescheduled|swapped|pushed|ne|plus|arrêté"
    r"|abandonné|remplac\w*|déplac\w*|décal\w*|chang\w*|au lieu|plutôt|préf[eéè]r\w*)\b"
    r"|n't\b|\bn['’]",
    re.IGNORECASE,
)


def ends_old(sentence: str) -> bool:
    """Does the sentence say a held value ended, moved or was set aside?"""
    return _OLD_ENDS.search(sentence.casefold()) is not None


# "Rather … than X", "plutôt … que X": the held value is the one set aside.
_RATHER_THAN = re.compile(r"\b(?:rather|plutôt)\b.*\b(?:than|que)\b")


# A day pinned down is an occasion, not the routine's new day; a place open
# or closed on a day says when it can be done, not when the speaker does it.
_ONCE = re.compile(
    r"\b(?:this|today|tonight|tomorrow|next|ce|cette|demain|aujourd'hui|prochain"
    r"|closed?|closes|open|opens|shut|fermée?s?|ferme|ouverte?s?|ouvre)\b",
    re.IGNORECASE,
)


def by_context(sentences: Sequence[str], held: Sequence[Held]) -> Replacement | None:
    """A held fact whose context a statement names, with one new value of its shape (pure).

    "Yoga moved to Thursday mornings", "la piscine c'est le dimanche
    maintenant": the activity a schedule is held for names the fact, and
    the one new day or time the sentence gives replaces the held one. An
    occasion ("this Monday I'm skipping the gym"), a place's opening days,
    the same day respelled, someone else's routine, or two held facts named
    at once replace nothing.
    """
    found: dict[object, Replacement] = {}
    values = [f.value for f in held]
    for sentence in sentences:
        if temporary(sentence) or _ONCE.search(sentence) or SOMEONE_ELSE.search(sentence):
            continue
        said = sentence.casefold()
        for fact in held:
            context = fact.qualifiers.get("context")
            if not isinstance(context, str) or shape(fact.value) is None:
                continue
            words = [w for w in _WORD.findall(context.casefold()) if w not in STOP_WORDS]
            if not any(writes(w, said) for w in words):
                continue
            new = replacement(sentence, fact.value, values, fact.predicate)
            if new is None or same_day(str(new), str(fact.value)):
                continue
            found.setdefault(fact.id, Replacement(fact, new, sentence))
    return next(iter(found.values())) if len(found) == 1 else None


_WORD = re.compile(r"[^\W\d_]{3,}")


def siblings(target: Held, held: Sequence[Held]) -> bool:
    """Another held fact of the target's predicate family and kind."""
    family = spec(target.predicate).identity_family
    kind = target.qualifiers.get("kind")
    return any(
        f.id != target.id
        and spec(f.predicate).identity_family == family
        and (kind is None or f.qualifiers.get("kind") in (None, kind))
        for f in held
    )
