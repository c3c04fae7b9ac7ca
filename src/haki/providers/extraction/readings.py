"""Other readings of one sentence, so that how a fact is framed never hides it (pure).

The rules read a statement in its plain shape ("I adopted a cat named
Miso"). People wrap the same statement in a time ("Two weeks ago I adopted
…", "j'ai commencé chez Decathlon le mois dernier"), a shared subject ("my
husband and I moved to Grenoble", "on a emménagé à Lille") or a lead-in
before a colon ("Change of plan: no meetings before 11am"). Each wrapper is
taken off to give one more reading of the sentence; the engine reads every
reading with the same rules and keeps what the first one did not find:

- **time**: every span ``when`` knows as a past moment is cut out (with the
  comma that set it apart) and handed back, so a fact read only once the
  date is gone still holds from that moment;
- **shared subject**: "we", "my X and I", "X and I", "nous avons", "on a",
  "mon copain et moi, on a" before a verb of a life event become the
  speaker ("I", "j'ai"), since the event happened to the speaker too;
- **colon**: the words after a colon, read as a sentence of their own.
"""

from __future__ import annotations

import re

from .when import past_span_all

# Life events a shared subject lived with the speaker; other verbs ("we use
# tabs") keep their subject, which the convention rules read as it stands.
_EVENT_VERBS_EN = (
    r"(?:just |recently |finally |officially )?(?:moved|relocated|adopted|rescued|bought|got|settled"
    r"|welcomed|brought home)\b"
)
_SHARED_EN = re.compile(
    rf"^(?:(?:we|my (?:\w+ ){{1,2}}and I|[A-Z]\w+ and I),? )(?=(?:'ve |have )?{_EVENT_VERBS_EN})",
    re.IGNORECASE,
)
_EVENT_VERBS_FR = r"(?:enfin |récemment )?(?:emménagé|déménagé|adopté|acheté|accueilli)\b"
_SHARED_FR = re.compile(
    rf"^(?:(?:mon|ma) \w+ et moi,? )?(?:nous avons|on a) (?={_EVENT_VERBS_FR})", re.IGNORECASE
)
# What is left around a cut-out span: a doubled comma or space, a comma at
# either end, the "que" of "ça fait trois mois que …".
# Runs of spaces are folded first: the patterns after it then meet at most
# one space at a time, so none of them backtracks over a long run.
_FOLD = (re.compile(r"\s{2,}"), " ")
_LEFTOVER = (
    _FOLD,
    (re.compile(r"\s?,\s?(?=,)|\s(?=[,.!?])"), ""),
    (re.compile(r"^\s?(?:,|que |qu')\s?", re.IGNORECASE), ""),
    _FOLD,
)


def without_time(sentence: str) -> tuple[str, str] | None:
    """The sentence with its past-moment spans cut out, and the first span; ``None`` without one."""
    spans = past_span_all(sentence)
    if not spans:
        return None
    pieces, last = [], 0
    for start, end in spans:
        pieces.append(sentence[last:start])
        last = end
    pieces.append(sentence[last:])
    text = "".join(pieces)
    for pattern, repl in _LEFTOVER:
        text = pattern.sub(repl, text)
    text = text.strip()
    first = sentence[spans[0][0] : spans[0][1]]
    return (text[:1].upper() + text[1:], first) if text else None


def first_person(sentence: str) -> str:
    """The sentence with a shared subject of a life event said as the speaker."""
    out = _SHARED_EN.sub("I ", sentence, count=1)
    return _SHARED_FR.sub("j'ai ", out, count=1)


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


def readings(sentence: str) -> list[tuple[str, str | None]]:
    """Other readings of ``sentence``, each with the past moment cut out of it (if any)."""
    out: list[tuple[str, str | None]] = []
    base, span = sentence, None
    cut = without_time(sentence)
    if cut is not None:
        base, span = cut
        out.append(cut)
    shared = first_person(base)
    if shared != base:
        out.append((shared, span))
    if ": " in base:
        tail = base.rsplit(": ", 1)[1].strip()
        if len(tail.split()) >= 2:
            out.append((tail[:1].upper() + tail[1:], span))
    out.extend((text, span) for text in listed_names(base))
    return [(text, when) for text, when in out if text != sentence]
