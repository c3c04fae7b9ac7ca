"""Where the speaker works and lives, read from a first-person state verb and its object.

A state is said in many tenses and registers: "I work at Stripe", "I'm
working at Stripe these days", "I'm employed by Stripe", "je suis employée
chez Renault", "je travaille à la SNCF"; "I live in Oslo", "I reside in
Oslo", "I stay in Nairobi", "je vis sur Lyon". Rather than one rule per
phrasing, each predicate lists its verbs in the forms that say the state
holds now (``_STATES``), and one rule per predicate and language is built
from them: subject, verb form, preposition, a capitalised object.

What is left out on purpose: past forms ("I worked at", "je vivais à"),
which say the state is over; a progressive of staying ("I'm staying in
Rome"), which is a visit, and staying somewhere in a sentence that tells
a trip ("when I travel I stay in Airbnbs"); working on something for a
firm ("I work on projects for Google"), which names a client; a French "à" before a bare capitalised name
("je travaille à Lyon"), which is a place, not an employer — an employer
after "à" needs its article ("à la SNCF", "au Crédit Agricole").
"""

from __future__ import annotations

from .fragments import CAP_SEQ, Rule, ValueShape, cased

# predicate -> (English forms after "I", French forms after "je"/"j'"), each
# ending in the preposition before the object.
_STATES: dict[str, tuple[str, str]] = {
    "employer": (
        r"(?:'m| am) (?:currently |now )?(?:working|employed) (?:at|for|by)"
        r"|(?:'ve| have) been employed (?:at|by)"
        # "I work in sales for Nike", "I work on the search team at Google";
        # "I work on projects for Google" names a client, not an employer.
        r"| work in [a-z]+(?: [a-z]+){0,2} (?:at|for)| work on [a-z]+(?: [a-z]+){0,2} at",
        r"(?:suis|suis maintenant) (?:employée?|salariée?|embauchée?) (?:chez|à|par|dans)"
        r"|(?:travaille|bosse|taffe)(?: maintenant)? (?:à la|au|à l'|aux)"
        r"(?! (?:Défense|Réunion|Martinique|Guadeloupe)\b)",
    ),
    "home_city": (
        r" (?:reside|dwell) in|(?:'m| am) (?:currently |now )?(?:residing|settled) in"
        r"|(?:'ve| have) been residing in",
        r"(?:vis|habite|réside|suis installée?|suis installés) (?:sur|à|a)",
    ),
}
_SUBJECT = {"en": r"\bI", "fr": r"\b(?:[Jj]e |[Jj]')"}
# A place where one happens to be working now is no employer: "I'm working
# at Starbucks today", "… on my laptop".
_NOW_ONLY = (
    r"(?!\s(?:today|tonight|right now|this (?:morning|afternoon|evening|week)|on my|on the|on a|from)\b"
    r"|\s(?:aujourd'hui|ce (?:matin|soir)|en ce moment sur)\b)"
)
_VALUE_SHAPE: dict[str, ValueShape] = {"employer": "org", "home_city": "place"}
# Where one stays is home only in a sentence that tells no travel: "When I
# visit Paris I stay in Montmartre", "I stay in Airbnbs when I travel". The
# check spans the whole sentence, so this rule starts at its beginning.
_TRAVEL = (
    r"(?:visit\w*|travel\w*|trips?|holidays?|vacations?|tours?|touring|abroad|away|conferences?"
    r"|on business|in town|passing through|road ?trips?|weekends? away|getaways?)"
)
_STAY = rf"^(?!.*\b(?i:{_TRAVEL})\b).*?\bI(?i: stay in) (?P<v>(?>{CAP_SEQ})){_NOW_ONLY}"


def _rules() -> tuple[Rule, ...]:
    out = []
    for predicate, (english, french) in _STATES.items():
        for lang, verbs in (("en", english), ("fr", french)):
            out.append(
                Rule(
                    predicate,
                    cased(rf"{_SUBJECT[lang]}(?i:{verbs}) (?P<v>(?>{CAP_SEQ})){_NOW_ONLY}"),
                    _VALUE_SHAPE[predicate],
                    volatility="slow",
                    confidence=0.7,
                )
            )
    out.append(Rule("home_city", cased(_STAY), "place", volatility="slow", confidence=0.7))
    return tuple(out)


STATES: tuple[Rule, ...] = _rules()
