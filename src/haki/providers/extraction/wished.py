"""A wish wrapped around what the speaker states or asks, read as what it wraps (pure).

People soften what they tell and ask: "I'd love it if you remembered I'm
allergic to peanuts", "wish you'd keep in mind I'm a night shift nurse",
"would be nice if you knew I'm learning Japanese", "j'aimerais que tu
saches que je suis infirmière", "I'd really rather you didn't suggest
meat dishes". The frame's "if", "would" and "wish" are hedges to the
rules (``fragments.HEDGES``), which then read nothing; yet the frame
asserts what it wraps, as "keep in mind that …" or "sache que …" do
(``readings._LEAD_IN``), which the rules already read through.

``unframed`` reads the frame by its structure, never by topic:

- a **wish that the agent know** (a verb of knowing or remembering, in
  any of its forms, after a wish frame: "I'd love it if you remembered",
  "wish you'd keep in mind", "it'd be nice if you knew", "I'd like you to
  remember", "j'aimerais (bien) que tu saches / retiennes / gardes en
  tête", "ce serait bien que tu saches") is the statement it wraps, read
  as if said plainly;
- a **wish that the agent act** ("I'd love it if you'd …", "wish you'd
  …", "j'aimerais que tu …") is the order it wraps, whose own words
  decide whether it lasts (``wishes``);
- **"I'd rather you didn't …"** (and "I'd prefer it if you didn't …",
  "je préférerais que tu ne … pas") is a standing preference against the
  act: the order "don't …", which lasts.

A remark after the wish that states something of the speaker ("…, been
vegetarian for 6 years", "…, c'est ma passion") is a piece of its own,
read by the rules as any statement. What the frame wraps meets every
reader and the risk gate as if said without it: the frame adds no
reading the plain words would not get.
"""

from __future__ import annotations

import re

from .fragments import icase
from .wish_frames import STATEMENT

_YOU = r"(?:you|u)"
# The frame of a wish (English): a wish that things were so, said of the agent.
_WISH_EN = (
    r"(?:(?:I(?:'d| would) (?:really |so |just |honestly )?(?:love|like|appreciate|prefer) it"
    r"|(?:it(?:'d| would)|that(?:'d| would)|would|'?d) be (?:\w+ )?(?:nice|great|good|helpful|cool|awesome"
    r"|lovely|ideal|better|perfect|amazing|handy|useful)) if"
    r"|I (?:really |just |kinda |kind of )?wish|wish)"
)
_KNOW_EN = (
    r"(?:remember(?:ed)?|knew|know|(?:kept|keep|bore|bear|had|have) (?:it )?in mind|noted?|(?:were|was|be) aware"
    r"|realized?|realised?|took note|take note|made a note|make a note)"
)
_WISH_TO_EN = (
    r"I(?:'d| would) (?:really |so |just )?(?:like|love|want|need) " + _YOU + r" to"
    r"|I (?:want|need) " + _YOU + r" to"
)
# "I'd love it if you remembered X", "wish you'd keep in mind X", "I'd like you to know that X".
_KNOWING_EN = icase(
    rf"^(?:{_WISH_EN}\s+{_YOU}(?:'d| would| could)?|{_WISH_TO_EN})\s+(?:always |just )?{_KNOW_EN}"
    r"(?:,? that| of the fact that|:)?\s+(?P<x>\w.*)$"
)
_WISH_FR = (
    r"(?:j'aimerais|je voudrais|je souhaiterais|je souhaite|je veux|ce serait (?:\w+ )?(?:bien|top|super"
    r"|cool|génial|sympa|pratique|parfait|idéal|chouette))(?: bien| beaucoup| vraiment)?\s+(?:que|qu'|si)"
)
_KNOW_FR = (
    r"(?:saches|sachiez|savais|saviez|retiennes|reteniez|retenais|reteniez|te souviennes|vous souveniez"
    r"|te souvenais|vous souveniez|t'en souviennes|gardes en tête|gardiez en tête|gardais en tête"
    r"|aies en tête|ayez en tête|notes|notiez|notais|prennes en compte|preniez en compte)"
)
_KNOWING_FR = icase(
    rf"^{_WISH_FR}\s*(?:tu|vous)\s+{_KNOW_FR}(?: bien| toujours)?\s+(?:que|qu')\s*(?P<x>\w.*)$"
)
# "I'd really rather you didn't suggest meat dishes": a standing preference against the act.
_RATHER_NOT_EN = icase(
    rf"^I(?:'d| would) (?:really |much |honestly |just |so )?(?:rather|prefer(?: it)? if|prefer) {_YOU}"
    r" (?:didn't|did not|wouldn't|would not|don't|do not|never) (?P<x>[a-z].*)$"
)
_RATHER_NOT_FR = icase(
    r"^(?:je préférerais|je préfère|j'aimerais mieux|j'aimerais|je voudrais)(?: vraiment| bien)?"
    r" (?:que|qu') (?:tu|vous) (?:ne |n')(?P<pro>(?:me |m'|lui |leur |nous |les |le |la |l')?)"
    r"(?P<verb>[a-zàâçéèêëîïôûùœ]+)\s+(?:pas|plus|jamais)\b\s*(?P<rest>.*)$"
)
# "I'd love it if you'd keep …", "wish you'd stop …": the order, in its own words.
_ACTING_EN = icase(rf"^{_WISH_EN}\s+{_YOU}(?:'d| would| could)\s+(?!{_KNOW_EN}\b)(?P<x>[a-z].*)$")
# Where a remark of the speaker's own follows the wish: ", been vegetarian …", ", c'est …".
_REMARK = re.compile(r",\s+(?=\S)")


def _split_remark(text: str) -> list[str]:
    """``text`` cut before a trailing clause that states something, each part its own piece."""
    for mark in _REMARK.finditer(text):
        rest = text[mark.end() :]
        if STATEMENT.match(rest) and len(rest.split()) >= 2:
            return [text[: mark.start()], rest]
    return [text]


def unframed(piece: str) -> list[str]:
    """``piece`` without the wish frame around what it states or asks, or ``[piece]``.

    See the module doc. A statement keeps its own remarks (the rules read
    it as said); an order is cut from a remark that states, so each is read.
    """
    text = piece.strip()
    for pattern in (_KNOWING_EN, _KNOWING_FR):
        if (known := pattern.match(text)) is not None:
            # "remember to …" asks an act, not that something be known.
            said = known["x"]
            return _split_remark(said[3:]) if said.lower().startswith("to ") else [said]
    if (rather := _RATHER_NOT_EN.match(text)) is not None:
        order, *rest = _split_remark(rather["x"])
        return [f"From now on, don't {order}", *rest]
    if (rather := _RATHER_NOT_FR.match(text)) is not None:
        order, *rest = _split_remark(rather["rest"])
        head = f"Dorénavant, ne {rather['pro']}{_imperative_fr(rather['verb'])} pas"
        return [f"{head} {order}".strip(), *rest]
    if (acting := _ACTING_EN.match(text)) is not None:
        return _split_remark(acting["x"])
    return [piece]


def _imperative_fr(verb: str) -> str:
    """The imperative of a French subjunctive of "tu" ("proposes" → "propose")."""
    return verb[:-1] if verb.endswith("es") else verb
