"""A pet named in the sentence after the one that brought it in (pure).

People announce a pet, then name it: "Got a border collie puppy last
month!! His name is Scout.", "On a adopté un chaton. Il s'appelle Pixel."
The first sentence alone gives an unnamed pet (``pet: border collie``);
a next sentence that is only its name makes that pet the named one, as
the rules store a pet by its name and keep its kind beside it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .types import Candidate

_NAME_NEXT = re.compile(
    r"^(?:and )?(?i:(?:his|her|its) name(?:'s| is)|(?:he|she|it)(?:'s| is) (?:called|named)"
    r"|(?:il|elle) s'appelle|(?:son nom|son petit nom),? c'est|(?:(?:we|I) )?(?:named|called) (?:him|her|it)"
    r"|(?:on l'a|je l'ai|nous l'avons) (?:appelée?|nommée?))"
    r" (?P<name>[A-ZÀ-Ý][\w'-]+)\b"
)


def named_pet(sentence: str, previous: list[Candidate]) -> list[Candidate] | None:
    """``previous`` with its unnamed pet given the name ``sentence`` says, or ``None``.

    An unnamed pet is one stored by its kind (a lower-case value, read
    without a name); a sentence that names something else leaves it alone.
    """
    match = _NAME_NEXT.match(sentence.strip())
    if match is None:
        return None
    for i in range(len(previous) - 1, -1, -1):
        cand = previous[i]
        if cand.predicate == "pet" and not cand.retract and str(cand.value).islower():
            qualifiers = {**cand.qualifiers, "kind": str(cand.value)}
            named = replace(cand, value=match.group("name"), qualifiers=qualifiers)
            return [*previous[:i], named, *previous[i + 1 :]]
    return None
