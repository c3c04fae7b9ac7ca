"""The verb of a dated life event, typed in a hurry, set right (pure).

"Startd learning Korean three months ago", "j'ai démnagé à Genève fin du
mois dernier", "g emménagé à Toulouse": a sentence that names a past moment
tells an event, and when no rule reads it, its verb is likely misspelt.
``respelled`` sets right a word in the verb's place (at the start of the
sentence or after its subject) that is within difflib's 0.85 of a verb of a
life event, and the French chat "g" for "j'ai"; the engine reads the
sentence once more. Real words that close to a verb ("stared", "stated",
"marred") are never set right. It runs only for a dated sentence that gave
nothing, so it costs nothing on the sentences the rules read.
"""

from __future__ import annotations

import difflib
import re

from ...text.memo import memo

_EVENT_VERBS = (
    "started", "moved", "joined", "adopted", "bought", "married", "switched", "enrolled",
    "relocated", "began", "learning", "rescued", "emménagé", "déménagé", "adopté", "acheté",
    "commencé", "rejoint", "épousé", "inscrit", "inscrite", "installé", "installée", "arrêté",
)  # fmt: skip
# Words within that ratio of a verb above that are words of their own.
_REAL = frozenset(
    ("stared", "stated", "starter", "starred", "moves", "mover", "movie", "ought", "marred",
     "marries", "witched", "learned", "leaning", "earning", "begun", "begin", "adopte",
     "achète", "rejoins", "installe", "inscrits", "arrête", "commence", "arrêtée")
)  # fmt: skip
# Where a verb stands: at the start, or after the speaker.
_VERB_PLACE = re.compile(
    r"(?:^|(?<=[,;]\s)|\b(?:I|we|j'ai|j’ai|on a|nous avons|je me suis|je suis|on s'est)\s+)"
    r"(?P<w>[^\W\d_]{4,})",
    re.IGNORECASE,
)
# The French chat "g" for "j'ai" before a past participle ("g emménagé").
_G = re.compile(r"(?:^|(?<=[,;]\s))g\s+(?=\w+[ée]\b)", re.IGNORECASE)


@memo
def _verb(low: str) -> str | None:
    """The verb of a life event ``low`` misspells, if any."""
    if low in _EVENT_VERBS or low in _REAL:
        return None
    close = difflib.get_close_matches(low, _EVENT_VERBS, n=1, cutoff=0.85)
    return close[0] if close else None


def respelled(sentence: str) -> str:
    """``sentence`` with the verb of a life event in it spelt right."""
    text = _G.sub("j'ai ", sentence)

    def fix(match: re.Match[str]) -> str:
        word = match.group("w")
        verb = _verb(word.lower())
        if verb is None:
            return match.group(0)
        return match.group(0)[: match.start("w") - match.start()] + verb

    return _VERB_PLACE.sub(fix, text)


# "im", "ive": the English first person typed without its apostrophe. Neither
# is a word of its own in English or French; "IM" (a message) keeps its case.
_BARE_CONTRACTION = re.compile(r"\b([iI])(m|ve)\b")


def apostrophes_restored(text: str) -> str:
    """``text`` with "im" and "ive" read as "I'm" and "I've"."""
    return _BARE_CONTRACTION.sub(lambda m: f"I'{m.group(2)}", text)
