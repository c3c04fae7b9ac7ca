"""Other people's words inside the subject's turn (pure).

"She said: I live in Madrid" and 'My boss told me "I'm leaving Acme"' hold a
first person that is not the subject. The rules read every "I" as the
subject, so reported speech is taken out before they read: a quoted span
that speaks in the first person, and what follows a verb of reporting and a
colon or comma, up to the end of the sentence, unless the subject is the
one reporting ("I said, …"). A quoted title ('my favourite show is "The
Office"') stays. A quote of the subject's own words goes too: a fact missed
is still in the episode chunks, a wrong one is served as truth.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r'"[^"\n]{1,400}"|“[^”\n]{1,400}”|«[^»\n]{1,400}»')
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|je|j'\w+|moi|mon|ma|mes)\b", re.IGNORECASE)
# The subject reporting themself ("I said, …", "What can I say, I love
# turtles") keeps their words.
_REPORTING = re.compile(
    r"(?<!\bI )(?<!\bje )"
    r"\b(?:said|says|wrote|writes|reads|asked|asks|replied|replies|answered|goes"
    r"|told (?:me|us|him|her|them|everyone)|tells (?:me|us|him|her|them|everyone)"
    r"|(?:was|is|were|are|'s) like"
    r"|a dit|dit|disait|écrit|m'a dit|nous a dit|répond|a répondu)\s*[:,]\s*[^.!?\n]*",
    re.IGNORECASE,
)


# The speaker reporting themself with an adverb between ("I never said, …",
# "j'ai déjà dit, …"): their own words, kept.
_BY_SPEAKER = re.compile(
    r"\b(?:I|je|j'ai|I've|I have)\s+(?:\w+ly\s+|never\s+|just\s+|already\s+|once\s+"
    r"|ever\s+|also\s+|even\s+|déjà\s+|jamais\s+|aussi\s+)*$",
    re.IGNORECASE,
)


def _reported(match: re.Match[str]) -> str:
    """A blank in place of other people's first-person words; the words themselves otherwise.

    A span in no first person ("sorry for slow replies, we had a baby",
    where "replies" is a noun) holds nothing the rules would take as the
    speaker's, and stays.
    """
    said = match.group(0)
    before = match.string[max(0, match.start() - 40) : match.start()]
    if _BY_SPEAKER.search(before) or not _FIRST_PERSON.search(
        re.split(r"[:,]", said, maxsplit=1)[-1]
    ):
        return said
    return " "


def without_reported_speech(text: str) -> str:
    """The turn with other people's first-person words taken out."""
    text = _QUOTED.sub(
        lambda m: " " if _FIRST_PERSON.search(m.group(0)[1:-1]) else m.group(0), text
    )
    return _REPORTING.sub(_reported, text)
