"""Ties begun or ended, read from who did what with whom, English and French.

Dated life events are told with the people and places they bind: "Me and
Daniel got married three weeks ago", "Sofia et moi on s'est mariés il y a
5 ans", "got engaged to Marco on Saturday", "my boyfriend and I broke up",
"we adopted Moka, our golden", "I enrolled in a nursing degree", "j'ai
rejoint l'équipe de Mistral", "je suis en CDI chez Qonto". The structure
says the fact: a couple (the speaker and someone named, in either order)
and a verb of marrying, engaging or being together name the spouse or the
partner; a name set beside a pet kind names the pet; a programme of study
makes a student; a team or a contract "at"/"chez" a capitalised name is an
employer. ``readings`` has cut out the time, which the engine hands back.
"""

from __future__ import annotations

from .fragments import CAP_SEQ, Rule, cased, icase
from .lexicon import BREED, PET_KINDS_EN, PET_KINDS_FR

_NAME = r"[A-ZÀ-Ý][\w'-]+"
# Adverbs before a tie ("officially engaged"), in any case within these cased
# rules: unlike ``_NOW`` of patterns_changes (which takes "also", "even" and
# not "officially") and ``_RECENTLY`` of patterns_events (lower case only
# where its rule is cased).
_NOW = r"(?:(?i:just|finally|officially|recently) )?"
# The speaker and someone named, as a couple: "Daniel and I", "me and Daniel".
_COUPLE_EN = rf"(?:\b(?P<v>{_NAME}) and I|\b(?i:me) and (?P<v2>{_NAME}))"
# The person a tie is with, maybe introduced by what they were: "to my boyfriend Sam".
_WITH_EN = r"(?:(?i:my|our) (?i:boyfriend|girlfriend|partner|fianc[ée]e?|longtime \w+) )?"
# The speaker, said or dropped ("Got engaged to Marco!"); "i" in either case,
# where ``_ME`` of patterns_changes takes a capital "I" only in its cased
# rules and ``_ME`` of patterns_events takes "we" too.
_ME = r"(?:\b(?i:I)(?:'ve| have)? |^)"

TIES: tuple[Rule, ...] = (
    Rule(
        "spouse",
        cased(
            rf"{_COUPLE_EN},? {_NOW}(?i:got married|got hitched|tied the knot|married|wed|"
            r"(?:'ve|have) been married)\b"
            rf"|{_ME}{_NOW}(?i:got (?:married|hitched)) (?i:to|with) {_WITH_EN}(?P<v3>{_NAME})\b"
            rf"|{_ME}{_NOW}(?i:married|wed) {_WITH_EN}(?P<v4>{_NAME})\b"
        ),
        "name",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "spouse",
        cased(
            rf"\b(?P<v>{_NAME}) et moi,? (?i:on s'est|nous nous sommes) (?i:enfin )?(?i:mariée?s|pacsée?s)\b"
            rf"|\b(?i:mon mari|ma femme|mon époux|mon épouse),? (?P<v2>{_NAME}),? et moi\b"
        ),
        "name",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "partner",
        cased(
            rf"{_COUPLE_EN},? {_NOW}(?i:got engaged|got together(?=\s*(?:[.!,;]|$))|started dating"
            r"|(?:'ve|have) been (?:together|dating)|are together|'re together|moved in together)\b"
            rf"|{_ME}{_NOW}(?i:got engaged) (?i:to) {_WITH_EN}(?P<v3>{_NAME})\b"
        ),
        "name",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "partner",
        cased(
            rf"\b(?P<v>{_NAME}) et moi,? (?i:on s'est|nous nous sommes) (?i:enfin )?(?i:fiancée?s|mise?s ensemble)\b"
            rf"|\b(?P<v2>{_NAME}) et moi,? (?i:on est|nous sommes|on sort) (?i:ensemble|en couple)\b"
            rf"|\b(?i:on s'est|nous nous sommes|je me suis) (?i:enfin )?(?i:pacsée?s?|fiancée?s?|(?:re)?mise?s? ensemble"
            rf"|(?:re)?mise?s? en couple) (?i:avec) (?P<v3>{_NAME})\b"
        ),
        "name",
        volatility="slow",
        confidence=0.65,
    ),
    # A break-up the speaker tells leaves them single.
    Rule(
        "relationship_status",
        icase(
            r"(?:\b(?:I|we|(?:my|me and my) \w+ and I|me and my \w+)(?:'ve| have)? |^)(?:just |finally )?"
            r"(?P<v>broke up|split up|separated|got divorced)\b"
        ),
        "word",
        volatility="slow",
        confidence=0.6,
    ),
    # A pet named first, its kind beside: "we adopted Moka, our golden".
    Rule(
        "pet",
        cased(
            r"\b(?i:(?:I|we|j'ai|on a|nous avons)(?:'ve| have)? (?:just |finally |enfin )?"
            r"(?:adopted|rescued|got|brought home|adopté|recueilli|accueilli)) "
            rf"(?P<v>{_NAME}),? (?i:(?:our|my|notre|mon|ma) (?:new |little |petit |petite |nouveau |nouvelle )?"
            rf"(?:{PET_KINDS_EN}|{PET_KINDS_FR}|{BREED}))\b"
        ),
        "name",
        volatility="slow",
        confidence=0.65,
    ),
    # A programme of study makes a student: "a nursing degree", "a part-time MBA".
    Rule(
        "occupation",
        icase(
            r"(?:\bI(?:'ve| have)? |\bI(?:'m| am) |^)(?:just |recently |finally )?(?:started|began|enrolled in"
            r"|signed up for|doing) (?:a|an|my) (?:(?:part-time|full-time|online|evening) )?"
            r"(?:(?P<v>MBA|PhD|doctorate)|(?P<v2>[a-z]+(?: [a-z]+)?) (?:degree|diploma|programme|program))\b"
        ),
        "study",
        volatility="slow",
        confidence=0.6,
    ),
    # A team or a contract at a named company is an employer.
    Rule(
        "employer",
        cased(
            rf"\b(?i:I(?:'ve| have)? {_NOW}joined the (?:\w+ )?team) (?i:at|of) (?P<v>{CAP_SEQ})"
            rf"|\b(?i:j'ai {_NOW}(?:rejoint|intégré) l'équipe) (?i:de|d'|chez) (?P<v2>{CAP_SEQ})"
            rf"|\b(?i:je suis (?:maintenant |désormais )?en (?:CDI|CDD|stage|alternance|intérim|freelance)) "
            rf"(?i:chez) (?P<v3>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
)
