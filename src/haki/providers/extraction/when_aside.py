"""Clauses whose moment is said in another clause of the sentence (pure).

``when.past_span`` dates a fact by the moment of its own clause. Two
clauses name none, yet their sentence says when:

- a *naming* clause ("…, her name is Toffee", "il s'appelle Pépito",
  "it's called Lantern Works") names the thing the clause before it brought
  in, so it holds from that clause's moment ("got a rabbit on tuesday, her
  name is Toffee");
- a clause that *refers back* to the statement before ("I work at Google,
  been there for three years", "je bosse chez Thales, j'y suis depuis
  2021") says how long that statement has held;
- a *vague* past ("a while back", "some time ago", "il y a quelque temps")
  is often made precise in the aside that follows ("a while back — well,
  in june"): a moment that opens the next clause, after fillers only,
  dates the fact; one inside another statement ("…, I moved in june")
  does not.
"""

from __future__ import annotations

import re

_NAMING = re.compile(
    r"\s*(?:and |et )?(?:(?:his|her|its|their) name(?:'s| is| was)"
    r"|(?:he|she|it|they)(?:'s|'re| is| are| was) (?:called|named)"
    r"|(?:il|elle|ça|ca|c') ?s'appel(?:le|lent)|(?:il|elle) se nomme|son (?:nom|prénom) (?:c'est|est))\b",
    re.IGNORECASE,
)
_VAGUE = re.compile(
    r"\b(?:a (?:little |good )?while (?:back|ago)|some (?:time|weeks|months|years) (?:back|ago)"
    r"|not (?:that |so )?long ago|a bit ago|(?:il y a|ça fait|ca fait) (?:un moment|quelque temps"
    r"|un bail|longtemps)|y a (?:un moment|quelque temps))\b",
    re.IGNORECASE,
)
_BACK = re.compile(
    r"[\s,;:–—-]*(?:and |et )?(?:(?:I|we)(?:'ve| have) |i?ve )?(?:been (?:there|here|with them|at it"
    r"|doing (?:it|that|this))|had (?:it|him|her|them)|(?:j'y|on y|nous y) (?:suis|est|sommes|travaille"
    r"|bosse|vis|habite))\b",
    re.IGNORECASE,
)
# What may stand between a vague past and the moment that makes it precise.
_FILLERS = re.compile(
    r"[\s,;:(–—-]*(?:(?:well|actually|i mean|i think|like|maybe|i guess|or rather|more like|or so"
    r"|exactly|en fait|enfin|plutôt|genre|bon|je crois|je pense)\b[\s,;:–—-]*)*",
    re.IGNORECASE,
)


def names_before(sentence: str, opening: int) -> bool:
    """Does the clause opening at ``opening`` name the thing the clause before it told?"""
    return opening > 0 and _NAMING.match(sentence, opening) is not None


def vague_past(sentence: str, start: int, end: int) -> bool:
    """Does ``sentence[start:end]`` say the past only vaguely ("a while back")?"""
    return _VAGUE.search(sentence, start, end) is not None


def opens_aside(sentence: str, closing: int, moment: int) -> bool:
    """Is ``sentence[closing:moment]`` only the separators and fillers of an aside?"""
    return _FILLERS.fullmatch(sentence, closing, moment) is not None


def refers_back(sentence: str, closing: int) -> bool:
    """Does the clause from ``closing`` say, of the statement before it, how long it has held?"""
    return _BACK.match(sentence, closing) is not None
