"""The rules extractor's English patterns, and the language requests of both
languages, in the order they are tried: who the speaker is (here), what they
like (``patterns_en_likes``), then their standing orders and intentions
(``patterns_en_orders``)."""

from __future__ import annotations

from .fragments import (
    CAP,
    CAP_SEQ,
    EMAIL,
    EMAIL_WORDS,
    END,
    FREE_OCCUPATION_MODIFIER,
    I_AM,
    KIN_ADJ_EN,
    OCCUPATION_MODIFIERS,
    OCCUPATIONS_EN,
    PHONE,
    PHONE_WORDS,
    PHRASE,
    RELATIONS_EN,
    RELATIONSHIP_EN,
    Rule,
    cased,
    icase,
)
from .lexicon import BREED, PET_KINDS_EN, PET_MODIFIERS, PET_YOUNG
from .patterns_en_likes import LIKES_EN
from .patterns_en_orders import ORDERS_EN
from .vocabulary import DIET_WORDS

# Who the speaker is: identity, attributes, contact details, relationships, diet.
_IDENTITY_EN: tuple[Rule, ...] = (
    # Identity and attributes (English).
    Rule("name", cased(rf"\b[Mm]y name(?:'s| is) (?P<v>{CAP}(?: {CAP})?)"), "name", confidence=0.9),
    Rule(
        "home_city",
        cased(
            rf"\bI(?:(?:'ve| have) been)? (?:currently |now )?(?:live|living) in (?P<v>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "home_city",
        cased(rf"\bI(?:'ve| have)? (?:just |recently )?moved to (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
    ),
    Rule(
        "home_city",
        # "I'm a freelance designer based in Austin": who one is may come first.
        cased(
            rf"\bI(?:'m| am) (?:now |currently |(?i:an?) (?:[\w-]+ ){{1,4}})?based in (?P<v>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
    ),
    Rule("hometown", cased(rf"\bI(?:'m| am) (?:originally )?from (?P<v>{CAP_SEQ})"), "place"),
    Rule("hometown", cased(rf"\bI grew up in (?P<v>{CAP_SEQ})"), "place"),
    Rule("hometown", cased(rf"\b[Mm]y home country,? (?P<v>{CAP_SEQ})"), "place"),
    Rule(
        "occupation",
        icase(
            rf"\bI(?:'m| am)? (?:currently |now |(?:just |recently )?(?:started|began) )?"
            rf"work(?:ing)? as an? (?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "occupation",
        icase(
            rf"{I_AM} (?:now |currently |a )?(?:an? )?"
            rf"(?P<v>(?:(?:{OCCUPATION_MODIFIERS}) )?(?:{OCCUPATIONS_EN}))\b(?! of\b)(?!['’]s\b)"
        ),
        "occupation",
        volatility="slow",
    ),
    # A known job headed by its field ("I'm a product designer now").
    Rule(
        "occupation",
        icase(
            rf"{I_AM} (?:now |currently |officially )?an? "
            rf"(?P<v>(?:{FREE_OCCUPATION_MODIFIER} ){{1,2}}(?:{OCCUPATIONS_EN}))\b(?! of\b)(?!['’]s\b)"
        ),
        "occupation",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "employer",
        cased(
            rf"\bI(?:'ve| have)? (?:currently |now |just )?(?:work|started working|began working|been working)"
            rf" (?:at|for) (?P<v>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
    ),
    Rule(
        "age",
        icase(rf"{I_AM} (?P<v>\d{{1,2}}) (?:years old|yo)\b"),
        "number",
        volatility="slow",
        confidence=0.85,
    ),
    Rule(
        "age",
        icase(r"\bI (?:just )?turned (?P<v>\d{1,2})\b(?! (?:minutes|hours|days|weeks|months))"),
        "number",
        volatility="slow",
    ),
    # An age held since a moment ("i've been 53 since march", "I've been 40
    # since my birthday"): a number that is the whole complement of "been"
    # with the moment it began. "I've been 5 minutes" goes on with a unit.
    Rule(
        "age",
        icase(r"\bI(?:'ve| have) been (?P<v>\d{1,2}) since\b"),
        "number",
        volatility="slow",
        confidence=0.75,
    ),
    # A bare age: a number of one or two digits that is the whole complement
    # of "I'm" and ends the clause ("I'm 27.", "I'm actually 43", "I'm 43,
    # not 34", "I'm 28 now"). "I'm 5 minutes away", "I'm 100% sure" or
    # "I'm 3rd in line" go on past the number and say no age.
    Rule(
        "age",
        icase(
            r"\bI(?:'m| am) (?:(?:actually|in fact|really|now|only|just) )?"
            r"(?P<v>\d{1,2})(?=\s*(?:[,.;!]|$|\b(?:and|but|now|not|btw|lol|haha|fwiw|already)\b))"
        ),
        "number",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "",
        cased(
            # "my beagle Waffles", "our ferret Noodle": a pet by its kind or breed.
            rf"\b(?:[Mm]y|[Oo]ur) (?i:{KIN_ADJ_EN})(?P<rel>{RELATIONS_EN}|{PET_KINDS_EN}|{BREED})(?:,| named| called|'s name is| is called| is named"
            rf"|'s called| name is| is(?= {CAP},? (?:not|rather than) {CAP}))? (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    # "the dog's name is Max": a pet or person the conversation already named.
    Rule(
        "",
        cased(rf"\b[Tt]he (?P<rel>{RELATIONS_EN})'s name is (?P<v>{CAP})\b"),
        "name",
        confidence=0.7,
    ),
    # Contact details: "my email is …", "please update my email: it's … now".
    # Someone else's address is not the speaker's: "my sister's email is …",
    # "please email my boss at …". "Email" as a verb with an object ("email my
    # calendar to …", "mail the report to …") names where something is sent.
    Rule(
        "email",
        cased(
            rf"(?<!['’]s )\b{EMAIL_WORDS}\b"
            r"(?!\s+(?:my|the|a|an|our|your|this|that|these|those|all|every|each)\b)"
            rf"(?:(?!\b(?:{RELATIONS_EN}|[Bb]oss|[Mm]anager|[Cc]olleague|[Cc]oworker|[Ff]riend|him|her|them)\b)"
            rf"[^.!?@]){{0,40}}?(?P<v>{EMAIL})"
        ),
        "email",
        confidence=0.85,
    ),
    Rule(
        "phone",
        cased(rf"\b{PHONE_WORDS}\b[^.!?\d]{{0,40}}?(?P<v>{PHONE})"),
        "phone",
        confidence=0.8,
    ),
    # Relationship status and the person it names.
    Rule(
        "relationship_status",
        icase(
            rf"{I_AM} (?:now |currently |happily |newly |recently |officially )?(?P<v>{RELATIONSHIP_EN})\b"
        ),
        "word",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "partner",
        cased(
            rf"{I_AM} (?:now |happily |newly )?(?:engaged|dating|seeing|going out with) (?:to )?"
            rf"(?:(?i:a (?:guy|man|girl|woman|boy|lady)) (?:named|called) )?(?P<v>{CAP})\b"
            rf"|\bI(?:'ve| have)? (?:just |recently |finally )?started (?:dating|seeing|going out with) (?P<v2>{CAP})\b"
            # The same tie said running to now, or begun: "I've been seeing Tom
            # since March", "I got together with Tom last year".
            rf"|\bI(?:'ve| have) been (?:dating|seeing|going out with|together with) (?P<v3>{CAP})\b"
            rf"|\bI (?:just |recently |finally )?got together with (?P<v4>{CAP})\b"
        ),
        "name",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "spouse",
        cased(rf"{I_AM} (?:happily )?married to (?P<v>{CAP})\b"),
        "name",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "employer",
        cased(rf"{I_AM} an? (?:{OCCUPATIONS_EN}) (?:at|for) (?P<v>{CAP_SEQ})"),
        "org",
        volatility="slow",
    ),
    Rule(
        "",
        cased(
            rf"\b(?:I|[Ww]e)(?:'ve| have)? (?:just |recently )?(?:have|got|adopted|own|rescued) (?:a|an|another)"
            rf" {PET_MODIFIERS}(?P<rel>{RELATIONS_EN}|{PET_KINDS_EN}|{BREED}){PET_YOUNG}(?:,)? (?:named|called) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    Rule(
        "diet",
        icase(
            rf"(?:{I_AM}|\bI (?:became|went|turned)) (?:now |strictly |a |fully )?(?P<v>{DIET_WORDS})\b"
        ),
        "diet",
        volatility="slow",
        confidence=0.8,
    ),
)

RULES_EN: tuple[Rule, ...] = (*_IDENTITY_EN, *LIKES_EN, *ORDERS_EN)
