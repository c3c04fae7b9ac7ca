"""What a correcting turn replaces, and with what, when no pattern read it (pure).

The extractor reads corrections it has patterns for; ``doubt`` catches the
turns that say something was wrong without a value it can read. Between
the two sit turns whose *shape* says it all: "oops I meant Miso, not
Mochi", "c'est Max, pas Rex", "not 34, 43", "wrong name for the dog: he's
Buddy". Two signals, neither a phrasing:

- **the old value identifies the fact**: a held value said right after a
  negation ("not Rex", "pas Rex", "instead of Rex", "plutôt que Rex") is
  the fact the sentence takes back, whatever the words around it;
- **the new value has the old one's shape**: an e-mail address replaces an
  e-mail address, a phone number a phone number, a number (an age) a
  number, a capitalised name a capitalised name. Exactly one such value in
  the sentence, besides the old one and every other held value, is the
  replacement; two or more, and nothing says which, so the fact is only
  put in doubt.

A sentence about someone else ("my brother is 38, not 40") corrects only
a fact of that someone: a possessive before a relation word that is not
the target's own topic keeps the sentence off the target.

When no value is named, ``doubt_plan.closest`` picks the target (value, topic,
meaning); this module then only looks for the replacement. The embedding
of the turn against the held facts (``SHAPE_SIMILARITY``) chooses among
same-shaped facts when the turn says something was wrong but names no
topic: "My mistake about where I work: it's Microsoft".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from uuid import UUID

from ..providers.extraction.fragments import RELATIONS_EN, RELATIONS_FR
from ..text.lexicon import STOP_WORDS
from ..text.topics import AskedQuestion, asks_about, relation_words
from .identity import value_key
from .life_events import ends_by_itself
from .value_shapes import head, plain, replacement

# A turn that says something was wrong, names no topic and no value, still
# points at the held fact of the replacement's shape whose sentence is at
# least this close to the turn (local MiniLM; turn = mean of its chunks,
# fact = question + sentence). On the training splits such turns scored
# 0.18-0.49 against the fact they corrected; a turn erring about something
# else ("sorry, I was wrong about the restaurant, it closes at 9") 0.05-0.15
# against the subject's facts. Below it the fact is put in doubt instead.
SHAPE_SIMILARITY = 0.3
# A sentence that itself says something was wrong ("I got that wrong,
# she's actually called Pumpkin", 0.26 against the cat's name) needs less:
# the error is said, only which fact it was is chosen by meaning.
ERROR_SHAPE_SIMILARITY = 0.25

_NEGATION = (
    r"(?:not|no longer|no more|never|pas|non pas|et non|plus|instead of|rather than"
    r"|plutôt que|au lieu de)"
)
# Articles only: "not in Lyon" or "not at Acme" says where the speaker is
# not (today), not which value was wrong.
# French partitives too: "c'est pas du piano que je joue".
_ARTICLES = r"(?:(?:the|a|an|my|le|la|les|un|une|mon|ma|du|de la|des)\s+|(?:l|de l|d)'\s*)*"
# A sentence bound to a moment speaks of that moment: "not 34 yet", "I'm
# not in Lyon this week".
_FOR_NOW = re.compile(
    r"\b(?:yet|today|tonight|this (?:week|weekend|morning|afternoon|evening|month)|right now|for now"
    r"|at the moment|aujourd'hui|ce soir|ce matin|cette semaine|ce week-end|pour l'instant|encore)\b",
    re.IGNORECASE,
)
# A moment or a trip, not a new state: "we're in Rome for the weekend",
# "je suis en vacances à Biarritz cette semaine".
_AWAY = re.compile(
    r"\b(?:for (?:the|a|this|next) (?:weekend|week|day|few days|night|holidays?|trip)|on (?:holiday|vacation|a trip|a business trip)"
    r"|visiting|en vacances|en voyage|en déplacement|pour (?:le|ce|quelques) (?:week-end|jours?|nuits?))\b",
    re.IGNORECASE,
)


# "Starting this week", "à partir de cette semaine": from then on, not then only.
_FROM_THEN = re.compile(
    r"\b(?:starting|from|as of|beginning|à partir de|dès)\s+(?:this|next|cette|ce|la semaine|le mois)\b[\w\s-]*?(?=[,.;!?]|$)",
    re.IGNORECASE,
)


def temporary(sentence: str, event: bool = False) -> bool:
    """The sentence speaks of a moment or a trip, not of what holds from now on.

    With ``event`` the sentence tells something that happened ("rufus passed
    away this morning", "i quit blue bottle today"): the moment dates the
    change rather than bounding a state, so only a trip makes it passing.
    """
    sentence = _FROM_THEN.sub("", sentence)
    if _AWAY.search(sentence) is not None:
        return True
    return not event and _FOR_NOW.search(sentence) is not None


def ends_status(sentence: str, predicate: str) -> bool:
    """The sentence says a status ended that a fact of ``predicate`` holds: a
    status that ends names no value, only the predicates it ends (retiring
    ends a job, a divorce a marriage; ``life_events``)."""
    return ends_by_itself(sentence, predicate)


# A possessive before a relation word: the sentence speaks of that person or pet.
_SOMEONE = re.compile(
    rf"\b(?:my|our|his|her|their|mon|ma|mes|notre|nos|son|sa|ses)\s+(?P<who>{RELATIONS_EN}|{RELATIONS_FR}"
    r"|neighbou?r|colleague|boss|coworker|cousin|aunt|uncle|grandma|grandpa|voisine?|collègue|patron"
    r"|cousine?|tante|oncle|mamie|papi)\b"
    # The owner starts where a word starts and is matched possessively: a
    # long hyphenated run ("AB-AB-…") is tried once, not once per letter.
    rf"|(?<![\w-])(?P<owner>(?-i:[A-ZÀ-Ý])[\w-]++)['’]s\s+(?:{RELATIONS_EN})\b",
    re.IGNORECASE,
)
# A value stated by a copula right before it ("it's Max", "I'm 43", "c'est
# Max", "he's called Buddy"): the sentence says what the thing *is*. Without
# a correction cue only such a value replaces the one named after the
# negation; "I'm flying to Paris, not Berlin", "we need 5 chairs, not 34"
# or "tell Max, not Rex, to sit" say nothing of a held fact.
_COPULA = (
    r"(?:\bis|\bare|\bwas|\bam|['’]s|['’]m|['’]re|\bc['’]est|\best|\bsuis|\bsont"
    r"|\bcalled|\bnamed|\bappelle|\bappelée?|\bnommée?)"
)


def named_after_negation(sentence: str, value: Any) -> bool:
    """The sentence says the held value right after a negation: "…, not Rex", "pas 29".

    A possessive after it ("not Rex's fault") speaks of the value, not against it.
    """
    text = str(value).strip()
    if len(text) < 2 and not text.isdigit():
        return False
    if _FOR_NOW.search(sentence):
        return False
    flat = plain(sentence)
    # A longer value is also named by its head: "not tabs" for "tabs for indentation".
    said = "|".join(re.escape(plain(t)) for t in (text, head(value)) if t)
    pattern = rf"(?:(?<![\w']){_NEGATION}|(?<=\w)n't)\s+{_ARTICLES}(?:{said})(?![\w'-])"
    for match in re.finditer(pattern, flat):
        # French "plus" negates only after "ne"/"n'" ("je ne suis plus
        # vegan"); alone it adds ("Lyon plus Paris").
        if match.group(0).startswith("plus") and not _NE.search(flat[: match.start()]):
            continue
        return True
    return False


_NE = re.compile(r"\bn(?:e\s|['’])")


def stated_by_copula(sentence: str, value: Any) -> bool:
    """The sentence says ``value`` is what the thing is: after a copula ("it's
    Max", "I'm 43", "I'm at EY now", "c'est Max") or as a clause of its own
    set against the old one ("I typed it wrong: Lana, not Luna")."""
    said = re.escape(plain(str(value)))
    copula = rf"{_COPULA}\s+(?:(?:at|in|with|for|chez|à|au|en)\s+)?{_ARTICLES}{said}(?![\w'-])"
    alone = rf"[:;]\s*{said}\s*,?\s+(?:not|pas|non)\b"
    flat = plain(sentence)
    return re.search(copula, flat) is not None or re.search(alone, flat) is not None


# The speaker negates something of themselves: "I'm not allergic … after
# all", "I don't eat meat", "je ne suis plus …". Without a correction cue,
# only such a sentence puts the held fact it names in doubt.
_SELF_NEGATED = re.compile(
    r"\b(?:i['’]m (?:not|no longer)|i am (?:not|no longer)|i (?:don['’]t|do not|no longer|never)"
    r"|je (?:ne|n['’])|j['’](?:ai|suis) plus)\b",
    re.IGNORECASE,
)


def self_negated(sentence: str) -> bool:
    return _SELF_NEGATED.search(sentence) is not None


def about_someone_else(sentence: str, predicate: str, qualifiers: dict[str, Any]) -> bool:
    """The sentence speaks of a person or pet whose facts the target is not.

    "My brother is 38, not 40" keeps the speaker's age; "my sister is Hanna,
    not Anna" or "the dog's name is Max, not Rex" still reach a sister or a dog.
    """
    kind = plain(str(qualifiers.get("kind", "")))
    someones = _someones(sentence)
    # The target's own relation named ("my son is theo not leo, leo is his
    # best friend"): the others named around it are not what is corrected.
    own = any(who is not None and _own_word(who, predicate) for who in someones)
    for who in someones:
        if who is None and not own:
            return True
        if who is not None and not own and not (kind and who[:3] == kind[:3]):
            return True
    if predicate in _BEINGS:
        # "My trainer is called Marco", "our vet is Dr Lee": the name stated is
        # the trainer's or the vet's, not the partner's or the pet's.
        for match in _OWNED.finditer(sentence):
            who = plain(match.group("who"))
            if who in STOP_WORDS or who in _SELF_NOUNS or (kind and who[:3] == kind[:3]):
                continue
            if not _own_word(who, predicate):
                return True
    return False


def _own_word(who: str, predicate: str) -> bool:
    """The relation word names the target's own relation: a topic word of the
    predicate, or the predicate itself ("my son" for ``son``: the French
    "son", a possessive, is a stop word and no topic word)."""
    return who == predicate or asks_about(AskedQuestion.of(who), predicate)


# The predicates whose value is a person or an animal.
_BEINGS = frozenset(relation_words().values())
# A possessive, a noun and a copula or a name: the value stated is that noun's.
_OWNED = re.compile(
    r"\b(?:my|our|his|her|their|mon|ma|mes|notre|nos|son|sa|ses)\s+(?P<who>[^\W\d_]{3,})"
    r"(?:['’]s\s+name)?\s+(?:is|was|['’]s|est|s['’]appelle)\b",
    re.IGNORECASE,
)
# Nouns that stand for the thing itself, not for its owner: "her name is Friday".
_SELF_NOUNS = frozenset({"name", "names", "nom", "prenom", "surname", "nickname", "surnom"})


@lru_cache(maxsize=256)
def _someones(sentence: str) -> tuple[str | None, ...]:
    """The relation words a sentence puts a possessive before (None: a named
    owner, "Ana's sister"); read once per sentence, not once per held fact."""
    return tuple(
        None if m.group("owner") else plain(m.group("who")) for m in _SOMEONE.finditer(sentence)
    )


@dataclass(frozen=True, slots=True)
class Held:
    """An active fact of the subject, as a correcting turn is compared with it."""

    id: UUID
    predicate: str
    value: Any
    qualifiers: dict[str, Any]
    similarity: float | None
    # The turn's closeness to the sentence the fact was read from (``said_close``).
    said: float | None = None
    # The rules read the fact again in the turn (it is among its sources):
    # the turn may replace it with a value it gives, never doubt or end it.
    restated: bool = False


@dataclass(frozen=True, slots=True)
class Replacement:
    """The held fact a turn takes back, the value it gives instead, and the sentence that says so."""

    target: Held
    value: Any
    sentence: str


def by_old_value(sentences: Sequence[str], held: Sequence[Held]) -> tuple[Held, str] | None:
    """The one held fact whose value a sentence says right after a negation."""
    found = [
        (fact, sentence)
        for sentence in sentences
        for fact in held
        if fact.predicate != "name"
        and named_after_negation(sentence, fact.value)
        and not about_someone_else(sentence, fact.predicate, fact.qualifiers)
    ]
    ids = {fact.id for fact, _ in found}
    return found[0] if len(ids) == 1 else None


def by_shape(
    sentences: Sequence[str], held: Sequence[Held], floor: float = SHAPE_SIMILARITY
) -> Replacement | None:
    """The closest held fact (``floor``) of a shape some sentence gives one new value of."""
    best: tuple[float, str, Replacement] | None = None
    values = [f.value for f in held]
    for fact in held:
        sim = fact.similarity
        if sim is None or sim < floor or fact.predicate == "name":
            continue
        for sentence in sentences:
            if about_someone_else(sentence, fact.predicate, fact.qualifiers):
                continue
            new = replacement(sentence, fact.value, values, fact.predicate)
            if new is not None:
                key = (sim, str(fact.id))
                if best is None or key > best[:2]:
                    best = (*key, Replacement(fact, new, sentence))
    return best[2] if best else None


def replace_in(sentences: Sequence[str], target: Held, held: Sequence[Held]) -> Replacement | None:
    """The value the first sentence that gives one offers in place of ``target``'s."""
    values = [f.value for f in held]
    for sentence in sentences:
        if about_someone_else(sentence, target.predicate, target.qualifiers):
            continue
        new = replacement(sentence, target.value, values)
        if new is not None:
            return Replacement(target, new, sentence)
    return None


def in_turn(sentences: Sequence[str], target: Held, held: Sequence[Held]) -> object | None:
    """The one value of ``target``'s shape the turn's statements give, none if
    they give two: "i accepted the offer from Stripe. last day at shopify was
    friday" ends Shopify in one sentence and names Stripe in the other. A
    value set in another topic ("I live in Paris") is not the target's."""
    found = {
        value_key(str(new)): new
        for sentence in sentences
        if not about_someone_else(sentence, target.predicate, target.qualifiers)
        for new in [replacement(sentence, target.value, [f.value for f in held], target.predicate)]
        if new is not None
    }
    return next(iter(found.values())) if len(found) == 1 else None
