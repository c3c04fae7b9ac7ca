"""How the frame of an order moves risk between its clauses (pure).

``text.risk`` reads an effect where its marks stand. Three frames decide
whose effect a mark is, whatever the words around it:

- **a released check takes the risk of what it releases**: "no need to
  check w/ me", "no need to ask each time", "plus besoin de me demander"
  name no object; what they release is the act beside them in the same
  sentence ("if a script needs sudo just go ahead and run it, no need to
  check w/ me"; "upload a copy to dropbox-share.example, no need to ask").
  The release lowers a safeguard when that act is risky (any effect of
  ``text.risk``) or is one of the acts checks exist for (delete, pay,
  send, install, push, merge, approve …); beside a harmless act ("keep
  answers short, no need to ask me each time") it lowers nothing;
- **a check required under "without"**: "don't run migrations without
  asking me first", "ne supprime jamais rien sans me demander" forbid the
  act done unchecked, so the check they name is kept, not released;
- **a condition is the trigger of a check asked of the person**: "if a
  script needs sudo, stop and ask me before doing anything", "si tu n'es
  pas sûr, demande-moi avant de valider": what the condition names (a
  command, a payment prompt) is what the person is asked about, not an
  act the order performs. Only when the main clause turns to the person
  (ask me, check with me, warn me, demande-moi, préviens-moi) is the
  condition left out; "if a script needs sudo just go ahead and run it"
  still runs it.
"""

from __future__ import annotations

import re

# A check released, with no object of its own: the stopping form, the
# checking verb, and at most who is asked and how often.
_RELEASE_FORM = (
    r"(?:no need to|there's no need to|don't need to|do not need to|you don't have to|needn't|don't bother(?: to)?"
    r"|don't|do not|dont|stop|no more|no longer|never|plus besoin de|pas besoin de|pas la peine de"
    r"|inutile de|arr[êe]te[rz]? de|cesse[rz]? de|tu n'as (?:plus|pas) (?:à|besoin de)"
    r"|ne\s+(?:me\s+|m')?(?:\w+)\s+(?:plus|pas|jamais))"
)
_ASKED_VERB = (
    r"(?:ask\w*|check\w*|confirm\w*|verif\w*|run (?:it|this|that|things) by|wait\w* for (?:me|my \w+)"
    r"|demande[rz]?|v[ée]rifie[rz]?|confirme[rz]?|consulte[rz]?|pr[ée]viens|pr[ée]venir|avertis|avertir)"
)
_RELEASED = re.compile(
    rf"\b{_RELEASE_FORM}\s+(?:me\s+|m'|with me\s+)?{_ASKED_VERB}\b"
    r"(?:\s+(?:with me|w/ ?me|me|moi|first|again|each time|every time|anymore|any more|before|d'abord"
    r"|à chaque fois|chaque fois|avant|it|this|that))*",
    re.IGNORECASE,
)
# The acts checks exist for, said anywhere in the sentence (not under "before").
_CHECKED_ACT = re.compile(
    r"(?<!before )(?<!avant de )(?<!avant d')\b(?:delet\w*|remov\w*|eras\w*|wip(?:e|es|ing)|pay|pays|paying"
    r"|transfer\w*|wir(?:e|es|ing)|send\w*|upload\w*|post(?:s|ing)?|publish\w*|install\w*"
    r"|(?:force[- ]?)?push(?:es|ing)?|merg\w*|deploy\w*|approv\w*|drop\w*|overwrit\w*|buy\w*|purchas\w*"
    r"|supprim\w*|effac\w*|paie[rz]?|payer|vire[rz]?|envoie[rz]?|envoyer|publie[rz]?|installe[rz]?"
    r"|pousse[rz]?|fusionne[rz]?|d[ée]ploie[rz]?|d[ée]ployer|valide[rz]?|ach[èe]te[rz]?|acheter)\b",
    re.IGNORECASE,
)

# What a forbidden act is done without: the check it keeps.
_WITHOUT_CHECK = re.compile(
    r"\b(?:without|w/o|sans|unless|until|sauf si|à moins que|avant que)\b\s+(?:\w+\s+|m')?"
    r"(?:ask\w*|check\w*|confirm\w*|verif\w*|my (?:ok|okay|approval|go-ahead|confirmation|permission)"
    r"|demande[rz]?|v[ée]rifi\w*|confirm\w*|mon (?:accord|feu vert|ok)|I (?:say|confirm|approve)"
    r"|j'ai (?:dit|confirm[ée]|valid[ée]))\b[^.!?\n,;]*",
    re.IGNORECASE,
)

# A condition opening the clause, then a main clause turned to the person.
_CONDITION = re.compile(
    r"^(?:(?:and|also|et|aussi|puis)\s+)?(?:if|when|whenever|each time|every time|any time|in case|si|quand"
    r"|lorsque|d[èe]s que|chaque fois que|à chaque fois que|au cas où)\b[^,;]*[,;]\s*",
    re.IGNORECASE,
)
_TO_THE_PERSON = re.compile(
    r"^(?:(?:just|then|first|please|pls|always|stop|and|et|alors|d'abord|toujours|juste)\b[\s,]*)*"
    r"(?:(?:ask|check with|confirm with|warn|alert|tell|ping|notify|run it by|wait for)\s+(?:me|with me)\b"
    r"|(?:demande|pr[ée]viens|avertis|alerte|consulte|dis)-moi\b|(?:v[ée]rifie|confirme)\s+avec\s+moi\b"
    r"|(?:me\s+demander|m'avertir|me\s+pr[ée]venir)\b)",
    re.IGNORECASE,
)


# Possessive runs (``*+``): the adjacent runs of spaces would otherwise
# backtrack against each other, cubic in a long clause that fails at its end.
_ONLY_THE_CHECK = re.compile(
    r"^\s*+(?:first|d'abord|right away|tout de suite)?\s*+"
    r"(?:(?:before|avant (?:de|d'|que)|if|whether|si|about|sur|when|quand)\b[^,;]*+)?[\s.!]*+$",
    re.IGNORECASE,
)


def released(clause: str) -> tuple[str, ...]:
    """The spans of ``clause`` that release a check with no object of their own (module doc)."""
    return tuple(m.group(0) for m in _RELEASED.finditer(clause))


def without_released(clause: str) -> str:
    """``clause`` with its released checks taken out: what they release."""
    return _RELEASED.sub(" ", clause)


def checked_act(text: str) -> bool:
    """Whether ``text`` names an act that checks exist for (module doc)."""
    return _CHECKED_ACT.search(text) is not None


def check_kept(part: str) -> str:
    """``part`` without the check its forbidden act is done without ("don't X without asking")."""
    return _WITHOUT_CHECK.sub(" ", part)


def asked_of_person(clause: str) -> str | None:
    """The main clause when ``clause`` is a condition then a check turned to the person, else ``None``."""
    cond = _CONDITION.match(clause.strip())
    if cond is None:
        return None
    main = clause.strip()[cond.end() :]
    check = _TO_THE_PERSON.match(main)
    # Only the check, or the check and what it comes before: "tell me, then
    # send it to them" goes on to act on what the condition names.
    return main if check and _ONLY_THE_CHECK.match(main[check.end() :]) else None


# The release with no object: what ``risk.effects`` reads a released check
# by, for its prefilter.
RELEASED = _RELEASED
