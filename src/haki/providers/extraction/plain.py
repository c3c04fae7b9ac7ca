"""A sentence nothing read, said plainly: without its chat filler (pure).

"so yeah i started working as a paralegal", "i only started playing the
cello", "honestly picked up knitting last year": the fact is there, but a
lead-in, an adverb between the subject and its verb, or a dropped "I"
keeps the anchored rules from reading it. ``plainer`` drops the lead-in
and the adverb, and gives the dropped subject back before a verb of a life
event; the engine reads the plain sentence only when the sentence itself
gave nothing. Hedges ("probably", "maybe", "almost", "never") are never
dropped: they change what is said. Cost: one more reading of a sentence
that gave nothing.
"""

from __future__ import annotations

import re

# Openings that carry no statement: "so yeah", "honestly", "ok so", "bon".
_LEAD_IN = re.compile(
    r"^(?:(?:so|yeah|ok|okay|well|anyway|honestly|lol|haha|btw|oh|and|bon|alors|bref|enfin|du coup)"
    r"\b[,!]?\s+)+",
    re.IGNORECASE,
)
# Adverbs between "I" and its verb that do not change the fact.
_ADVERB = re.compile(
    r"\b(I|i|je|j'ai)\s+(?:only|just|honestly|finally|actually|officially|really|literally|totally"
    r"|basically|recently|kinda|lowkey|already|enfin|finalement|vraiment|juste)\s+"
)
# A verb of a life event that opens a sentence has lost its "I" ("got" is
# not one: "got a headache" is no purchase).
_SUBJECTLESS = re.compile(
    r"^(?=(?:started|began|picked up|took up|joined|moved|adopted|bought|switched|enrolled)\b)",
    re.IGNORECASE,
)


def plainer(sentence: str) -> str | None:
    """``sentence`` without its filler, or None when it has none."""
    text = _LEAD_IN.sub("", sentence.strip())
    text = _ADVERB.sub(r"\1 ", text)
    text = _SUBJECTLESS.sub("I ", text)
    return text if text != sentence.strip() else None
