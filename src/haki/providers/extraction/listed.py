"""Names given after a count ("I have two cats, Salt and Pepper"), one reading each (pure).

``readings`` adds each name as a sentence of its own, which the naming
rules read as they stand.
"""

from __future__ import annotations

import re

# A count of pets or relatives followed by their names, "I have two cats,
# Salt and Pepper", "j'ai deux chats, Caramel et Vanille": each name reads
# as its own "my cat is called Salt". The names must be capitalised words
# joined by commas and one "and"/"et", ending the clause.
_COUNT = r"(?:a|one|two|three|four|five|un|une|deux|trois|quatre|cinq|\d)"
_LISTED = r"(?-i:[A-ZÀ-Ý][\w'-]+)"
_KINDS = {
    "cat": "cat",
    "cats": "cat",
    "dog": "dog",
    "dogs": "dog",
    "kitten": "kitten",
    "kittens": "kitten",
    "puppy": "puppy",
    "puppies": "puppy",
    "sister": "sister",
    "sisters": "sister",
    "brother": "brother",
    "brothers": "brother",
    "son": "son",
    "sons": "son",
    "daughter": "daughter",
    "daughters": "daughter",
    "chat": "chat",
    "chats": "chat",
    "chien": "chien",
    "chiens": "chien",
    "chatte": "chatte",
    "chattes": "chatte",
    "chienne": "chienne",
    "chiennes": "chienne",
    "sœur": "sœur",
    "sœurs": "sœur",
    "soeurs": "soeur",
    "frère": "frère",
    "frères": "frère",
    "fils": "fils",
    "fille": "fille",
    "filles": "fille",
}
_NAMES_LIST = re.compile(
    rf"\b(?P<who>I have|I've got|I got|we have|we've got|j'ai|on a|nous avons) {_COUNT} "
    rf"(?P<kind>{'|'.join(sorted(_KINDS, key=len, reverse=True))})\s*[,:(]?\s*"
    r"(?:(?:called|named|qui s'appellent|nommés?) )?"
    rf"(?P<names>{_LISTED}(?:\s*,\s*{_LISTED})*\s+(?:and|et|&)\s+{_LISTED})(?=\s*(?:[.,;!?)]|$))",
    re.IGNORECASE,
)


def listed_names(sentence: str) -> list[str]:
    """One "my <kind> is called <name>" sentence per name a counted list gives."""
    out: list[str] = []
    for match in _NAMES_LIST.finditer(sentence):
        kind = _KINDS[match.group("kind").lower()]
        french = match.group("who").lower() in ("j'ai", "on a", "nous avons")
        for name in re.split(r"\s*,\s*|\s+(?:and|et|&)\s+", match.group("names")):
            if french:
                article = "Ma" if kind in ("chatte", "chienne", "sœur", "soeur", "fille") else "Mon"
                out.append(f"{article} {kind} s'appelle {name}.")
            else:
                out.append(f"My {kind} is called {name}.")
    return out
