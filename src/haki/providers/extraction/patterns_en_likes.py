"""English patterns of what the speaker likes and prefers: languages (both
languages' requests), tastes, foods, hobbies. Tried after ``patterns_en``'s
identity rules, in this order."""

from __future__ import annotations

from .fragments import (
    ADVERBS,
    END,
    I_AM,
    PET_KINDS,
    PHRASE,
    Rule,
    cased,
    icase,
)
from .lexicon import INSTRUMENT_EN
from .vocabulary import CONTEXTS, LANGS

# What people are intolerant to, English and French.
_INTOLERANCE = (
    r"(?:lactose|gluten|fructose|histamine|dairy|wheat|caffeine|alcohol|soy|soya|eggs?|fodmaps?"
    r"|sulfites?|sulphites?|sorbitol|lait|blé|caféine|alcool|œufs?|oeufs?)"
)

# A subject that points elsewhere names no favourite ("he is my favourite").
_NOT_PRONOUN = (
    r"(?!(?:he|she|they|it|this|that|these|those|you|we|i|who|what|which|there|here|mine|yours"
    r"|his|hers|ours|theirs|everything|anything|nothing|someone|somebody|everyone)\b)"
)

# The favourite said first ("oat milk lattes are my go-to", "Radiohead is
# my favourite band"): the subject opening the sentence is the value, then
# the verb and "my"; the two rules below differ only by what follows.
_SAID_FIRST = (
    rf"^{_NOT_PRONOUN}(?P<v>(?:[\w'’-]+ ){{0,3}}[\w'’-]+) (?:is|are|'s|has always been|have always been)"
    r" (?:definitely |still |totally |probably )?my "
)


def _taste(predicate: str, confidence: float, pattern: str) -> Rule:
    """A rule of a taste: a phrase, a preference that changes slowly."""
    return Rule(predicate, icase(pattern), "phrase", "preference", "slow", confidence)


LIKES_EN: tuple[Rule, ...] = (
    # Language preferences: a request ("reply in English") or a stated
    # preference ("I prefer my invoices in French"), both languages.
    Rule(
        "language",
        icase(
            rf"\b(?:reply|answer|respond|write|talk|speak|send (?:it|them|those|these|everything)|email me)"
            rf"(?: (?:to me|me|back|always|only|instead|rather))* in (?P<v>{LANGS})\b"
        ),
        "language",
        "preference",
        "slow",
        0.75,
    ),
    Rule(
        "language",
        icase(
            rf"\bI(?:'d)? (?:much |really )?(?:prefer|rather|want|like)(?: to)?"
            rf"(?: (?:get|receive|have|read|see|be sent|be answered))?"
            rf"(?: (?:my|the|all|your|all my|any))?(?: (?P<ctx>{CONTEXTS}))? in (?P<v>{LANGS})\b"
        ),
        "language",
        "preference",
        "slow",
        0.75,
    ),
    # Preferences (English).
    _taste(
        "likes",
        0.7,
        rf"\bI {ADVERBS}(?:love|adore|enjoy) (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "likes",
        0.7,
        rf"{I_AM} (?:a )?(?:big |huge |massive )?fan of (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "dislikes",
        0.7,
        rf"\bI {ADVERBS}(?:hate|dislike|detest|can't stand|cannot stand) (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "dislikes",
        0.65,
        rf"\bI (?:really )?(?:don't|do not) (?:like|enjoy) (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "prefers",
        0.7,
        rf"\bI (?:much |really )?prefer (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "",
        0.75,
        rf"\b[Mm]y (?:all-time )?favou?rite (?P<cat>[a-z-]+(?: [a-z-]+)?) (?:is|has to be) (?P<v>{PHRASE}){END}",
    ),
    # The favourite said first, of a named category ("… my favourite band").
    _taste(
        "",
        0.7,
        rf"{_SAID_FIRST}(?:all-time |absolute )?(?:favou?rite|fave) (?P<cat>[a-z-]+(?: [a-z-]+)?){END}",
    ),
    # … or of none ("oat milk lattes are my go-to", "… my usual order").
    _taste(
        "likes",
        0.65,
        rf"{_SAID_FIRST}(?:all-time |absolute |usual )?"
        rf"(?:favou?rite|fave|go-to|go to|jam)(?: (?:order|drink|snack|meal|thing))?{END}",
    ),
    _taste(
        "likes",
        0.7,
        rf"\b[Mm]y (?:all-time )?favou?rite (?:is|has to be) (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "likes",
        0.6,
        rf"\bI {ADVERBS}(?:do )?like (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "likes",
        0.6,
        rf"^(?:(?:really|also|just|totally) )?(?:love|adore) (?P<v>[a-z]+ing\b{PHRASE}){END}",
    ),
    _taste(
        "likes",
        0.6,
        rf"{I_AM} (?:really |totally |so )?into (?P<v>{PHRASE}){END}",
    ),
    _taste(
        "likes",
        0.6,
        rf"\b(?:my|our shared) love (?:for|of) (?P<v>{PHRASE}){END}",
    ),
    Rule(
        "likes",
        cased(
            r"^(?P<v>[A-Z][a-z]+ing(?: [a-z]+){0,3}) (?:is one of my (?:faves|favou?rites)|makes me (?:so |really |very )?happy)"
        ),
        "phrase",
        "preference",
        "slow",
        0.65,
    ),
    _taste(
        "hobby",
        0.7,
        r"\bI (?:started|took up|picked up) (?!(?:dating|seeing|going out|working|living|smoking|vaping|drinking|taking|using|feeling)\b)"
        r"(?P<v>[a-z]+ing(?: [a-z]+){0,2}?) (?:(?:about |around |over |almost )?\w+ (?:years?|months?) ago|last year|as a kid|when I was)",
    ),
    _taste(
        "hobby",
        0.7,
        r"\bI(?:'ve| have) been (?!(?:working|feeling|thinking|trying|doing|going|getting|looking|having|dealing|struggling|waiting|meaning|wanting|busy)\b)"
        r"(?P<v>[a-z]+ing(?: [a-z]+){0,2}?) (?:for (?:years|ages|a long time|(?:\w+ )?(?:years|months))|since I was"
        r"|as (?:usual|always|ever)|a lot|every (?:day|week|weekend)|regularly|daily)",
    ),
    _taste(
        "plays",
        0.6,
        # An instrument of the lexicon is the value whatever follows it
        # ("I play guitar in a cover band on weekends").
        rf"\bI (?:usually |often |also |mostly |still )?play (?:the )?(?P<v>{INSTRUMENT_EN})"
        r"(?= (?:in|at|with|for|on|every|since|most|twice|once|a lot)\b)"
        rf"|\bI (?:usually |often |also |mostly )?play (?P<v2>(?:the )?{PHRASE}){END}",
    ),
    Rule(
        "learning",
        icase(rf"{I_AM} (?:currently |now )?learning (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="volatile",
        confidence=0.65,
    ),
    Rule("allergy", icase(rf"{I_AM} allergic to (?P<v>{PHRASE}){END}"), "phrase", confidence=0.8),
    # An intolerance is kept where an allergy is, by the substance: what the
    # agent must leave out ("I'm lactose intolerant", "I have a gluten
    # intolerance", "je suis intolérante au lactose"). The substances are a
    # closed list, so "intolerant of fools" says nothing.
    Rule(
        "allergy",
        icase(
            rf"{I_AM} (?:(?:very|severely|mildly|a bit|slightly|super) )?(?P<v>{_INTOLERANCE}) intolerant\b"
            rf"|\bI (?:have|'ve got|got) (?:an? )?(?:(?:mild|severe|bad) )?(?P<v2>{_INTOLERANCE}) intolerance\b"
            rf"|\bI(?:'m| am) intolerant (?:to|of) (?P<v3>{_INTOLERANCE})\b"
            r"|\b(?:je suis|j'suis|chuis) (?:très |un peu )?intol[ée]rante? (?:au |à la |à l'|aux )"
            rf"(?P<v4>{_INTOLERANCE})\b"
        ),
        "phrase",
        confidence=0.8,
    ),
    Rule(
        "member_of",
        icase(rf"\bI(?:'ve| have)? (?:just |recently )?joined (?P<v>(?:an? |the )?{PHRASE}){END}"),
        "phrase",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "volunteers_at",
        icase(
            r"\b(?:the|a|an) (?P<v>[a-z][\w -]{2,40}?) (?:I|we) (?:volunteer|help out) (?:at|with|for|in)\b"
        ),
        "phrase",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "volunteers_at",
        icase(rf"\bI volunteer (?:at|with|for) (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "pet",
        icase(
            rf"\b[Mm]y (?P<v>{PET_KINDS})\b(?! (?:named |called |is named |is called |'s called )?(?-i:[A-Z]))"
            r"(?!'s name\b)"
            r"(?! (?:painting|drawing|photo|picture|pic|figurine|toy|statue|sculpture|costume|mug|shirt"
            r"|poster|book|show|game|video|print|sticker)s?\b)"
        ),
        "phrase",
        confidence=0.6,
    ),
)
