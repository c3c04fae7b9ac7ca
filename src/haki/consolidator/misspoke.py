"""Words saying the speaker misspoke, and the held value they quote (pure).

The extractor's correction cues say something was wrong ("typo", "I was
wrong", "je me suis trompée"). People also say *how* they misspoke: they
swapped or mixed up what they said ("j'ai inversé les chiffres", "I mixed
up the names"), or they quote the held value as their own words ("why did
I say green tea", "jsais pas pourquoi j'ai dit thé vert", "I think I said
bass before?"). A quote points at the fact it names as surely as a
negation does: the doubt stage then replaces it with the value the turn
sets in its place, else holds it in doubt. Structure says it too: a
number said beside the held one with its digits swapped ("25 ans pas 52")
is a slip of the fingers, not a second age.

"Like I said, green tea" restates the value: a quote after "like", "as",
"comme" points at nothing; nor does a value added ("also", "aussi"), which
replaces none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .corrections import Held
from .takeback import names

MISSPEAK = re.compile(
    r"\b(?:mixed (?:it |them |those |that )?up|mix-up|swapped|transposed|inverted|fat[- ]finger\w*"
    r"|misspelt|misspelled|misread|confused|j['’]ai (?:inversé|mélangé|confondu)|inversé les"
    r"|je confonds|je mélange|faute de frappe|got (?:them|it|those) mixed up"
    # The French error cue as chat types it ("jme suis trompée").
    r"|j['’]?me suis (?:trompée?|gourée?|planté\w*))\b",
    re.IGNORECASE,
)
# The speaker quoting their own words: "did I say", "I said", "j'ai dit",
# "je t'ai dit", "I told you", "I wrote"; the quoted value within a few words.
_QUOTE = re.compile(
    r"(?<!like )(?<!as )(?<!comme )\b(?:i (?:think |guess )?(?:i )?(?:said|told you|wrote|put)"
    r"|did i (?:say|tell you|write|put)|j['’]ai (?:dit|écrit|mis)|je t['’]ai dit|je vous ai dit"
    r"|j['’]avais dit)\b(?P<rest>(?:\W+\w+){0,6})",
    re.IGNORECASE,
)


def misspoke(turn: str) -> bool:
    """Does the turn say the speaker swapped or mixed up what they said?"""
    return MISSPEAK.search(turn) is not None


def quoted(turn: str, held: Sequence[Held]) -> Held | None:
    """The one held fact whose value the speaker quotes as their own earlier words."""
    found = {
        fact.id: fact
        for match in _QUOTE.finditer(turn)
        for fact in held
        if fact.predicate != "name" and names(fact.value, match.group("rest").casefold())
    }
    return next(iter(found.values())) if len(found) == 1 else None


# The quote set against what follows: "I said Anna but my sister's name is
# Hanna", "j'ai dit Lyon mais en fait …", "I told you 29 but I'm 31".
_AGAINST = re.compile(r"[,;]?\s+(?:but|mais|though|actually|en fait|sauf que)\b", re.IGNORECASE)


def quote_against(turn: str) -> bool:
    """Does the speaker quote their own earlier words and set them against
    what follows ("I said Anna but …")? A turn worth reading against the held
    facts, with no other word of change."""
    return any(_AGAINST.search(m.group("rest")) for m in _QUOTE.finditer(turn))


def swapped(old: object, new: object) -> bool:
    """Is ``new`` ``old`` with its digits swapped (52 and 25, 1987 and 1978)?"""
    a, b = str(old).strip(), str(new).strip()
    if not (a.isdigit() and b.isdigit()) or len(a) != len(b) or a == b:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


# A turn that adds a value ("also", "another", "aussi") replaces none.
# "L'autre", the other one, points back at the held value ("l'autre
# c'était mon ancienne boîte"): it adds nothing.
_ADDED = re.compile(
    r"\b(?:also|too|as well|another|second|new one|aussi|également|(?<![lL]['’])autre|deuxième"
    r"|second)\b",
    re.IGNORECASE,
)


def adds_value(turn: str) -> bool:
    """Does the turn add a value beside the held one ("also", "aussi")?"""
    return _ADDED.search(turn) is not None
