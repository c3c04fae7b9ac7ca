"""A held fact's new value read by the held value's type (pure).

A correcting turn often gives the new value in a frame no rule reads:
"so pescatarian now i guess?", "dropped german… switched to italian",
"it's guitar", "it was tree nuts all along", "his full name is Eliot",
"switched to day shift this week!!! 8 to 4". What ties such a turn to
the held fact is the *type* of the held value, whatever its predicate:
a language (``learning: German for my job`` as much as ``language:
Spanish``), a diet, an instrument, an allergen, a code convention's
indentation or case of names, a time range, a person's name. The type says which phrase of the turn can stand in the old value's
place; the change cue says it does.

A value is read only when the turn carries a change cue (``_CUE``: switched
to, go back to, now, it's / c'est X, it was X, turns out, all along, I
meant, full name is …) and gives exactly **one** value of the type besides
the held ones, not negated, not said of someone else. A closed list's member
needs no other tie (membership is a shape, as an e-mail address is); a free
type (a range, a name) must be tied to the fact: a name by the held name
written in the turn, a range by the turn's closeness to the fact.
When the turn gives two values of the type, only those in clauses that
carry the cue count ("switched to italian because nonna does not speak
english").

Cost: a second value of the type said in passing beside a cue replaces the
held one ("I'm vegetarian, my partner's vegan now" is read as someone else's
and left; "we speak English now at work" against ``learning: Spanish``
replaces it). Two held facts of one type with one new value and nothing
saying which: nothing is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..providers.extraction.corrections import correction_cue
from ..providers.extraction.lexicon import INSTRUMENTS_EN, INSTRUMENTS_FR
from ..providers.extraction.vocabulary import DIETS, LANGUAGES
from ..text.topics import AskedQuestion, asks_about
from .corrections import Held, Replacement
from .denials import denied
from .identity import value_key
from .misspoke import adds_value, misspoke
from .predicates import spec
from .said_close import THIRD_PERSON
from .takeback import SOMEONE_ELSE, names
from .value_shapes import shape
from .vocab_switch import FROM_NOW_ON, SENTENCES, member_pattern, said_or_asked

# What allergy facts hold, both languages, kept as said (the extractor
# stores "arachides" as written): a nut named is not "nuts".
_ALLERGENS = (
    "peanuts", "peanut", "arachides", "cacahuètes", "tree nuts", "nuts", "fruits à coque", "noix",
    "cashews", "noix de cajou", "almonds", "amandes", "hazelnuts", "noisettes", "walnuts",
    "pistachios", "pistaches", "shellfish", "crustacés", "fruits de mer", "fish", "poisson",
    "gluten", "wheat", "blé", "lactose", "dairy", "milk", "lait", "eggs", "egg", "œufs", "oeufs",
    "soy", "soja", "sesame", "sésame", "mustard", "moutarde", "celery", "céleri", "penicillin",
    "pénicilline", "latex", "pollen", "bees", "abeilles", "wasps", "guêpes",
)  # fmt: skip
ALLERGENS = {w: w for w in _ALLERGENS}
# One allergen under its several names, so the held one said again in other
# words is not a second value ("arachides" held, "les cacahuètes ça passe").
_SAME = {
    **dict.fromkeys(("peanut", "arachides", "cacahuètes"), "peanuts"),
    **dict.fromkeys(("fruits à coque",), "tree nuts"),
    **dict.fromkeys(("crustacés", "fruits de mer"), "shellfish"),
    **dict.fromkeys(("egg", "œufs", "oeufs"), "eggs"),
    "noix de cajou": "cashews", "amandes": "almonds", "noisettes": "hazelnuts",
    "pistaches": "pistachios", "poisson": "fish", "blé": "wheat", "lait": "milk", "soja": "soy",
    "sésame": "sesame", "moutarde": "mustard", "céleri": "celery", "pénicilline": "penicillin",
    "abeilles": "bees", "guêpes": "wasps",
}  # fmt: skip


_SAME_KEYS = {value_key(said): value_key(one) for said, one in _SAME.items()}


def _key(value: object) -> str:
    key = value_key(str(value))
    return _SAME_KEYS.get(key, key)


_INSTRUMENTS = {w: w for w in (*INSTRUMENTS_EN, *INSTRUMENTS_FR)}
# A team's code conventions: indentation and the case of names, kept as said.
_INDENTS = (
    "tabs", "tab", "tabulations", "tabulation", "spaces", "espaces", "2 spaces", "4 spaces",
    "two spaces", "four spaces", "2 espaces", "4 espaces", "deux espaces", "quatre espaces",
)  # fmt: skip
_CASES = (
    "camelcase", "camel case", "snake_case", "snake case", "pascalcase", "pascal case",
    "kebab-case", "kebab case", "screaming_snake_case",
)  # fmt: skip

# Closed lists: a held value of one (by its leading words) is of that type.
_LISTS: dict[str, dict[str, str]] = {
    "language": LANGUAGES,
    "diet": DIETS,
    "instrument": _INSTRUMENTS,
    "allergen": ALLERGENS,
    "indentation": {w: w for w in _INDENTS},
    "case": {w: w for w in _CASES},
}


_MEMBERS = {kind: member_pattern(words) for kind, words in _LISTS.items()}
# Lists the extractor stores as written ("camelCase", "arachides"); the
# others it stores in one form ("French" for "français").
_AS_SAID = frozenset({"instrument", "allergen", "indentation", "case"})
_LEAD = re.compile(r"^\W*(?:(?:the|a|an|le|la|les|du|de la|des|un|une)\s+|(?:l|d)['’])?")

# A time range: "10pm-6am", "8 to 4", "de 8h à 16h", "9h-17h".
_CLOCK = r"\d{1,2}(?::\d{2}|h\d{0,2})?\s?(?:am|pm)?"
_RANGE = re.compile(
    rf"(?<![\w:.])(?P<a>{_CLOCK})\s*(?:-|–|to|till|until|à|a|jusqu['’]à)\s*(?P<b>{_CLOCK})(?![\w:])",
    re.IGNORECASE,
)
_HOUR = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s?(am|pm)?$", re.IGNORECASE)

# A name given by a frame that names: "his full name is Eliot", "elle s'appelle Léa".
_NAMING = re.compile(
    r"\b(?:(?:full|real|actual|proper|legal)\s+)?name\s+is|\bcalled|\bnamed|\bs['’]appelle|\bit['’]?s"
    r"|\bc['’]est",
    re.IGNORECASE,
)
# An adverb may stand between the frame and the name ("his name is actually Eliot").
_NAME = re.compile(
    r"\s+(?:(?:actually|really|in fact|en fait|vraiment)\s+)?(?P<v>[A-ZÀ-Ý][\w'’-]+)"
)

# Words saying the value named beside them is the one that holds now or
# always did. Matched per clause.
_CUE = re.compile(
    r"\b(?:switch(?:ed|ing)?(?:\s+\w+)?\s+to|go(?:ing)?\s+back\s+to|back\s+to"
    r"|mov(?:e|ed|es|ing)\s+(?:on\s+|over\s+)?to|scratch\s+(?:that|what)"
    r"|now|these days|nowadays|from now on|it['’]?s|it is|it was|c['’]est|c['’]était"
    r"|turns?\s+out|turned\s+out|all\s+along|actually|in\s+fact|i\s+meant|full\s+name|real\s+name"
    r"|en\s+fait|finalement|maintenant|désormais|dorénavant|je\s+voulais\s+dire"
    r"|repass\w*|pass[ée]e?s?\s+(?:à|au|aux)|plutôt)\b",
    re.IGNORECASE,
)
# Clauses: a value is read in the clause its cue stands in.
_CLAUSES = re.compile(
    r"[,;:.!?()\n]+|\s[-–—]\s|\b(?:because|since|but|parce que|car|mais|puisque|whereas)\b",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d")


def _member(kind: str, text: str) -> str | None:
    """The list member ``text`` opens with (the held value's type), in its stored form."""
    found = _MEMBERS[kind].match(text, _LEAD.match(text).end())  # type: ignore[union-attr]
    return _LISTS[kind][found.group(0).casefold()] if found else None


def value_type(value: object) -> str | None:
    """The held value's type: a closed list it opens with, a time range, a name."""
    text = str(value).strip()
    for kind in _LISTS:
        if _member(kind, text) is not None:
            return kind
    if _RANGE.fullmatch(text):
        return "range"
    return "name" if shape(value) == "name" else None


def _hour(text: str) -> tuple[int, str, str | None] | None:
    match = _HOUR.match(text.strip().replace("h", ":") if "h" in text else text.strip())
    if match is None:
        return None
    return int(match.group(1)), match.group(2) or "", (match.group(3) or "").lower() or None


def range_value(a: str, b: str) -> str:
    """A range as stored ("10pm-6am"): a 12-hour range said without am/pm that
    ends before it starts crosses noon ("8 to 4" is 8am-4pm)."""
    start, end = _hour(a), _hour(b)
    if start is None or end is None:
        return f"{a.strip()}-{b.strip()}"
    (h1, m1, p1), (h2, m2, p2) = start, end
    if p1 is None and p2 is None and h2 < h1 <= 12:
        p1, p2 = "am", "pm"
    elif p1 is None and p2 is not None:
        p1 = p2
    one = f"{h1}{':' + m1 if m1 else ''}{p1 or ''}"
    two = f"{h2}{':' + m2 if m2 else ''}{p2 or ''}"
    return f"{one}-{two}"


def _found(kind: str, clause: str) -> list[tuple[str, int, int]]:
    """The values of ``kind`` a clause gives, stored form first, with where each stands."""
    if kind in _LISTS:
        words = _LISTS[kind]
        return [
            (m.group(0) if kind in _AS_SAID else words[m.group(0).casefold()], *m.span())
            for m in _MEMBERS[kind].finditer(clause)
        ]
    if kind == "range":
        return [
            (range_value(m.group("a"), m.group("b")), *m.span())
            for m in _RANGE.finditer(clause)
            if _DIGIT.search(m.group("b"))
        ]
    out = []
    for frame in _NAMING.finditer(clause):
        name = _NAME.match(clause, frame.end())
        if name is not None:
            out.append((name.group("v"), *name.span("v")))
    return out


def _clauses(sentences: Sequence[str]) -> list[str]:
    return [c.strip() for s in sentences for c in _CLAUSES.split(s) if c and c.strip()]


# A thing pointed at ("this recipe is vegan now", "that meeting is 2 to 3
# now", "answer this one in German"): its value, not the speaker's.
# A time ("these days", "this week", "cette année") points at no thing.
_POINTED = re.compile(
    r"\b(?:this|that|these|those|ce|cet|cette|ces)\b(?!\s+(?:days?|weeks?|months?|years?|morning"
    r"|evening|time|semaine|mois|année|an|matin|soir|fois)\b)",
    re.IGNORECASE,
)


def _others(clause: str) -> bool:
    """Is the clause of someone else or of a thing pointed at?"""
    pointed = _POINTED.search(clause) is not None and not FROM_NOW_ON.search(clause)
    return bool(SOMEONE_ELSE.search(clause.casefold()) or THIRD_PERSON.search(clause) or pointed)


# A copula cues only the value it sets: "it's guitar", "c'est le rooibos",
# not "it's much easier when I took French".
_COPULA = re.compile(r"^(?:it['’]?s|it is|it was|c['’]est|c['’]était)$", re.IGNORECASE)
_BOUND_WORDS = 2


def _cued_at(clause: str, start: int) -> bool:
    """Does a cue in the clause speak of the value at ``start``?"""
    for m in _CUE.finditer(clause):
        if not _COPULA.match(m.group(0)):
            return True
        if m.end() <= start and len(clause[m.end() : start].split()) <= _BOUND_WORDS:
            return True
    return False


def _values(kind: str, clauses: Sequence[str], known: set[str], switch: bool) -> set[str]:
    """The new values of ``kind`` the clauses give: those a cue speaks of, or,
    in a turn that says a switch, any one (only the cued ones when several)."""
    said: dict[str, bool] = {}
    for clause in clauses:
        # A name is the third person's by nature ("his full name is Eliot").
        if kind != "name" and _others(clause):
            continue
        for value, start, end in _found(kind, clause):
            if _key(value) in known or denied(clause, start, end):
                continue
            said[value] = said.get(value, False) or _cued_at(clause, start)
    if not switch or len(said) > 1:
        said = {v: c for v, c in said.items() if c}
    return set(said)


# Cues that only say what holds now, not that it replaced something.
_ONLY_NOW = re.compile(
    r"^(?:now|these days|nowadays|from now on|it['’]?s|it is|it was|c['’]est|c['’]était|actually"
    r"|maintenant"
    r"|désormais|dorénavant|plutôt)$",
    re.IGNORECASE,
)


def _switch_said(clauses: Sequence[str]) -> bool:
    """Does a clause say a value replaced another (a cue beyond "now", "it's"), or
    that something said was wrong?"""
    return any(not _ONLY_NOW.match(m.group(0)) for c in clauses for m in _CUE.finditer(c)) or any(
        correction_cue(c) or misspoke(c) for c in clauses
    )


def _tied(fact: Held, kind: str, turn: str, floor: float) -> bool:
    """Is a free type's fact tied to the turn: a name written, a range close or its topic named?"""
    if kind == "name":
        return names(fact.value, turn.casefold())
    return (fact.similarity is None or fact.similarity >= floor) or asks_about(
        AskedQuestion.of(turn), fact.predicate
    )


def typed(
    sentences: Sequence[str], held: Sequence[Held], floor: float = 0.25
) -> Replacement | None:
    """The held fact the sentences give one new value of its type for, beside a change cue.

    ``floor`` is the closeness a range's fact needs to the turn when nothing
    names it (``doubt_plan.TOPIC_SIMILARITY``).
    """
    clauses = _clauses(sentences)
    if not any(_CUE.search(c) for c in clauses):
        return None
    turn = " ".join(sentences)
    switch = _switch_said(clauses)
    known = {_key(f.value) for f in held}
    found: dict[tuple[str, str], Replacement] = {}
    for fact in held:
        kind = value_type(fact.value)
        if kind is None or fact.predicate == "name":
            continue
        if kind in ("range", "name") and not _tied(fact, kind, turn, floor):
            continue
        old = _member(kind, str(fact.value)) if kind in _LISTS else str(fact.value)
        if spec(fact.predicate).cardinality == "many" and (
            not (switch or names(old, turn.casefold())) or adds_value(turn)
        ):
            # A new instrument "now" sits beside the old one: only a switch
            # said, or the held value named, replaces a value of many.
            continue
        new = _values(kind, clauses, known | {_key(old)}, switch)
        if len(new) != 1:
            continue
        value = new.pop()
        sentence = next((s for s in sentences if value.casefold() in s.casefold()), turn)
        # A held value restated twice ("bass", "bass in a cover band") is one fact.
        found.setdefault((fact.predicate, value_key(str(old))), Replacement(fact, value, sentence))
    return next(iter(found.values())) if len(found) == 1 else None


def restating(target: Held, held: Sequence[Held]) -> list[Held]:
    """The other held facts of the target's predicate that restate its value
    ("bass" beside "bass in a cover band"): they go with it."""
    kind = value_type(target.value)
    old = _member(kind, str(target.value)) if kind in _LISTS else None
    key = value_key(str(old if old is not None else target.value))
    return [
        f
        for f in held
        if f.id != target.id
        and f.predicate == target.predicate
        and (
            key == value_key(str(f.value))
            or (kind in _LISTS and value_key(str(_member(kind, str(f.value)))) == key)
        )
    ]


# A question opens on a question word or an auxiliary; "so pescatarian now
# i guess?" is a statement said unsure, and says the change as well.
_ASKS = re.compile(
    r"^\W*(?:\w+\W+)?(?:what|which|who|where|when|why|how|do|does|did|is|are|was|were|can|could"
    r"|would|will|should|have|has|est-ce|quel\w*|qui|où|quand|comment|pourquoi|combien)\b",
    re.IGNORECASE,
)


def stated(turn: str) -> list[str]:
    """The turn's statements, requests (``vocab_switch.said_or_asked``) and
    statements said unsure."""
    asked = set(said_or_asked(turn))
    parts = [s.strip() for s in SENTENCES.split(turn) if s.strip()]
    return [s for s in parts if s in asked or not _ASKS.search(s)]


def may_type(turn: str) -> bool:
    """Is the turn worth reading for a typed value: a cue beside a typed phrase?"""
    return _CUE.search(turn) is not None and (
        any(p.search(turn) for p in _MEMBERS.values())
        or _RANGE.search(turn) is not None
        or _NAMING.search(turn) is not None
    )
