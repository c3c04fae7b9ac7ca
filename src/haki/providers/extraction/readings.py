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
- **perfect of "be"**: "I've been vegan (since …)", "Been married to Tom
  (for five years now)" say a state that still holds, read as "I'm vegan",
  "I'm married to Tom"; "been to", "been in", "been there" (visits) and
  "been …ing" (which the rules read as they stand) are left alone; the
  clause may follow a comma ("but yes, I've been single since August");
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
_PERFECT_BE = re.compile(
    r"(?:^|(?<=, ))(?:I(?:'ve|’ve| have) )?been (?!(?:to|in|at|on|there|here|through|so|very|really)\b|\w+ing\b)",
    re.IGNORECASE,
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
    present = _PERFECT_BE.sub("I'm ", base, count=1)
    if present != base:
        out.append((present, span))
    if ": " in base:
        tail = base.rsplit(": ", 1)[1].strip()
        if len(tail.split()) >= 2:
            out.append((tail[:1].upper() + tail[1:], span))
    return [(text, when) for text, when in out if text != sentence]
