"""The doubt stage's reading of a turn (pure): which held fact it takes back, and with what.

The extractor reads corrections it has patterns for ("…, not Rex", "I'm
not a nurse any more") and identity resolution supersedes or retracts the
fact. People also correct themselves in words no pattern lists: "sorry,
the email I gave you is wrong", "we changed our indentation rules", "en
fait je ne bois plus de thé". Such a turn must not leave the old fact
served as current. This module reads the turn against the held facts and
decides; ``doubt`` fetches them, reads the values the turn stated and
writes the outcome. For every turn of the subject that corrected nothing
through identity resolution, each sentence that carries a correction cue
(``corrections.cued_sentences``) is read on its own:

- an **error cue** says something said was wrong or has ended ("wrong",
  "misspoke", "no longer", "ne … plus");
- a **change cue** only says something changed ("we changed", "broke up",
  "instead of", "en fait … maintenant").

A fact is **about** such a sentence when the sentence names its value
("Tom" for ``partner = Tom``, "thé" for ``prefers = thé``; most words of a
longer value); or holds a topic word of its predicate (``text.topics``:
"email" for an ``email`` fact). Beside a change cue either needs the turn's
embedding at least ``TOPIC_SIMILARITY`` from the fact's, as does a topic
beside an error cue. With no shared word, only an error cue and a
similarity of ``MEANING_SIMILARITY`` will do. A cue in one sentence never
reaches a fact named in another: chat is full of "changes", "instead" and
"I'll never forget" that correct nothing.

Structure says more than phrasing, so the readings share a few general
signals: a longer value is named by its head ("not tabs", "stopped
korean"; ``value_shapes.head``); the old value as the object of an ending
verb needs little closeness (``takeback.ends_object``); a short sentence
saying something was wrong reaches the next one said in the past
(``cued_in``); the speaker's own relation word outweighs others named
beside it; a lower-case name set right against the held one replaces it
(``value_shapes.set_against``).

A turn whose fact identity resolution did correct is still read for the
life events it tells (``read_lived``): "Julien et moi on s'est quittés, je
suis célibataire" replaces the status and ends the partner.

The closest such fact, held since before the turn and from another event,
is put in a ``doubt`` conflict set: the context assembler holds it back and
the packet warns that a fact is withheld pending resolution, which the
rendered block says in words ("a later statement may have corrected
them"). Resolving the set (``POST /v1/conflicts/{id}/resolve``) settles it
either way.

One fact per turn at most, and only facts of the same subject: a doubt that
lands on the wrong fact hides it until someone looks, which is the price of
never serving a corrected fact as current.

Thresholds (local MiniLM; turn embedding = mean of its chunks, fact
embedding = question + sentence, ``fact_text``): a correction turn and the
fact it is about scored 0.41–0.63 on the cases this was tuned on
(tests/integration/test_memory_truth_block.py, ``bench/doubt.py`` dev
split), the best unrelated fact up to 0.48 ("Oops, wrong number" against an
age); the meaning-only path sits above that. ``bench/doubt.py`` counts the
LoCoMo facts held back by mistake.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from uuid import UUID

from ..providers.extraction.corrections import correction_cue, cued_sentences, new_state
from ..providers.extraction.render import extraction_text, utterances
from ..providers.extraction.types import SUBJECT_ROLES, EventRow
from ..text.asked_tail import statement_before_question
from ..text.topics import AskedQuestion, asks_about, names_value, value_terms
from .computed import computed
from .corrections import (
    ERROR_SHAPE_SIMILARITY,
    Held,
    Replacement,
    by_old_value,
    by_shape,
    ends_status,
    replace_in,
    stated_by_copula,
    temporary,
)
from .life_events import tells_an_end
from .misspoke import misspoke, quote_against, quoted, swapped
from .renamed import renamed
from .restate import (
    by_context,
    restated,
    restated_slot,
    siblings,
)
from .said_change import changed, respelled_fact, says_change
from .said_close import said_close
from .takeback import SOMEONE_ELSE, names, status_ended, takeback_cue, taken_back
from .thing_ended import thing_ended
from .typed_value import stated, typed
from .value_shapes import denies_another, replacement
from .vocab_switch import said_or_asked, switched

TOPIC_SIMILARITY = 0.25
MEANING_SIMILARITY = 0.6


def subject_words(event: EventRow) -> tuple[str, frozenset[str | None]]:
    """What the subject said in the event (user turns), as the extractor reads it, and who spoke.

    A named speaker's turn can only put their own facts in doubt (facts
    qualified with that ``speaker``); an unnamed user's, only facts without one.
    """
    said = [u for u in utterances(event.payload) if u.role in SUBJECT_ROLES]
    text = extraction_text("\n".join(u.text for u in said)) if said else ""
    return text, frozenset(u.speaker or None for u in said)


def _names(asked: AskedQuestion, said: str, value: object) -> bool:
    """The sentence names the value: as written ("thé" is a stop word once
    unaccented), or by its words, most of them for a value of three or more."""
    if names(value, said):
        return True
    found = value_terms(value)
    if len(found) <= 2:
        return names_value(asked, value)
    return 2 * len(found & asked.stems) >= len(found)


# Who a change speaks of: the subject ("I", "we", "je", "moi", "on") …
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|we|we're|we've|je|moi|nous|on)(?!\w)|\bj'", re.IGNORECASE
)


# A sentence this short that says something was wrong announces the
# correction; what it corrects follows, said in the past or negated
# ("scratch that, it's snake_case. camelCase was the old JS codebase";
# "sorry, english is fine actually. spanish was just for my practice
# week"). "Sorry, I was late. My dog Max got sick." corrects nothing.
_ANNOUNCE_WORDS = 6
_BYGONE = re.compile(
    r"\b(?:was|were|used to|c'était|c’était|était|étaient|not|pas|plus)\b|n't\b", re.IGNORECASE
)


def _cued(turn: str) -> list[tuple[str, int]]:
    """The turn's cued sentences (``cued_sentences``), and those that tell a
    slip (``misspoke``: "j'ai inversé", "jme suis trompée") as saying something was wrong."""
    cued = cued_sentences(turn)
    told = [(s, 2) for s in statements(turn) if misspoke(s) and s not in dict(cued)]
    return [*cued, *told]


def cued_in(turn: str) -> list[tuple[str, int]]:
    """The turn's cued sentences (``_cued``), and the statement right
    after a short one that says something was wrong, with its strength."""
    cued = _cued(turn)
    said = statements(turn)
    out = []
    for sentence, strength in cued:
        out.append((sentence, strength))
        short = len(sentence.split()) <= _ANNOUNCE_WORDS
        if strength == 2 and short and sentence in said:
            after = said[said.index(sentence) + 1 : said.index(sentence) + 2]
            out.extend((s, 2) for s in after if s not in dict(cued) and _BYGONE.search(s))
    return out


# A change word beside the held value named and one new value of its shape
# ("I switched to the Eastside Striders, Riverside got too big", 0.16
# against ``member_of: Riverside Running Club``) says by structure which fact
# changed: meaning only has to rule out another topic altogether.
NAMED_CHANGE_SIMILARITY = 0.15


def _swapped(said: str, value: object, values: Sequence[object]) -> bool:
    """The sentence gives one new value of the held value's shape."""
    return replacement(said, value, values) is not None


def closest(turn: str, rows: Iterable[tuple[UUID, str, object, float | None]]) -> UUID | None:
    """The fact a correcting turn is about (pure): its value or topic named in a
    sentence with a correction cue, or very close by meaning to a turn that
    says something was wrong."""
    # A change said of someone else ("my sister lives in Bordeaux now",
    # "ma mère habite à Marseille maintenant") changes nothing of the subject's.
    cued = [
        (AskedQuestion.of(s), s, strength)
        for s, strength in cued_in(turn)
        if strength == 2 or not (temporary(s) or SOMEONE_ELSE.search(s.casefold()))
    ]
    erring = any(strength == 2 for _, _, strength in cued)
    rows = list(rows)
    values = [value for _, _, value, _ in rows]
    best: tuple[float, str, UUID] | None = None
    for fact_id, predicate, value, similarity in rows:
        sim = similarity if similarity is not None else 0.0
        close = similarity is None or sim >= TOPIC_SIMILARITY
        named = predicate != "name" and any(
            (
                strength == 2
                or close
                or (sim >= NAMED_CHANGE_SIMILARITY and _swapped(said, value, values))
            )
            and _names(asked, said.casefold(), value)
            for asked, said, strength in cued
        )
        # A topic word beside words saying something was wrong needs no
        # closeness: French turns score low against the facts' sentences
        # ("je me suis trompée pour le chat" 0.23 against the cat's name).
        topical = any(
            (strength == 2 or close) and asks_about(asked, predicate) for asked, _, strength in cued
        ) or any(ends_status(said, predicate) for _, said, _ in cued if _FIRST_PERSON.search(said))
        if named or topical or (erring and sim >= MEANING_SIMILARITY):
            # Its value named first, then its topic, then the closest; the id breaks ties.
            key = (sim + (2.0 if named else 1.0 if topical else 0.0), str(fact_id), fact_id)
            if best is None or key[:2] > best[:2]:
                best = key
    return best[2] if best else None


# A turn may take back a held value by naming it after a negation
# (``corrections.by_old_value``): only then is it compared with the held
# facts without a correction cue.
_NEGATED = re.compile(
    r"\b(?:not|no longer|no more|never|pas|non|plus|instead of|rather than|plutôt que|au lieu de)\b|n't\b",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


# A correction split over a question: the held value echoed alone as a
# question, then denied ("Caramel ? Non, il s'appelle Chocolat", "Rex? No,
# it's Max"). The echo is what the next sentence takes back.
_ECHO = re.compile(
    r"^\W*(?!(?:what|which|who|where|when|why|how|really|sorry|quoi|quel\w*|qui|où|quand"
    r"|comment|pourquoi|pardon|vraiment)\b)"
    r"(?P<echo>[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){0,2})\s*\?+$",
    re.IGNORECASE,
)
_DENIAL_OPENS = re.compile(r"^\W*(?:no|non|nope|nah)\b", re.IGNORECASE)


def statements(turn: str) -> list[str]:
    """The sentences of a turn that state something (questions take nothing
    back, but an echo denied by the next sentence is said there: "Caramel ?
    Non, il s'appelle Chocolat" states "…, pas Caramel")."""
    parts = [s.strip() for s in _SENTENCES.split(turn) if s.strip()]
    out = []
    for i, part in enumerate(parts):
        # A statement typed into the question that follows it is stated.
        sentence = statement_before_question(part)
        if sentence is None:
            continue
        echo = _ECHO.match(parts[i - 1]) if i > 0 else None
        if echo is not None and _DENIAL_OPENS.match(sentence):
            sentence = f"{sentence.rstrip('.!')}, not {echo.group('echo')}"
        out.append(sentence)
    return out


def plan(turn: str, held: Sequence[Held]) -> tuple[Held | None, Replacement | None]:
    """The held fact a turn takes back, and its replacement when the turn gives one (pure).

    A value named after a negation picks the fact; else ``closest``. A
    replacement is read from the sentence that names the old value that
    way, or from a cued sentence ("we moved to Cork", "oops, he's Buddy");
    by meaning alone, only beside words saying something was wrong.
    """
    said = statements(turn)
    named = by_old_value(said, held)
    has_cue = correction_cue(turn) or misspoke(turn)
    if named is not None:
        fact, sentence = named
        # "It's Max. Not Rex.": the new value may stand just before.
        before = said[max(said.index(sentence) - 1, 0) : said.index(sentence)]
        found = replace_in([sentence, *before], fact, held)
        if (
            found is not None
            and not has_cue
            and not stated_by_copula(found.sentence, found.value)
            and not swapped(fact.value, found.value)
        ):
            # No word says something was wrong, nothing says the new value
            # is what the thing is ("flying to Paris, not Berlin"), and it is
            # no slip of the fingers ("25 ans pas 52").
            found = None
        return fact, found
    if not has_cue:
        found = restated(said, held)
        return (found.target, found) if found else (None, None)
    # A moment or a trip ("in Rome for the weekend") changes nothing held.
    cued = [(s, strength) for s, strength in _cued(turn) if strength == 2 or not temporary(s)]
    if not cued:
        return None, None
    target_id = closest(turn, [(f.id, f.predicate, f.value, f.similarity) for f in held])
    if target_id is None:
        # No value or topic named: the closest fact by meaning that the
        # sentence gives exactly one new value of the same shape for.
        found = by_shape([s for s, _ in cued], held) or by_shape(
            [s for s, strength in cued if strength == 2], held, ERROR_SHAPE_SIMILARITY
        )
        if found is None:
            return None, None
        return found.target, None if siblings(found.target, held) else found
    target = next(f for f in held if f.id == target_id)
    if siblings(target, held):
        # Two dogs, two sisters: a topic does not say whose name was wrong.
        return target, None
    found = replace_in([s for s, _ in cued], target, held)
    if found is None and denies_another([s for s, _ in cued], target.value):
        # "I don't live in Paris any more" while Lisbon is held: the turn
        # denies another value of the topic, which is no doubt on this one.
        return None, None
    return target, found


def says_wrong(turn: str, held: Sequence[Held]) -> bool:
    """Does the turn say something said was wrong: a correction cue, a slip
    told (``misspoke``), a held value quoted as the speaker's own words?"""
    return correction_cue(turn) or misspoke(turn) or quoted(turn, held) is not None


def may_take_back(turn: str) -> bool:
    """Is the turn worth reading against the held facts: a correction cue, a
    slip told, a negation, a from-now-on word, a word saying something ended
    or the speaker's own earlier words set against what follows?"""
    return bool(
        correction_cue(turn)
        or misspoke(turn)
        or _NEGATED.search(turn)
        or new_state(turn)
        or takeback_cue(turn)
        or tells_an_end(turn)
        or says_change(turn)
        or quote_against(turn)
    )


@dataclass(frozen=True, slots=True)
class Reading:
    """What one turn does to the subject's held facts, at most one of them.

    ``target`` is the fact the turn takes back and ``found`` its replacement
    read in the turn (``plan``); ``slot`` a fact a from-now-on sentence
    speaks of with no value to read (``restated_slot``); ``ended`` a held
    value written beside words saying it ended, with that sentence
    (``takeback.taken_back``); ``changed`` a fact a statement says changed
    with no value to read (``said_change.changed``); ``close`` a fact a
    change is said of by meaning alone, with that sentence (``said_close``); ``lived`` the facts whose state a life
    event the turn tells has ended (``takeback.status_ended``). The stage
    looks up the values the turn stated before choosing between replacing,
    ending and doubting.
    """

    target: Held | None = None
    found: Replacement | None = None
    slot: Held | None = None
    ended: tuple[Held, str] | None = None
    lived: tuple[tuple[Held, str], ...] = ()
    changed: Held | None = None
    close: tuple[Held, str] | None = None


def read_turn(turn: str, held: Sequence[Held]) -> Reading:
    """The held fact a turn takes back, by the first reading that finds one (pure).

    In order: a replacement ``plan`` reads; a held name respelt
    (``said_change.respelled_fact``); the facts a life event the turn
    tells has ended (``takeback.status_ended``); a routine named with a new
    day (``by_context``); the fact ``plan`` points at without a value (put
    in doubt by the stage); a change said of one fact in other words
    (``said_change.changed``); a from-now-on sentence's fact
    (``restated_slot``), without a correction cue; a held value written
    beside words saying it ended (``takeback.taken_back``); with a cue that
    pointed at nothing, the from-now-on sentence's fact (doubted from a
    lower closeness by the stage).
    """
    target, found = plan(turn, held)
    if found is not None:
        return Reading(target=target, found=found)
    # A held name respelt ("not jake, jack", "mathis* pas mathieu") replaces it.
    # The user's own name framed anew ("everyone calls me Katie") or
    # respelt beside a cue ("It's John with an h, sorry").
    found = respelled_fact(statements(turn), held) or renamed(statements(turn), held)
    if found is not None:
        return Reading(target=found.target, found=found)
    # A life event told ends its facts outright, rather than leaving the
    # one a cue points at in doubt or a "now" reading another one.
    lived = tuple(status_ended(statements(turn), held))
    if lived and (target is None or any(f.id == target.id for f, _ in lived)):
        # The ended fact's new value of its type, said beside the event
        # ("started eating fish again, so pescatarian now"), replaces it.
        found = typed(stated(turn), held, TOPIC_SIMILARITY) if len(lived) == 1 else None
        if found is not None and found.target.id == lived[0][0].id:
            return Reading(target=found.target, found=found)
        return Reading(lived=lived)
    # A routine's activity named with its new day says which fact the cue
    # points at better than the value or topic it names ("yoga moved to
    # Thursday mornings" is about the yoga schedule, not the hobby).
    found = by_context(statements(turn), held)
    if found is not None:
        return Reading(target=found.target, found=found)
    # The one new value of the held value's type beside a change cue ("so
    # pescatarian now", "switched to italian", "it's guitar"), for the fact
    # a cue pointed at or, with none, any held fact of that type.
    found = typed(stated(turn), held, TOPIC_SIMILARITY)
    if found is not None and (target is None or found.target.id == target.id):
        return Reading(target=found.target, found=found)
    # A held age the turn says to move ("it was my birthday, add a year").
    found = computed(statements(turn), held)
    if found is not None and (target is None or found.target.id == target.id):
        return Reading(target=found.target, found=found)
    if target is not None:
        return Reading(target=target)
    # The speaker quoting a held value as their own slip ("jsais pas
    # pourquoi j'ai dit thé vert"): replaced by the phrase set in its place, else doubted.
    said_before = quoted(turn, held)
    if said_before is not None and not siblings(said_before, held):
        return Reading(target=said_before)
    # A change said of one fact in words no reading above takes.
    said = changed(statements(turn), held)
    if isinstance(said, Replacement):
        return Reading(target=said.target, found=said)
    if said is not None:
        return Reading(changed=said)
    if not correction_cue(turn):
        slot = restated_slot(statements(turn), held)
        # Two held prefs of one family: "now" does not say which one changed.
        if slot is not None and not siblings(slot, held):
            return Reading(slot=slot)
    named = taken_back(statements(turn), held)
    if named is not None and not siblings(named[0], held):
        return Reading(ended=named)
    # The thing a value is of parted with ("sold the car", "résilié ma ligne").
    named = thing_ended(statements(turn), held, TOPIC_SIMILARITY)
    if named is not None and not siblings(named[0], held):
        return Reading(ended=named)
    if correction_cue(turn):
        # A cue that pointed at nothing above, beside a from-now-on sentence
        # ("j'ai changé d'équipe, je suis de jour maintenant, 6h-14h"): the
        # sentence's closest fact, which the stage doubts at a lower
        # closeness than "now" alone (``RESTATE_CUED_DOUBT_SIMILARITY``).
        slot = restated_slot(statements(turn), held)
        if slot is not None and not siblings(slot, held):
            return Reading(slot=slot)
    # A held member of a closed vocabulary switched to another ("go back to
    # answering in English"), then, with no word tying the turn to a fact,
    # a change said close by meaning to the sentence a fact was read from.
    found = switched(said_or_asked(turn), held)
    if found is not None:
        return Reading(target=found.target, found=found)
    # A turn that asks ("is my dog Rex or Max? I forget what I told you")
    # is unsure of what it said, not correcting it: meaning alone is not enough.
    if any(s.strip().endswith("?") for s in _SENTENCES.split(turn)):
        return Reading()
    return Reading(close=said_close(statements(turn), held))


def read_respelling(turn: str, held: Sequence[Held]) -> Reading:
    """Only a held name the turn respells, the user's name framed anew, a
    held member of a closed vocabulary it switches, or a value of the held
    value's type beside a change cue (pure): for a turn with no other word
    of change."""
    found = (
        respelled_fact(statements(turn), held)
        or renamed(statements(turn), held)
        or switched(said_or_asked(turn), held)
        or typed(stated(turn), held, TOPIC_SIMILARITY)
        or computed(statements(turn), held)
    )
    return Reading(target=found.target, found=found) if found is not None else Reading()


def read_lived(turn: str, held: Sequence[Held]) -> Reading:
    """Only the facts a life event the turn tells has ended (pure): for a turn
    whose other facts identity resolution already corrected."""
    return Reading(lived=tuple(status_ended(statements(turn), held)))
