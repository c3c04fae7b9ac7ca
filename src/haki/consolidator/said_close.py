"""A change said in words close to the fact's own sentence (pure).

The readings of ``doubt_plan`` need a word that ties the turn to the fact:
its value, a topic word of its predicate, or one new value of its shape.
People correct themselves without any: "Mes horaires ont changé,
maintenant c'est de 8h à 16h" against "Je travaille de 9h à 17h", "Quit the
café, I'm a bus driver now" against "I'm a barista", "School pickup is at
3:45 now" against "I pick up the kids at 4:30 every day". What ties them is
meaning, and it shows best against the sentence the fact was read from:
both are the speaker's words, in the same register, while the fact's own
embedding text (a question and a templated sentence) is worded apart. On
the training sets such corrections scored 0.46–0.74 against the fact's
sentence and 0.22–0.46 against its embedding text.

Meaning alone also ties a turn to a fact it does not correct ("Ma mère
habite à Marseille maintenant" 0.66 against "J'habite à Lyon", "Rex
finally learned to sit" 0.52): the closeness only chooses *which* fact a
change speaks of. The change itself must be said, in a statement of the
speaker's own (a correction cue, a from-now-on word, a word saying
something ended: ``doubt_plan.may_take_back``'s signals but a bare
negation), not of a moment, a trip or a slip on an occasion just past,
and not of someone else. The fact
must stand clear of the others the turn is close to (``SAID_MARGIN``), have
no sibling of its family (two cats: closeness does not say which one was
renamed), for a many-valued predicate (hobby, group, schedule) be said to
have changed in strong words (``_ends_many``), and not be the user's name (any capitalised word would rename
them). The stage then replaces it with the value the turn gives, else puts
it in doubt: a wrong pick hides a fact until someone resolves the set,
which is the price of never serving a corrected fact as current.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..providers.extraction.corrections import correction_cue, new_state
from ..text.topics import AskedQuestion, asks_about
from .corrections import Held, about_someone_else, temporary
from .life_events import tells_an_end
from .predicates import spec
from .restate import ends_old, siblings
from .said_change import RANKED, names_a_word, says_change
from .takeback import SOMEONE_ELSE, STILL, takeback_cue

# The turn's embedding against the chunk the fact was read from. Keep
# rows of the training splits with a change word that reach this reading
# (not a question, not of someone else) scored up to 0.53 ("My parents moved
# to Leeds last month", stopped by the possessive; "Oops, sent the slides
# to the wrong team at IBM" 0.46), corrections 0.46 and up.
SAID_SIMILARITY = 0.45
# The fact's own embedding text, which a turn about another topic altogether
# scores lower against.
SAID_FACT_FLOOR = 0.2
# How far ahead of the next held fact the chosen one must stand.
SAID_MARGIN = 0.05


# A slip on an occasion just past ("je me suis planté de recette hier, j'ai
# mis du bouillon de bœuf au lieu du bouillon de légumes") tells what went
# wrong then, not what holds of the speaker; a life event dated so still ends
# its fact.
_OCCASION = re.compile(
    r"\b(?:yesterday|last night|earlier today|hier|avant-hier|tout à l'heure|l'autre jour"
    r"|the other day)\b",
    re.IGNORECASE,
)


# An apology or a halt that opens a sentence: a cue on its own in the
# readings tied by a word, but people apologise for anything ("Oops, sorry
# 'bout the accident!", LoCoMo): tied by meaning alone, the rest of the
# sentence must say the change.
_OPENER = re.compile(
    r"^\W*(?:(?:oops|oups|sorry|pardon|désolée?|wait|attends|no|non|my bad)\b[\W_]*)+",
    re.IGNORECASE,
)


# Another person as the subject ("She had a tough time, going vegetarian
# instead after the divorce"): their change, not the speaker's. "Il" is left
# out: French says "il faut", "il y a" of no one.
THIRD_PERSON = re.compile(
    r"\b(?:she|he|they|she's|he's|they're|they've|elle|elles|ils)\b", re.IGNORECASE
)


def says_a_change(sentence: str) -> bool:
    """Does a statement say something changed, ended or was wrong (no bare
    negation, no apology alone)?"""
    sentence = _OPENER.sub("", sentence)
    return bool(
        correction_cue(sentence)
        or new_state(sentence)
        or says_change(sentence)
        or takeback_cue(sentence)
        or tells_an_end(sentence)
    )


def _ends_many(sentence: str) -> bool:
    """Does the sentence say a value of a many-valued predicate changed?

    A new hobby, group or schedule sits beside the old ones, and chat says
    "changed" of anything ("it changed my view on helping others", "a lot
    has changed since last time", LoCoMo): only a strong word of change
    (``says_change``: an error, a life event, a switch) or a change said
    with its from-now-on state in the same sentence ("my hours changed,
    now it's 7 to 3") points at a held one.
    """
    return says_change(sentence) or bool(
        correction_cue(sentence) and new_state(sentence) and ends_old(sentence)
    )


_CLAUSES = re.compile(r"[,;:]|\s[—–-]\s")
_NEGATION = re.compile(r"\b(?:not|no|never|pas|jamais|plus)\b|n['’]t\b", re.IGNORECASE)
_PAST_COPULA = r"\w*\s+(?:was|were|used to be|c['’]était|était)\b"


def _bygone(clause: str, value: object) -> bool:
    """Is a word of the value said to have been, in the past ("painting was a phase")?"""
    said = clause.casefold()
    return any(
        re.search(rf"\b{re.escape(w)}{_PAST_COPULA}", said)
        for w in re.findall(r"[^\W\d_]{4,}", str(value).casefold())
    )


def _set_aside(clause: str, value: object) -> bool:
    """Does the clause naming a value set it aside: a word saying it ended
    or was left ("switched from piano", "quit", "ne … plus"), a strong word
    of change, a word ranking another above it, the value said in the past?"""
    return bool(
        takeback_cue(clause)
        or says_change(clause)
        or RANKED.search(clause)
        or _bygone(clause, value)
    )


def tied(sentence: str, fact: Held) -> bool:
    """Does the sentence name the fact by a word and say it changed?

    A content word of its value ties it when its clause sets the value aside
    ("switched from piano to drums", "painting was more of a phase",
    "plutôt café"); a topic word of its predicate when its clause says a
    change in strong words or denies the topic ("c'était pas une allergie";
    not "I feel like I just can't stop writing", a topic of ``likes`` beside
    an ending word). Chat names a held hobby, or its
    topic, beside "now" or "changed" without changing it ("I've finally
    found my real muses: painting and pottery", "I read it a while back and
    it really changed my perspective", LoCoMo). Nothing ties a sentence saying the value still
    holds ("still", "again", "toujours", "encore").

    Meaning says the turn is about the fact's sentence; the word says which
    of several values of a many-valued predicate it speaks of, as a strong
    word of change would."""
    if STILL.search(sentence):
        return False
    for clause in _CLAUSES.split(sentence):
        asked = AskedQuestion.of(clause)
        if names_a_word(asked, fact.value) and _set_aside(clause, fact.value):
            return True
        if asks_about(asked, fact.predicate) and (
            says_change(clause) or _denied_topic(clause, fact.predicate)
        ):
            return True
    return False


def _denied_topic(clause: str, predicate: str) -> bool:
    """Is a topic word of the predicate among the three words after a
    negation ("c'était pas une allergie", "not a vegetarian")? A negation
    elsewhere in the clause ("I feel like I just can't stop writing") denies
    something else."""
    for match in _NEGATION.finditer(clause):
        after = " ".join(clause[match.end() :].split()[:3])
        if after and asks_about(AskedQuestion.of(after), predicate):
            return True
    return False


def reaches(fact: Held, sentences: Sequence[str]) -> bool:
    """Is ``fact`` close enough to its own sentence for a change the turn
    says to reach it by meaning: ``SAID_SIMILARITY``, and, for a
    many-valued predicate, a change said in strong words?"""
    if (fact.said or 0.0) < SAID_SIMILARITY:
        return False
    return spec(fact.predicate).cardinality != "many" or any(
        _ends_many(s) or tied(s, fact) for s in sentences
    )


def said_close(sentences: Sequence[str], held: Sequence[Held]) -> tuple[Held, str] | None:
    """The held fact a change said in the turn is about by meaning, with the sentence.

    ``sentences`` are the turn's statements; each ``Held`` carries ``said``,
    the turn's closeness to the sentence the fact was read from.
    """
    changes = [
        s
        for s in sentences
        if says_a_change(s)
        and not temporary(s)
        and not SOMEONE_ELSE.search(s.casefold())
        and not THIRD_PERSON.search(s)
        and (not _OCCASION.search(s) or tells_an_end(s))
    ]
    if not changes:
        return None
    ranked = sorted(
        (f for f in held if f.said is not None),
        key=lambda f: (-(f.said or 0.0), str(f.id)),
    )
    if not ranked:
        return None
    best = ranked[0]
    if (best.said or 0.0) < SAID_SIMILARITY or (best.similarity or 0.0) < SAID_FACT_FLOOR:
        return None
    if best.predicate == "name":
        return None
    if len(ranked) > 1 and (best.said or 0.0) - (ranked[1].said or 0.0) < SAID_MARGIN:
        return None
    if siblings(best, held):
        return None
    said = [
        s
        for s in changes
        if not about_someone_else(s, best.predicate, best.qualifiers)
        and (spec(best.predicate).cardinality != "many" or _ends_many(s) or tied(s, best))
    ]
    return (best, said[0]) if said else None
