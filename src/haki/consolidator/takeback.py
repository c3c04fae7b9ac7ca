"""A later sentence that names a held value beside words saying it ended (pure).

"Gave up keto, I eat everything now", "not allergic to cats after all",
"I'm kind of over jazz", "you can stop using German, French is fine": no
pattern reads a correction in them and no correction cue opens them, yet
each takes back the one held fact whose value it writes out. The decision
needs three things of one sentence, none a phrasing of its own:

- it **writes the held value** (as stored, on word boundaries), so the fact
  is identified by what it says, not by a topic guess;
- it carries a word saying a value **ended or was set aside** (``_ENDED``:
  "gave up", "stop", "after all", "any more", "instead", "ne … plus",
  "arrêté", …), and no word saying it **still** holds;
- it is a statement about the speaker: not a question, not bound to a
  moment or a trip, not said of someone else; and the turn is at least
  ``TAKEBACK_SIMILARITY`` close to the fact by meaning (a sentence naming
  "jazz" about a concert tonight is not a taste that ended).

The caller then replaces the fact with the value the turn gives in its
family or of its shape, else puts it in doubt. Cost: one regex pass per
statement and a word-boundary search per held fact (one cached matcher
per distinct value), on turns that already passed the doubt stage's gate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .corrections import Held, about_someone_else, temporary

# Closeness of the turn to the fact it takes back (local MiniLM, same
# vectors as ``doubt_plan.TOPIC_SIMILARITY``): the value is written out, so
# meaning only has to rule out a sentence about something else entirely.
TAKEBACK_SIMILARITY = 0.25

_ENDED = re.compile(
    r"\b(?:no longer|no more|any ?more|any longer|after all|gave up|given up|giving up|give up"
    # A particle after the verb makes it a visit, not an end: "dropped off
    # the cakes at the shelter", "stop by the gym".
    r"|(?:stop|stopped|stopping|dropped)(?! (?:off|by|in|at|over)\b)|quit|quitting|done with"
    r"|(?:I'm|I am|so|kind of|totally|completely|it's|it is|we're|we are) over|we're done|c'est fini"
    r"|switched|replaced|instead"
    r"|rather than|ne\b[^.!?]{0,40}\bplus|n['’]\w+ plus|plus (?:de|d['’]|du|le|la|les)|arrêté"
    r"|abandonné|laissé tomber|fini avec|au lieu|plutôt que|finalement)\b",
    re.IGNORECASE,
)
# A value said to hold still, or again, is not taken back.
_STILL = re.compile(r"\b(?:still|always|again|toujours|encore)\b", re.IGNORECASE)


def takeback_cue(sentence: str) -> bool:
    """Does a sentence carry a word saying some value ended or was set aside?"""
    return _ENDED.search(sentence) is not None


@lru_cache(maxsize=4096)
def _written_as(text: str) -> re.Pattern[str]:
    # One compiled matcher per distinct value: the same held values are
    # tested against every statement of every turn of the subject.
    return re.compile(rf"(?<!\w){re.escape(text)}(?!\w)")


def writes(value: object, said: str) -> bool:
    """Does ``said`` (casefolded) write ``value`` out, on word boundaries?"""
    text = str(value).casefold().strip()
    return len(text) >= 2 and _written_as(text).search(said) is not None


def taken_back(sentences: Sequence[str], held: Sequence[Held]) -> tuple[Held, str] | None:
    """The one held fact a statement writes out beside a word saying it ended, and that sentence."""
    found: dict[object, tuple[Held, str]] = {}
    for sentence in sentences:
        said = sentence.casefold()
        if not takeback_cue(sentence) or _STILL.search(said) or temporary(sentence):
            continue
        for fact in held:
            if fact.predicate == "name" or (fact.similarity or 0.0) < TAKEBACK_SIMILARITY:
                continue
            if not writes(fact.value, said):
                continue
            if about_someone_else(sentence, fact.predicate, fact.qualifiers):
                continue
            found.setdefault(fact.id, (fact, sentence))
    # Two held values written out: the sentence does not say which one ended.
    return next(iter(found.values())) if len(found) == 1 else None
