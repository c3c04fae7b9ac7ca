"""Which kind a wish about the agent's work takes: read from the mood of its clause (pure).

The same wish is said two ways. Asked of the agent — an imperative ("use
celsius", "réponds-moi en français", "tutoie-moi"), a request put to "you"
("could you answer in Spanish from now on?"), a verbless rule ("no meetings
before 10am", "pas de réunions avant 10h, merci") — it is an
``instruction``: something to do each time. Said of the speaker — "I prefer
metric units", "I like my reports in tables", "I'm on Pacific time" — it
is a ``preference`` or an ``attribute``: what the person likes or is, which
the agent may use. The rules that read units, reply language, forms of
address or schedules file their fact as a preference whatever the mood;
``by_mood`` turns it into an instruction when the clause it was read from
asks for it. Only predicates about how the agent acts or answers
(``REQUESTABLE``) change: "pas de viande" stays a diet, and "no meetings
before 10am, please" stays a ``schedule`` preference, whatever its mood:
what the person accepts in their own calendar is said of their own time,
and the agent respects it when it books, as it respects a diet when it
suggests a recipe.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .fragments import IMPERATIVES_EN, IMPERATIVES_FR, IMPERATIVES_FR_2SG, LASTING
from .types import Candidate
from .wishes import directive

REQUESTABLE = frozenset(
    {
        "units",
        "language",
        "reply_language",
        "address_form",
        # "Call me Sam" asks how to address the person each time; "I go by
        # Sam" says it of them and stays a preference.
        "preferred_name",
        "tone",
        "format",
        "reply_style",
        "timezone",
    }
)

# Words that only address the request, wherever they stand.
_POLITE = re.compile(
    r"\b(?:please|pls|plz|kindly|merci|stp|svp|s'il (?:te|vous) pla[iî]t)\b", re.IGNORECASE
)
# A request put to "you", or a lasting marker: the clause is said to the agent.
_ADDRESSED = re.compile(
    r"^(?:(?:hey|ok|okay|also|and|et|aussi|oh),?\s+)?(?:can|could|would|will) you\b"
    r"|\b(?:I(?:'d| would) (?:like|prefer|rather|love)(?: it if)? you|I (?:want|need) you to|make sure you"
    r"|it(?:'d| would) be (?:\w+ )?(?:great|nice|good|helpful|awesome|cool|lovely|ideal|better|perfect) if you"
    r"|tu peux|peux-tu|pourrais-tu|tu pourrais|vous pouvez|pouvez-vous|je (?:veux|voudrais|préfère|souhaite)"
    r" que (?:tu|vous))\b"
    rf"|\b{LASTING}\b",
    re.IGNORECASE,
)
# The clause opens on an order: an imperative of either list, a French
# imperative with its pronoun ("réponds-moi", "tutoie-moi"), "always",
# "never", "don't", "ne … jamais", or a verbless rule ("no …", "pas de …").
_ORDER_HEAD = re.compile(
    rf"^(?:(?:{IMPERATIVES_EN}|talk|speak|answer|reply|respond|give|convert|express|stick to|switch to)\b"
    rf"|(?:{IMPERATIVES_FR}|{IMPERATIVES_FR_2SG})\b|[a-zàâçéèêëîïôûùüÿœ]+-(?:moi|nous)\b"
    r"|(?:always|never|don't|do not|no|no more|toujours|jamais|ne jamais|pas de|pas d'|plus de)\b"
    r"|(?:ne|n')\s?[a-zàâçéèêëîïôûùüÿœ]+(?:-moi)? (?:pas|jamais|plus)\b)",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:(?:hey|hi|ok|okay|also|and|et|aussi|oh|btw|so|alors|donc),?\s+|(?:please|pls|plz|kindly|merci de"
    rf"|stp|svp|s'il te pla[iî]t),?\s+|{LASTING},?\s+)+",
    re.IGNORECASE,
)
_PARTS = re.compile(r"[.;!?]\s+|,\s*(?:so|and|donc|et|alors|mais|but)?\s*|\s+(?:so|donc|alors)\s+")


def asks(clause: str) -> bool:
    """Whether ``clause`` asks something of the agent rather than says something of the speaker."""
    text = clause.strip()
    if _ADDRESSED.search(text):
        return True
    head = _LEAD.sub("", text)
    if _ORDER_HEAD.match(head):
        return True
    # A verbless rule or a bare noun phrase made a request by its politeness:
    # "Pas de réunions avant 10h le matin, merci".
    return bool(_POLITE.search(text)) and not re.match(
        r"^(?:I|I'm|I am|my|je|j'|mon|ma|mes|we|our|on|nous|notre|nos)\b", head, re.IGNORECASE
    )


def _clause_of(sentence: str, value: str) -> str:
    """The part of ``sentence`` the value was read from (the whole sentence when none holds it)."""
    needle = value[:24].casefold()
    for part in _PARTS.split(sentence):
        if needle and needle in part.casefold():
            return part
    return sentence


def by_mood(cand: Candidate) -> Candidate:
    """``cand`` as an instruction when it is a requestable preference asked of the agent."""
    if cand.fact_kind != "preference" or cand.predicate not in REQUESTABLE or cand.retract:
        return cand
    span = cand.evidence_span
    clause = _clause_of(span, str(cand.value))
    # A verbless standing wish ("weights in kilos for me, never pounds") asks
    # it too: ``wishes.directive`` reads it by its structure.
    if (
        asks(clause)
        or directive(clause) is not None
        or (clause != span and _ADDRESSED.search(span) is not None)
    ):
        return replace(cand, fact_kind="instruction")
    return cand
