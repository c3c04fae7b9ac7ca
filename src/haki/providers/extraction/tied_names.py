"""A name tied to the noun it names, across clauses and sentences of one turn (pure).

People bring a being or a group in, then name it: "adopted a cat last
week!! her name is miso", "on a pris un chat hier, il s'appelle Pépito",
"My daughter was born two weeks ago!!! Her name is Aroha", "we started a
band, it's called Static Hum", "my cat biscuit keeps knocking stuff off".
The kind's fact then takes the name as its value: ``pet=Miso`` (its kind
kept beside it), ``daughter=Aroha``, ``member_of=Static Hum``.

``tied`` finds each naming frame of the turn ("her name is", "il
s'appelle", "it's called", "a band called", "named him") and the nearest
noun of a kind before it that belongs to the speaker: after a possessive
("my", "notre") or as the object of a first-person verb ("I adopted a
cat", "on a monté un groupe"). A fact of that kind read with the noun as
its value ("pet: cat") is renamed and keeps its date; without one, the
fact is made, dated by the noun's own clause ("was born two weeks ago").
A noun set in apposition after the speaker's ("notre chiot, un berger
australien, on l'a appelé Oslo") restates it: the name goes back to the
speaker's noun.

A name is read whatever its case only inside a naming frame, and a
lower-case one is a single word that ends its clause ("her name is miso
and…"); it is stored capitalised, as the rules store names (a lower-case
pet value is a kind, not a name). Beside its noun with no frame ("my cat
biscuit keeps…") a lower-case word is a name only before a verb and when
it is not one of the things a pet has ("my cat food is…"). The cost: a
naming frame about someone else's pet or group in the speaker's turn
("my neighbour's dog…" is skipped, "I saw a dog, his name was Rex" is not).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ...text.lexicon import STOP_WORDS, normalise
from .fragments import HEDGES
from .lexicon import BREED, PET_KINDS_EN, PET_KINDS_FR
from .patterns import RELATION_PREDICATES
from .types import Candidate
from .when import past_span

# Groups one belongs to and businesses one runs, named the same way.
_GROUPS = {
    **dict.fromkeys(("band", "choir", "club", "team", "groupe", "chorale", "équipe"), "member_of"),
    **dict.fromkeys(("company", "business", "startup", "boîte", "entreprise", "société"), "employer"),
}  # fmt: skip
_KINDS = {**RELATION_PREDICATES, **_GROUPS}
_NOUN = "|".join(
    sorted(
        {re.escape(k) for k in _KINDS} | {PET_KINDS_EN, PET_KINDS_FR, BREED}, key=len, reverse=True
    )
)
_PETS = re.compile(rf"(?:{PET_KINDS_EN}|{PET_KINDS_FR}|{BREED})", re.IGNORECASE)
# The speaker's own: "my/our/mon/ma/notre (first rescue) rabbit", or the
# object of a verb of getting or starting said by the speaker ("I adopted a
# cat", "Got a puppy", "on a monté un groupe"); "I saw a dog" is no one's.
_GOT_EN = (
    r"adopted|got|have|had|bought|rescued|brought home|welcomed|started|formed|founded|joined"
    r"|registered|set up|launched|picked up"
)
_GOT_FR = r"adopté|pris|eu|recueilli|ramené|acheté|monté|créé|fondé|lancé|rejoint|accueilli"
_OWN = re.compile(
    r"(?:\b(?:my|our|mon|ma|notre|mes|nos)"
    rf"|(?:(?:\bI|\bwe)(?:'ve| have)?\s+|^|[.!?]\s+)(?:[\w]+\s+){{0,2}}?(?:{_GOT_EN})\s+(?:a|an|my|our)"
    rf"|\b(?:on a|nous avons|j'ai|je viens d')\s+(?:\w+\s+)?(?:{_GOT_FR})\s+(?:un|une|mon|ma|notre))"
    # "my friend's dog" is the friend's: a noun said as an owner is none.
    rf"\s+(?:(?![\w'-]+'s\b)[\w'-]+\s+){{0,2}}?(?P<noun>{_NOUN})\b(?!['’]s\b)",
    re.IGNORECASE,
)
# Any noun of a kind: the one nearest a frame is the one it names.
_ANY = re.compile(rf"\b(?P<noun>{_NOUN})\b(?!['’]s\b)", re.IGNORECASE)
_CAP_NAME = r"[A-ZÀ-Ý][\w'’&-]+(?: (?:of |de |du |la |le )?[A-ZÀ-Ý][\w'’&-]+){0,3}"
_LOW_NAME = r"[a-zà-ÿ][\w'’-]{1,}"
_EMOJI = "\U0001f300-\U0001faff\u2600-\u27bf"
# A lower-case name ends its clause: "her name is miso and she…".
_LOW_END = rf"(?=\s*(?:[,.;:!?)…{_EMOJI}]|$|\s[-–—]\s)|\s+(?:and|et|but|mais|btw|lol|haha|so|donc|who|qui)\b)"
_FRAME = re.compile(
    r"\b(?:(?:his|her|its|their) name(?:'s| is| was)"
    r"|(?:he|she|it|they)(?:'s| is| are| was) (?:called|named)"
    r"|(?:that's|which is|who is|who's) (?:called|named)"
    r"|(?:named|called) (?:him|her|it|them)"
    r"|(?:il|elle|ça|ca|qui|cela) s'appell(?:e|ent)"
    r"|(?:on l'a|je l'ai|nous l'avons) (?:appel|nomm|baptis)ée?"
    r"|(?:son|leur) (?:petit )?(?:nom|prénom),? c'est"
    # Bare after the noun itself: "a band called X", "un chiot nommé X".
    rf"|(?<=\s)(?=(?:{_NOUN}) )[\w'-]+(?: [\w'-]+)? (?P<verb>called|named|nommée?|appelée?|prénommée?))"
    rf"\s+(?:(?P<cap>(?-i:{_CAP_NAME}))|(?P<low>(?-i:{_LOW_NAME})){_LOW_END})",
    re.IGNORECASE,
)
# Frames that name a thing ("it's called", "ça s'appelle"), and a noun
# phrase said between the kind and such a frame.
_THING = re.compile(r"(?:it|that|which|ça|ca|cela|qui)\b", re.IGNORECASE)
_OTHER_NOUN = re.compile(
    r"\b(?:a|an|the|my|our|this|that|un|une|le|la|les|mon|ma|notre|ce|cette)\s+[\w'-]{3,}",
    re.IGNORECASE,
)
# Beside the noun, no frame: "my cat biscuit keeps…", before a verb.
_APPOSED = re.compile(
    rf"\b(?:my|our)\s+(?P<noun>{PET_KINDS_EN})\s+(?P<low>(?-i:[a-z][a-z'-]{{2,}}))"
    r"\s+(?=(?:is|was|has|had|just|always|never|keeps|won't|can't|doesn't|didn't|[a-z]+s|[a-z]+ed)\b)",
    re.IGNORECASE,
)
# What a pet has or needs, said after its kind ("my cat food", "my dog walker").
_OF_A_PET = frozenset(
    ("food", "litter", "bowl", "bowls", "toy", "toys", "tree", "hair", "fur", "bed", "crate",
     "sitter", "walker", "flap", "door", "carrier", "vet", "insurance", "treats", "park", "leash",
     "collar", "box", "groomer", "trainer", "breeder", "allergy", "allergies", "owner", "people",
     "person", "lover", "years", "friend", "friends", "mom", "dad", "nap", "show", "kibble",
     "meds", "shots")
)  # fmt: skip
# What sets a noun in apposition after another: ", un berger australien".
_APPOSITION = re.compile(r"\s*,\s*(?:a|an|un|une)\s+(?:[\w'-]+\s+)?", re.IGNORECASE)
# How far back in the turn a naming frame looks for its noun.
_REACH = 240


def _name(match: re.Match[str]) -> str | None:
    name = match.groupdict().get("cap") or match.group("low")
    if normalise(name) in STOP_WORDS or name.lower() in _OF_A_PET:
        return None
    # A name is stored capitalised, as the rules store names.
    return name[:1].upper() + name[1:]


def _kind(noun: str) -> tuple[str, str]:
    """The predicate a noun's name fills, and the kind kept beside a pet's name."""
    low = noun.lower()
    if low in _KINDS:
        return _KINDS[low], low
    return "pet", low  # a breed or a pet kind the relation words do not list


def _renamed(out: list[Candidate], predicate: str, noun: str, name: str) -> list[Candidate] | None:
    """``out`` with its fact of ``noun``'s kind named ``name``; ``None`` when none holds the noun."""
    for i in range(len(out) - 1, -1, -1):
        cand = out[i]
        value = str(cand.value).lower()
        if cand.predicate != predicate or cand.retract:
            continue
        if value == name.lower():
            return out  # already read with its name
        if (
            value == noun
            or value.endswith(f" {noun}")
            or (predicate == "pet" and _PETS.fullmatch(value))
        ):
            qualifiers = (
                {**cand.qualifiers, "kind": value} if predicate == "pet" else cand.qualifiers
            )
            named = replace(cand, value=name, qualifiers=qualifiers)
            return [*out[:i], named, *out[i + 1 :]]
    return None


def _made(text: str, noun: re.Match[str], end: int, predicate: str, name: str) -> Candidate:
    """The fact a naming frame makes of a noun no rule read, dated by the noun's clause."""
    qualifiers: dict[str, Any] = {"kind": noun.group("noun").lower()} if predicate == "pet" else {}
    start = max(text.rfind(sep, 0, noun.start()) for sep in (".", "!", "?", "\n")) + 1
    return Candidate(
        predicate=predicate,
        value=name,
        qualifiers=qualifiers,
        volatility="stable" if predicate != "employer" and predicate != "member_of" else "slow",
        confidence=0.65,
        evidence_span=text[start:end].strip()[:300],
        said_when=past_span(text, noun.start("noun"), noun.end("noun")),
    )


def _named_noun(text: str, frame: re.Match[str], taken: int) -> re.Match[str] | None:
    """The speaker's noun a frame names: the nearest noun of a kind before it, if the speaker's."""
    at = frame.start("verb") if frame.group("verb") else frame.start()
    window = max(taken, frame.start() - _REACH)
    nouns = list(_ANY.finditer(text, window, at))
    if not nouns:
        return None
    span = nouns[-1].span("noun")
    if _THING.match(frame.group(0)) and _OTHER_NOUN.search(text, span[1], at):
        # "I joined a gym, it's called FitLab": a thing's name goes to the
        # thing said last, here one of no kind, not to the noun before it.
        return None
    own = {m.span("noun"): m for m in _OWN.finditer(text, window, at)}
    # "notre chiot, un berger australien, on l'a appelé Oslo": a noun set in
    # apposition after the speaker's own is the same being, so the name
    # goes back to the speaker's noun.
    i = len(nouns) - 1
    while nouns[i].span("noun") not in own and i > 0:
        if not _APPOSITION.fullmatch(text, nouns[i - 1].end("noun"), nouns[i].start("noun")):
            break
        i -= 1
    return own.get(nouns[i].span("noun"))


# "I hope to start my own company called Nimbus": a thing wished or planned
# does not exist yet, so its name names nothing the speaker has.
_INTENDED = re.compile(
    r"\b(?:hope|hoping|plan(?:ning)? to|want(?:s|ed)? to|wanna|gonna|going to|would like"
    r"|someday|one day|dream of|rêve de|aimerais|voudrais|veux|vais|compte)\b",
    re.IGNORECASE,
)


def _hedged(text: str, start: int, end: int) -> bool:
    """ "If my dog were called Rex": a name said of a hypothetical or a plan names nothing."""
    opening = max(text.rfind(sep, 0, start) for sep in (".", "!", "?", "\n")) + 1
    return (
        HEDGES.search(text, opening, end) is not None
        or _INTENDED.search(text, opening, end) is not None
    )


def tied(text: str, out: list[Candidate], speaker: str | None = None) -> list[Candidate]:
    """``out`` with each name of ``text`` given to the noun it names (module docstring)."""
    if not out and not _FRAME.search(text) and not _APPOSED.search(text):
        return out
    taken = 0  # a noun named once is not named again by a later frame
    for frame in sorted(
        [*_FRAME.finditer(text), *_APPOSED.finditer(text)], key=lambda m: m.start()
    ):
        name = _name(frame)
        if name is None:
            continue
        noun = frame if "noun" in frame.groupdict() else _named_noun(text, frame, taken)
        if noun is None or _hedged(text, noun.start(), frame.end()):
            continue
        taken = frame.end()
        predicate, kind = _kind(noun.group("noun"))
        renamed = _renamed(out, predicate, kind, name)
        if renamed is not None:
            out = renamed
            continue
        if any(c.predicate == predicate and not c.retract for c in out):
            continue  # the kind holds another name already read
        made = _made(text, noun, frame.end(), predicate, name)
        out = [
            *out,
            replace(made, qualifiers={**made.qualifiers, "speaker": speaker}) if speaker else made,
        ]
    return out
