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

from ..providers.extraction.corrections import SPOKEN_PLUS
from ..text.memo import memo
from ..text.topics import AskedQuestion, asks_about
from .corrections import Held, about_someone_else, temporary
from .life_events import events_in
from .predicates import spec
from .value_shapes import head

# Closeness of the turn to the fact it takes back (local MiniLM, same
# vectors as ``doubt_plan.TOPIC_SIMILARITY``): the value is written out, so
# meaning only has to rule out a sentence about something else entirely.
TAKEBACK_SIMILARITY = 0.25
# A life event already names the predicates it ends (``life_events``):
# meaning only has to rule out a fact of another topic altogether. Such
# turns score low against the fact they end ("I retired last year" 0.20
# against an occupation, "je remange de la viande" 0.21 against a diet;
# tests/unit/consolidator/test_new_state.py); ``bench/doubt.py
# --conversations 3`` counts what this ends by mistake in chat.
LIVED_SIMILARITY = 0.15

_ENDED = re.compile(
    r"\b(?:no longer|no more|any ?more|any longer|after all|gave up|given up|giving up|give up"
    # A particle after the verb makes it a visit, not an end: "dropped off
    # the cakes at the shelter", "stop by the gym".
    r"|(?:stop|stopped|stopping|dropped)(?! (?:off|by|in|at|over)\b)|quit|quitting|done with"
    r"|(?:I'm|I am|so|kind of|totally|completely|it's|it is|we're|we are) over|we're done|c'est fini"
    r"|switched|replaced|instead"
    r"|rather than|ne\b[^.!?]{0,40}\bplus|n['’]\w+ plus|plus (?:de|d['’]|du|le|la|les)|arrêté"
    r"|abandonné|laissé tomber|fini avec|au lieu|plutôt que|finalement"
    # Spoken French drops the "ne": "je suis plus infirmière", "j'y suis
    # plus", "j'écoute plus trop de rap".
    r"|(?:je|j'y|j’y) suis plus)\b"
    rf"|{SPOKEN_PLUS}",
    re.IGNORECASE,
)
# An end that happened, not a mood: "quit blue bottle today" dates the end
# with its moment, where "I'm over it for today" speaks of today only.
_DONE = re.compile(
    r"\b(?:quit|stopped|gave up|given up|dropped|switched|replaced|sold|arrêté|abandonné"
    r"|laissé tomber|vendu)\b"
)
# A value said to hold still, or again, is not taken back.
STILL = re.compile(r"\b(?:still|always|again|toujours|encore)\b", re.IGNORECASE)


def takeback_cue(sentence: str) -> bool:
    """Does a sentence carry a word saying some value ended or was set aside?"""
    return _ENDED.search(sentence) is not None


@memo
def _written_as(text: str) -> re.Pattern[str]:
    # One compiled matcher per distinct value: the same held values are
    # tested against every statement of every turn of the subject.
    return re.compile(rf"(?<!\w){re.escape(text)}(?!\w)")


def writes(value: object, said: str) -> bool:
    """Does ``said`` (casefolded) write ``value`` out, on word boundaries?"""
    text = str(value).casefold().strip()
    return len(text) >= 2 and _written_as(text).search(said) is not None


def names(value: object, said: str) -> bool:
    """Does ``said`` (casefolded) write ``value`` out, or its head (``head``)?"""
    if writes(value, said):
        return True
    found = head(value)
    return found is not None and writes(found, said)


# Articles and possessives between an ending verb and its object.
_DETERMINERS = (
    r"(?:(?:the|a|an|my|our|le|la|les|l['’]|un|une|mon|ma|mes|du|de la|de l['’]|des|d['’])\s*)*"
)


def ends_object(said: str, value: object) -> bool:
    """Is the value (or its head) the object of an ending verb in ``said``
    (casefolded): "quit blue bottle", "arrêté la course", "sold the civic"?"""
    for text in (str(value).casefold().strip(), head(value)):
        if not text or len(text) < 2:
            continue
        for match in (*_ENDED.finditer(said), *_DONE.finditer(said)):
            rest = said[match.end() :]
            if re.match(rf"\s+{_DETERMINERS}{re.escape(text)}(?!\w)", rest):
                return True
    return False


def taken_back(sentences: Sequence[str], held: Sequence[Held]) -> tuple[Held, str] | None:
    """The one held fact a statement writes out beside a word saying it ended, and that sentence."""
    found: dict[object, tuple[Held, str]] = {}
    for sentence in sentences:
        said = sentence.casefold()
        if not takeback_cue(sentence) or STILL.search(said):
            continue
        if temporary(sentence, event=_DONE.search(said) is not None):
            continue
        for fact in held:
            if fact.predicate == "name" or not names(fact.value, said):
                continue
            # The value as the object of the ending verb ("j'ai arrêté la
            # course", "stopped korean") says by structure what ended:
            # meaning only has to rule out another topic altogether.
            floor = LIVED_SIMILARITY if ends_object(said, fact.value) else TAKEBACK_SIMILARITY
            if (fact.similarity or 0.0) < floor:
                continue
            if about_someone_else(sentence, fact.predicate, fact.qualifiers):
                continue
            found.setdefault(fact.id, (fact, sentence))
    # Two held values written out: the sentence does not say which one ended.
    return next(iter(found.values())) if len(found) == 1 else None


# Someone else, named by a possessive and a person word: what they live is not the speaker's.
SOMEONE_ELSE = re.compile(
    r"\b(?:my|our|his|her|their|mon|ma|mes|notre|nos|son|sa|ses)\s+(?:best\s+|meilleure?\s+)?"
    r"(?:sister|brother|mother|mom|mum|father|dad|parents?|son|daughter|kids?|children|friend|neighbou?r"
    r"|colleague|boss|coworker|cousin|aunt|uncle|grandma|grandpa|husband|wife|boyfriend|girlfriend|partner"
    r"|sœur|soeur|frère|mère|père|parents?|fils|fille|enfants?|amie?|voisine?|collègue|patron|cousine?"
    r"|tante|oncle|mamie|papi|mari|femme|copain|copine)\b(?!\s+(?:and I|et moi))",
    re.IGNORECASE,
)
# The speaker as the subject of what happened: "I", "we", "je", "on", "my"
# ("my engagement's off") …
_SELF = re.compile(
    r"\b(?:i|i'm|i've|we|we're|we've|my|our|me|us|je|j|moi|nous|on|mon|ma|mes|notre|nos)\b",
    re.IGNORECASE,
)
# … or no subject said at all: "Got laid off from Deloitte", "Broke up with Tom".
_DROPPED = re.compile(
    r"[\W_]*(?:(?:just|finally|so|well|oh|ugh|yeah|sadly|unfortunately|got|have|has|been|and)\b[\W_]*)*",
    re.IGNORECASE,
)


def status_ended(sentences: Sequence[str], held: Sequence[Held]) -> list[tuple[Held, str]]:
    """The held facts whose state a statement says a life event ended (pure).

    ``life_events`` lists the events and the predicates each one ends. A
    fact ends when a statement tells such an event, the fact's predicate is
    one it ends, the sentence points at the fact (the speaker lives the
    event, or the sentence names the value or its topic, as the event
    requires) and no other held fact of its family and kind is equally
    pointed at: with two pets, "the dog died" says nothing of which one.
    The turn must be at least ``LIVED_SIMILARITY`` close to the fact.
    """
    found: dict[object, tuple[Held, str, bool]] = {}
    for sentence in sentences:
        said = sentence.casefold()
        if temporary(sentence, event=True):
            continue
        asked = AskedQuestion.of(sentence)
        for event, where in events_in(sentence):
            before = sentence[: where.start()]
            said_self = _SELF.search(before) is not None
            speaker = not SOMEONE_ELSE.search(before) and (
                said_self or _DROPPED.fullmatch(before) is not None
            )
            # "Again" in "eating meat again" is the event, not a value still held.
            rest = said[: where.start()] + said[where.end() :]
            if STILL.search(rest):
                continue
            for fact in held:
                if fact.predicate not in event.ends or fact.predicate == "name":
                    continue
                named = names(fact.value, said)
                kind = fact.qualifiers.get("kind")
                lived = event.pointer == "speaker" and speaker
                # The speaker said as the event's subject ("jordan and i
                # called it off") names the predicates it ends by itself;
                # a dropped subject or a word pointing at the fact still
                # needs closeness ("so june isn't happening. jordan and i
                # called it off" scores -0.04 against an engagement).
                own = lived and said_self
                pointed = (
                    named
                    or lived
                    or (
                        event.pointer == "thing"
                        and asks_about(asked, fact.predicate)
                        and (kind is None or writes(kind, said))
                    )
                )
                if not own and (fact.similarity or 0.0) < LIVED_SIMILARITY:
                    continue
                if not pointed or about_someone_else(sentence, fact.predicate, fact.qualifiers):
                    continue
                found.setdefault(fact.id, (fact, sentence, named))
    out = []
    for fact, sentence, named in found.values():
        rivals = [
            other
            for other, _, other_named in found.values()
            if other.id != fact.id and other_named == named and _same_slot(other, fact)
        ]
        # A value named wins over an unnamed sibling; two alike say nothing.
        beaten = not named and any(
            n and _same_slot(f, fact) for f, _, n in found.values() if f.id != fact.id
        )
        if not rivals and not beaten and not unnamed_sibling(fact, named, held):
            out.append((fact, sentence))
    return sorted(out, key=lambda pair: str(pair[0].id))


def _same_slot(a: Held, b: Held) -> bool:
    kind = a.qualifiers.get("kind")
    return spec(a.predicate).identity_family == spec(b.predicate).identity_family and (
        kind is None or b.qualifiers.get("kind") in (None, kind)
    )


def unnamed_sibling(fact: Held, named: bool, held: Sequence[Held]) -> bool:
    """A fact not named, with another held fact of its slot: which one ended is not said."""
    return not named and any(f.id != fact.id and _same_slot(f, fact) for f in held)
