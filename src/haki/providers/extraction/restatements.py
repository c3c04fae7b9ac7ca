"""A sentence said again without its frame: plainly, a name in apposition, after a colon (pure).

Three of the readings of ``readings``: "so yeah, finally moved to Oslo"
reads plainly as "I moved to Oslo" (opener, colouring adverb and unsaid
speaker); "I joined the union at work, Teamsters Local 2785" names what it
joined after a comma, and reads as "I joined Teamsters Local 2785"; "grosse
année : on a déménagé à Lyon" states its fact after a lead-in and a colon,
and reads as what follows.
"""

from __future__ import annotations

import re

# Adverbs that colour a statement without changing what it states ("we
# finally moved to Rotterdam", "I'm officially a team lead", "j'ai enfin
# trouvé un appart"). Hedges ("really", "kinda") and correction cues
# ("actually") stay: they change what the sentence says.
_COLOURING = re.compile(
    r"\b(?:finally|officially|eventually|basically|honestly|literally|totally|enfin|finalement"
    r"|officiellement|carrément)\b,?\s+(?=\w)",
    re.IGNORECASE,
)
# A statement whose speaker goes unsaid, as in a chat ("Went keto a couple of
# weeks ago", "Moved to Oslo last year", "switched careers last month"): a
# past verb opens it, irregular or regular ("-ed"), with no subject before.
# The rules still decide what the verb states; a past verb no rule reads
# ("Rained all day") gives a reading that reads nothing.
_UNSAID_SPEAKER = re.compile(
    r"^(?=(?:(?:just|finally|recently|also) )?(?:went|got|took|began|became|bought|joined|moved|started"
    r"|adopted|switched|relocated|signed|landed|quit|left|finished|graduated|sold|found|made|met|won"
    r"|(?!(?:need|feed|seed|speed|bleed|breed|weed|indeed|red|bed|shed|wed|led|fed|sled|ted"
    # A subjectless birthday is read by its own rule, which knows whose it is.
    r"|turned)\b)"
    r"[a-z]{2,}ed)\b)",
    re.IGNORECASE,
)
# "been living in Austin since 2022", "Been vegan for a year": the perfect
# with its speaker unsaid.
_UNSAID_PERFECT = re.compile(r"^(?:(?:just|also) )?(?=been\b)", re.IGNORECASE)


# Chat openers that carry nothing ("so yeah, we moved…", "ça y est, je suis…").
_OPENER = re.compile(
    r"^(?:(?:so|ok|okay) yeah|yeah so|ok so|okay so|so|yeah|well|anyway|oh and|ça y est|du coup|bref)"
    r"\b[,!]*\s+(?=\w)",
    re.IGNORECASE,
)


def plainly(sentence: str) -> str:
    """The sentence without its opener and colouring adverbs, its unsaid speaker said."""
    text = _COLOURING.sub("", _OPENER.sub("", sentence, count=1))
    if _UNSAID_SPEAKER.match(text):
        text = "I " + text[:1].lower() + text[1:]
    elif _UNSAID_PERFECT.match(text):
        text = "I've " + text[:1].lower() + text[1:]
    return text


# A noun phrase and, after a comma, its own name, closing the sentence or
# set apart by a second comma ("I joined the union at work, Teamsters Local
# 2785", "i joined a book club, the Ponsonby Readers, and i love it",
# "j'ai acheté une voiture électrique, une Renault Zoé"): the name stands
# for the phrase, with the article it was given ("une Renault Zoé"). The
# article is a word of its own: "theodore's place" and "lately" hold none.
_APPOSED = re.compile(
    r"\b(?:(?:the|a|an|la|le|un|une)\s+|l')(?![A-Z])"
    r"(?:(?!\b(?:my|your|his|her|our|their|mon|ma|mes|and|et|with|avec)\b)[^,;:]){2,50}?"
    r"(?P<rest>(?:\s+(?:last|this|earlier|yesterday|today|en|le mois|la semaine)\b[^,;:]{0,30})?),\s+"
    r"(?P<article>(?:the|a|an|la|le|un|une)\s+|l')?"
    r"(?P<name>[A-Z][\w'’&.-]*(?:\s+(?:[A-Z][\w'’&.-]*|\d+|of|de|du|des))*)"
    r"\s*(?P<tail>[.!]?$|,\s+\S.*$)"
)


def _apposition(text: str) -> re.Match[str] | None:
    found = _APPOSED.search(text)
    if found is None or found.group("name").split()[-1].lower() in ("of", "de", "du", "des"):
        return None
    return found


def apposed(text: str) -> tuple[str, str] | None:
    """The phrase of ``text`` a name in apposition stands for, and that name."""
    found = _apposition(text)
    if found is None:
        return None
    phrase = text[found.start() : found.start("rest")]
    return phrase, found.group("name")


def named_in_apposition(text: str) -> list[str]:
    """``text`` with the phrase its name in apposition stands for read as the name."""
    found = _apposition(text)
    if found is None:
        return []
    article = found.group("article") or ""
    # "the Ponsonby Readers": a definite article belongs to the name.
    article = article if article.strip().lower() in ("a", "an", "un", "une") else ""
    tail = found.group("tail")
    tail = tail if tail.startswith(",") else ""
    return [f"{text[: found.start()]}{article}{found.group('name')}{found.group('rest')}{tail}"]


def after_colon(text: str) -> list[str]:
    """The words after the last colon of ``text``, as a sentence of their own (if two or more)."""
    if ": " not in text:
        return []
    tail = text.rsplit(": ", 1)[1].strip()
    return [tail[:1].upper() + tail[1:]] if len(tail.split()) >= 2 else []
