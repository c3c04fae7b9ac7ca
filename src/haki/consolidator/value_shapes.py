"""The shape of a held value and the one new value of that shape a sentence gives (pure).

A correction that names no topic still says which value replaces which by
form: an e-mail address replaces an e-mail address, a phone number a phone
number, a small number (an age) a number, a time a time, a recurring day a
day, a capitalised name a name. ``shape`` tells the kind of a held value;
``replacement`` reads the one value of that kind a sentence gives besides
the held ones, none when there are two (nothing says which) or when the
sentence negates it or sets it in another topic ("I live in Paris" gives
no employer). ``corrections`` decides which held fact a sentence takes
back; this module only reads values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from ..providers.extraction.fragments import DAYS_EN, DAYS_FR, EMAIL, PHONE
from ..text.lexicon import STOP_WORDS, normalise
from ..text.topics import AskedQuestion, asks_about
from .denials import CALENDAR, as_time, denied, lead
from .identity import value_key

Shape = Literal["email", "phone", "number", "name", "time", "day"]

# Tried only where an address can start, so a long run of word
# characters is read once, not once a character.
_EMAIL = re.compile(rf"(?<![\w.+-]){EMAIL}")
_PHONE = re.compile(rf"(?<![\w.]){PHONE}(?!\w)")
_PHONE_VALUE = re.compile(rf"^{PHONE}$")
# A small number that is not a time, an amount or part of a longer figure.
_NUMBER = re.compile(
    r"(?<![\w.,:/+-])(?<!\bat )(?<!\bà )\d{1,3}(?![\w:/%€$£-]|[.,]\d|\s?(?:h\b|am\b|pm\b|heures?\b|o'clock))",
    re.IGNORECASE,
)
# A time of day: "9:30", "10am", "10 h", "18h30" (a schedule's value).
_TIME = r"\d{1,2}(?::\d{2}|\s?(?:am|pm)\b|\s?h(?:\d{2})?\b)"
_TIME_VALUE = re.compile(rf"^{_TIME}$", re.IGNORECASE)
_TIMES = re.compile(rf"(?<![\w:.,]){_TIME}", re.IGNORECASE)
_CAP_WORD = r"[A-ZÀ-Ý][\w'’&-]*"
_CAPS = re.compile(rf"(?<![\w'’@.-]){_CAP_WORD}(?:\s+{_CAP_WORD})*")
# An adverb that opens a sentence is capitalised by position, not a name:
# "Honestly, …", "Apparently …", "Franchement …" (names seldom end so).
_ADVERB = re.compile(r"^\w{4,}(?:ly|ment)$")
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
_CONTRACTION = re.compile(r"['’](?:re|ve|ll|m|d|s)$", re.IGNORECASE)
# Capitalised words that open or punctuate a correction rather than name a thing.
_INTERJECTIONS = frozenset(
    {
        "sorry", "oops", "whoops", "oups", "pardon", "wait", "actually", "update",
        "correction", "typo", "ok", "okay", "hey", "yes", "no", "non", "oui", "ah", "oh",
        "btw", "lol", "attends", "desole", "desolee", "erreur", "rectification", "scratch",
        "ignore", "forget", "turns", "au", "fait", "petite", "by", "way", "i", "im", "it's", "i'm", "i've", "i'd", "i'll",
        "c'est", "j'ai", "je", "il", "elle", "my", "mon", "ma", "mes", "new", "nouveau",
        "nouvelle", "mistake", "bad",
    }
)  # fmt: skip

# A recurring day, with its part of the day: a schedule's "Tuesday morning",
# "Wednesday evenings", "samedi", "lundi soir".
_DAY = (
    rf"(?:{DAYS_EN}|{DAYS_FR})s?"
    r"(?: (?:morning|afternoon|evening|night|matin|midi|après-midi|soir)s?)?"
)
_DAY_VALUE = re.compile(rf"^{_DAY}$", re.IGNORECASE)
_DAYS = re.compile(rf"(?<!\w){_DAY}(?!\w)", re.IGNORECASE)


def same_day(a: str, b: str) -> bool:
    """Two spellings of one recurring day ("Monday", "Mondays")."""
    return value_key(a).rstrip("s") == value_key(b).rstrip("s")


def names_a_day(text: str) -> bool:
    """Does the text name a day of the week ("Monday-Friday", "le mardi")?"""
    return _DAYS.search(text) is not None


def shape(value: Any) -> Shape | None:
    """What kind of value a fact holds, judged by its form alone."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return "number" if 0 <= value < 1000 else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if _EMAIL.fullmatch(text):
        return "email"
    if _PHONE_VALUE.match(text) and sum(ch.isdigit() for ch in text) >= 6:
        return "phone"
    if text.isdigit() and len(text) <= 3:
        return "number"
    if _TIME_VALUE.match(text):
        return "time"
    if _DAY_VALUE.match(text):
        # Before names: "Mondays" is replaced by another day, never by a name.
        return "day"
    words = text.split()
    if 1 <= len(words) <= 4 and all(w[:1].isupper() for w in words):
        return "name"
    return None


def plain(text: str) -> str:
    """The text casefolded and unaccented, with one apostrophe."""
    return normalise(text).replace("’", "'")


# Single-valued predicates sharing one slot: a job word may name an
# employer, a partner word a spouse.
_KIN = (
    frozenset({"occupation", "employer"}),
    frozenset({"partner", "spouse", "relationship_status"}),
)


def _other_topic(lead: str, predicate: str) -> bool:
    """The words leading up to a name ask about another predicate whose value is
    a name ("I live in Paris" gives a home, not an employer or a pet's name)."""
    asked = AskedQuestion.of(lead)
    if asks_about(asked, predicate):
        return False
    kin = next((k for k in _KIN if predicate in k), frozenset({predicate}))
    return any(other not in kin and asks_about(asked, other) for other in _NAMED_SLOTS)


# Single-valued predicates whose value is a name: a name led by one of their
# topic words ("live in", "work at", "married to") is theirs. Other shapes
# are left alone: "moved to 10:15" moves a meeting, not a home.
_NAMED_SLOTS = ("home_city", "hometown", "employer", "spouse", "partner", "mother", "father")


def _spans(sentence: str, kind: Shape) -> list[tuple[str, int, int]]:
    """The values of ``kind`` a sentence gives, each with where it stands."""
    if kind == "email":
        return [(m.group(0), *m.span()) for m in _EMAIL.finditer(sentence)]
    if kind == "phone":
        return [
            (m.group(0).strip(), *m.span())
            for m in _PHONE.finditer(sentence)
            if sum(ch.isdigit() for ch in m.group(0)) >= 6
        ]
    if kind == "time":
        return [(m.group(0), *m.span()) for m in _TIMES.finditer(sentence)]
    if kind == "day":
        return [(m.group(0), *m.span()) for m in _DAYS.finditer(sentence)]
    if kind == "number":
        # Phone numbers and addresses are no ages (blanked to keep offsets).
        bare = _PHONE.sub(lambda m: " " * len(m.group(0)), sentence)
        bare = _EMAIL.sub(lambda m: " " * len(m.group(0)), bare)
        return [(m.group(0), *m.span()) for m in _NUMBER.finditer(bare)]
    names = []
    for match in _CAPS.finditer(sentence):
        opens = not sentence[: match.start()].strip(" \"'([-–—")
        kept = [
            w
            for i, w in enumerate(match.group(0).split())
            if plain(w) not in _INTERJECTIONS
            and plain(w) not in STOP_WORDS
            # "We're", "They've": a pronoun's contraction names nothing.
            and plain(_CONTRACTION.sub("", w)) not in STOP_WORDS
            and not (opens and i == 0 and _ADVERB.search(w))
        ]
        if kept and not _POSSESSIVE.search(kept[-1]):
            start = match.start() + match.group(0).index(kept[0])
            names.append((" ".join(kept), start, match.end()))
    return names


def replacement(
    sentence: str, old: Any, held: Sequence[Any] = (), predicate: str | None = None
) -> str | int | None:
    """The one value of ``old``'s shape the sentence gives besides ``old`` and the held values.

    A day or a month replaces only a held day or month (a schedule's
    "Mondays"), never a name used as a time. A value the sentence negates
    or says has ended ("I don't live in Paris any more") replaces nothing.
    """
    kind = shape(old)
    if kind is None:
        return None
    known = {value_key(str(v)) for v in (old, *held)}
    # A word of a held name said alone ("Riverside got too big") is that name.
    parts = {w for k in known for w in k.split() if len(w) >= 5}
    dated = kind == "name" and CALENDAR.match(str(old).strip()) is not None
    found = {
        value_key(v): v
        for v, start, end in _spans(sentence, kind)
        if value_key(v) not in known
        and value_key(v) not in parts
        and not any(value_key(w) in known for w in v.split())
        and (dated or kind != "name" or not as_time(sentence, v, start))
        and not denied(sentence, start, end)
        and not (kind == "name" and predicate and _other_topic(lead(sentence, start), predicate))
    }
    if not found and kind == "name":
        # Chat in lower case names no one by capitals: "my son is theo not
        # leo". The word set right against the held name is the new one.
        word = set_against(sentence, str(old))
        if word is not None and value_key(word) not in known:
            return word[0].upper() + word[1:] if str(old)[:1].isupper() else word
    if len(found) != 1:
        return None
    (value,) = found.values()
    if kind == "number":
        number = int(value)
        return number if isinstance(old, int) else str(number)
    return value


_NOT = r"(?:not|pas|non|et non|non pas|instead of|rather than|plutôt que|au lieu de)"
_CONTENT = r"[^\W\d_][\w'’-]{2,}"


def set_against(sentence: str, old: str) -> str | None:
    """The one word a sentence sets against a held one-word name: "theo not
    leo", "theo, pas leo", "not leo but theo", "pas leo, theo" (pure).

    Only a word of three letters or more that is no stop word, right beside
    the negated name; anything longer between the two says nothing of which
    word replaces which.
    """
    if " " in old.strip() or len(old.strip()) < 2:
        return None
    name = re.escape(plain(old.strip()))
    flat = plain(sentence)
    before = rf"(?<![\w'-])(?P<a>{_CONTENT}),?\s+{_NOT}\s+{name}(?![\w'-])"
    after = rf"(?<![\w'-]){_NOT}\s+{name},?\s+(?:but\s+|mais\s+)?(?P<b>{_CONTENT})(?![\w'-])"
    words = {
        m.group(g)
        for pattern, g in ((before, "a"), (after, "b"))
        for m in re.finditer(pattern, flat)
        if m.group(g) not in STOP_WORDS
        and m.group(g) not in _INTERJECTIONS
        and m.group(g) != plain(old.strip())
    }
    if len(words) != 1:
        return None
    (word,) = words
    # Back to the sentence's own spelling (accents kept).
    at = flat.find(word)
    return sentence[at : at + len(word)] if len(flat) == len(sentence) else word


def head(value: object) -> str | None:
    """The words a longer value opens with, up to its first stop word, without
    a leading year or count: "tabs" of "tabs for indentation", "korean" of
    "Korean for fun", "civic" of "2015 Civic", "course" of "course à pied".

    People name such a value by its head when they end it ("not tabs",
    "stopped korean", "sold the civic", "j'ai arrêté la course"). None when
    the value is one word, opens with a stop word (a whole sentence stored
    as a value) or its head is shorter than four letters.
    """
    words = str(value).casefold().split()
    while words and words[0].isdigit():
        words = words[1:]
    kept = []
    for word in words:
        if normalise(word) in STOP_WORDS:
            break
        kept.append(word)
    if len(kept) >= 3 and len(kept[0]) >= 5 and shape(value) == "name":
        # A name of three words or more is called by its first: "Riverside"
        # for "Riverside Running Club".
        kept = kept[:1]
    found = " ".join(kept)
    if not kept or len(found) < 4 or found == str(value).casefold().strip():
        return None
    return found


def denies_another(sentences: Sequence[str], old: Any) -> bool:
    """Some sentence denies a value of ``old``'s shape other than ``old``, and none
    denies ``old`` itself: "I don't live in Paris any more" said while Lisbon is
    held agrees with what is held rather than taking it back."""
    kind = shape(old)
    if kind is None:
        return False
    held = value_key(str(old))
    denied_keys = {
        value_key(v)
        for sentence in sentences
        for v, start, end in _spans(sentence, kind)
        if denied(sentence, start, end)
    }
    return bool(denied_keys) and held not in denied_keys
