"""A listed predicate the speaker names, and a diet told by its practice.

"my main hobby is chess", "mon passe-temps c'est la voile": the attribute's
own noun names a predicate the store lists, so the value is read as a
phrase, lower case included, where the open "my X is Y" rule
(``patterns_possessive``) wants a value that looks like one (a capital, an
article). Only nouns whose values are things, never states, are listed:
"my job is killing me" would make a job of a complaint. "I'm doing keto",
"on a keto diet", "je fais du keto": a diet is also said by what one does;
the value comes from the diet vocabulary, so only a known diet is read.
Cost: a noun not listed here still needs a value shaped like one.
"""

from __future__ import annotations

from .fragments import END, I_AM, PHRASE, Rule, icase
from .vocabulary import DIET_WORDS

# Predicate: the nouns that name it, English then French.
_NAMED_BY = {
    "hobby": ("hobby|hobbies|pastime|pastimes", "loisir|loisirs|passe-temps|hobby"),
    "plays": ("instrument", "instrument"),
    "likes": ("passion|passions|great love", "passion|passions|dada"),
}
_QUALIFIER_EN = r"(?:(?:main|only|current|usual|big|real|new) )?"
_QUALIFIER_FR = r"(?:(?:principal|principale|seul|seule|grand|grande|nouveau|nouvel|vrai) )?"
_MOSTLY_EN = r"(?:(?:mostly|mainly|probably|definitely|still|now) )?"
_MOSTLY_FR = r"(?:(?:surtout|plutôt|toujours|maintenant) )?"
# A value with a person in it is a clause, not a thing ("my hobby is killing me").
_NO_PERSON = r"(?![^,.;!?]*\b(?:me|us|him|her|them|moi|nous|lui)\b)"
# A diet named before a meal is tonight's menu, not the speaker's diet
# ("I'm doing vegan food tonight").
_NOT_A_MEAL = (
    r"(?!\s+(?:food|meals?|dinner|lunch|breakfast|recipes?|dish(?:es)?|cooking|baking|option"
    r"|tonight|today|this week|repas|dîner|diner|déjeuner|recettes?|ce soir|aujourd'hui))"
)


def _named(predicate: str, en: str, fr: str) -> tuple[Rule, Rule]:
    return (
        Rule(
            predicate,
            icase(
                rf"\b(?:my|our) {_QUALIFIER_EN}(?:{en}) (?:is|are|'s) {_MOSTLY_EN}{_NO_PERSON}"
                rf"(?P<v>(?:the )?{PHRASE}){END}"
            ),
            "phrase",
            "preference",
            "slow",
            0.65,
        ),
        Rule(
            predicate,
            icase(
                rf"\b(?:mon|ma|mes) {_QUALIFIER_FR}(?:{fr})(?: principale?s?)?,? (?:c'est|est|sont) "
                rf"{_MOSTLY_FR}{_NO_PERSON}(?P<v>{PHRASE}){END}"
            ),
            "phrase",
            "preference",
            "slow",
            0.65,
        ),
    )


# The value said before the noun that names it: "climbing is my passion",
# "l'escalade, c'est ma grande passion". After a request, "c'est" points at
# the last thing the request named ("des suggestions de lecture autour de
# l'escalade, c'est ma grande passion"): the value is the words after the
# last "de"/"sur"/"about"/"on", at most three.
_TASTE_NOUN_EN = r"(?:passion|great love|favou?rite thing)"
_TASTE_NOUN_FR = r"(?:passion|dada|truc préféré)"
_POINTED_EN = (
    r"(?:,? (?:which|that|it)(?:'s| is)|,? (?:is|are)) (?:really |truly )?(?:my|our) "
    rf"(?:(?:biggest|greatest|great|true|one true) )?{_QUALIFIER_EN}{_TASTE_NOUN_EN}\b"
)
_POINTED_FR = rf",? (?:c'est|ce sont|est|sont) (?:vraiment )?(?:ma|mon|notre) {_QUALIFIER_FR}{_TASTE_NOUN_FR}\b"
_LAST_THING_EN = (
    r"(?:^|\b(?:about|on|of|around|into|for)\s+)(?P<v>(?:the )?[\w-]+(?: [\w-]+){0,2}?)"
)
_LAST_THING_FR = (
    r"(?:^|\b(?:de|du|des|sur|autour de|autour du|à propos de|pour)\s+|\bd')"
    r"(?P<v>(?:l'|la |le |les )?[\w'-]+(?: [\w-]+){0,2}?)"
)


LISTED: tuple[Rule, ...] = (
    *(rule for p, (en, fr) in _NAMED_BY.items() for rule in _named(p, en, fr)),
    Rule("likes", icase(_LAST_THING_EN + _POINTED_EN), "phrase", "preference", "slow", 0.6),
    Rule("likes", icase(_LAST_THING_FR + _POINTED_FR), "phrase", "preference", "slow", 0.6),
    Rule(
        "diet",
        icase(
            rf"(?:{I_AM}|\bmy diet is) (?:doing |on |following |eating |trying |mostly |strictly )?"
            rf"(?:an? |the )?(?P<v>{DIET_WORDS})\b{_NOT_A_MEAL}"
        ),
        "diet",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "diet",
        icase(
            rf"\b(?:je (?:fais|mange|suis au régime|suis en régime)|mon régime,? (?:c'est|est)) "
            rf"(?:du |le |un régime |en )?(?P<v>{DIET_WORDS})\b{_NOT_A_MEAL}"
        ),
        "diet",
        volatility="slow",
        confidence=0.75,
    ),
)
