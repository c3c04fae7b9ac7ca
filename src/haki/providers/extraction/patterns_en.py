"""The rules extractor's English patterns, and the language requests of both
languages, in the order they are tried."""

from __future__ import annotations

from .fragments import (
    ADVERBS,
    CAP,
    CAP_SEQ,
    EMAIL,
    EMAIL_WORDS,
    END,
    I_AM,
    IMPERATIVES_EN,
    OCCUPATIONS_EN,
    PET_KINDS,
    PHONE,
    PHONE_WORDS,
    PHRASE,
    RELATIONS_EN,
    RELATIONSHIP_EN,
    WANT_VERBS,
    WHEN_EN,
    Rule,
    cased,
    icase,
)
from .vocabulary import CONTEXTS, DIET_WORDS, LANGS

RULES_EN: tuple[Rule, ...] = (
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
        cased(rf"\bI(?:'m| am) (?:now |currently )?based in (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
    ),
    Rule("hometown", cased(rf"\bI(?:'m| am) (?:originally )?from (?P<v>{CAP_SEQ})"), "place"),
    Rule("hometown", cased(rf"\bI grew up in (?P<v>{CAP_SEQ})"), "place"),
    Rule("hometown", cased(rf"\b[Mm]y home country,? (?P<v>{CAP_SEQ})"), "place"),
    Rule(
        "occupation",
        icase(rf"\bI(?:'m| am)? (?:currently |now )?work(?:ing)? as an? (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "occupation",
        icase(rf"{I_AM} (?:now |currently |a )?(?:an? )?(?P<v>(?:{OCCUPATIONS_EN}))\b(?! of\b)"),
        "occupation",
        volatility="slow",
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
    # A bare age said as a restatement ("I'm actually 43", "I'm 43, not
    # 34"): the number ends the clause, so "I'm 5 minutes away" says no age;
    # a plain "I'm 27." stays unread (a score, a size, a time as often).
    Rule(
        "age",
        icase(
            r"\bI(?:'m| am) (?:(?:actually|in fact|really) (?=\d{1,2}\s*(?:[,.;!]|$|\b(?:and|but|now)\b))"
            r"|(?=\d{1,2},? not \d{1,2}\b))(?P<v>\d{1,2})"
        ),
        "number",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "",
        cased(
            rf"\b[Mm]y (?P<rel>{RELATIONS_EN})(?:,| named| called|'s name is| is called| is named"
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
    Rule(
        "email",
        cased(rf"\b{EMAIL_WORDS}\b[^.!?@]{{0,40}}?(?P<v>{EMAIL})"),
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
            rf"{I_AM} (?:now |happily |newly )?(?:engaged|dating|seeing|going out with) (?:to )?(?P<v>{CAP})\b"
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
            rf" (?:little |new |sweet |old |young )?(?P<rel>{RELATIONS_EN})(?:,)? (?:named|called) (?P<v>{CAP})\b"
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
    # Language preferences: a request ("reply in English") or a stated
    # preference ("I prefer my invoices in French"), both languages.
    Rule(
        "language",
        icase(
            rf"\b(?:reply|answer|respond|write|talk|speak|send (?:it|them|those|these|everything)|email me)"
            rf"(?: (?:to me|back|always|only|instead|rather))* in (?P<v>{LANGS})\b"
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
    Rule(
        "likes",
        icase(rf"\bI {ADVERBS}(?:love|adore|enjoy) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "likes",
        icase(rf"{I_AM} (?:a )?(?:big |huge |massive )?fan of (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "dislikes",
        icase(
            rf"\bI {ADVERBS}(?:hate|dislike|detest|can't stand|cannot stand) (?P<v>{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "dislikes",
        icase(rf"\bI (?:really )?(?:don't|do not) (?:like|enjoy) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.65,
    ),
    Rule(
        "prefers",
        icase(rf"\bI (?:much |really )?prefer (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "",
        icase(
            rf"\b[Mm]y (?:all-time )?favou?rite (?P<cat>[a-z-]+(?: [a-z-]+)?) (?:is|has to be) (?P<v>{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "slow",
        0.75,
    ),
    Rule(
        "likes",
        icase(rf"\b[Mm]y (?:all-time )?favou?rite (?:is|has to be) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "likes",
        icase(rf"\bI {ADVERBS}(?:do )?like (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "likes",
        icase(
            rf"^(?:(?:really|also|just|totally) )?(?:love|adore) (?P<v>[a-z]+ing\b{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "likes",
        icase(rf"{I_AM} (?:really |totally |so )?into (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "likes",
        icase(rf"\b(?:my|our shared) love (?:for|of) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
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
    Rule(
        "hobby",
        icase(
            r"\bI (?:started|took up|picked up) (?P<v>[a-z]+ing(?: [a-z]+){0,2}?) (?:(?:about |around |over |almost )?\w+ (?:years?|months?) ago|last year|as a kid|when I was)"
        ),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "hobby",
        icase(
            r"\bI(?:'ve| have) been (?!(?:working|feeling|thinking|trying|doing|going|getting|looking|having|dealing|struggling|waiting|meaning|wanting|busy)\b)"
            r"(?P<v>[a-z]+ing(?: [a-z]+){0,2}?) (?:for (?:years|ages|a long time|(?:\w+ )?(?:years|months))|since I was"
            r"|as (?:usual|always|ever)|a lot|every (?:day|week|weekend)|regularly|daily)"
        ),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "plays",
        icase(rf"\bI (?:usually |often |also |mostly )?play (?P<v>(?:the )?{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "learning",
        icase(rf"{I_AM} (?:currently |now )?learning (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="volatile",
        confidence=0.65,
    ),
    Rule("allergy", icase(rf"{I_AM} allergic to (?P<v>{PHRASE}){END}"), "phrase", confidence=0.8),
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
    # Decisions, conventions, plans (English).
    Rule(
        "decision",
        icase(rf"\b(?:we|I)(?:'ve| have)? (?:finally )?decided (?:to|on) (?P<v>{PHRASE}){END}"),
        "clause",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "convention",
        icase(rf"^(?:please,? )?(?P<v>(?:always|never) (?:{IMPERATIVES_EN}) .{{3,120}}?)[.!]?$"),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    # A standing request without "always": a marker of time ("from now
    # on", "by default", "every time") or a polite "please" before a verb
    # of form ("please use metric units") makes it last.
    Rule(
        "convention",
        icase(
            rf"^(?:please,? )?(?:from now on|going forward|by default|in future|in the future),? "
            rf"(?:please,? )?(?P<v>(?:{IMPERATIVES_EN}) .{{3,120}}?)[.!]?$"
        ),
        "clause",
        "instruction",
        "stable",
        0.65,
    ),
    Rule(
        "convention",
        icase(
            rf"^(?:please,? )?(?P<v>(?:{IMPERATIVES_EN}) .{{3,120}}?),? (?:from now on|going forward|by default"
            r"|at all times|every time|each time|in (?:all|every) (?:of )?(?:our|my|your) \w+(?: \w+)?)[.!]?$"
        ),
        "clause",
        "instruction",
        "stable",
        0.65,
    ),
    Rule(
        "convention",
        icase(
            r"^please,? (?P<v>(?:use|give|write|reply|answer|format|express|keep|show|convert|stick to|quote)"
            r" (?:me |all |my |the )?(?:\w+ ){0,3}?(?:units?|format|style|dates?|times?|measurements?|currency"
            r"|temperatures?|distances?|prices?|weights?|answers?|replies|code|indentation)\b.{0,80}?)[.!]?$"
        ),
        "clause",
        "instruction",
        "stable",
        0.6,
    ),
    # Units of measure, corrected as one preference: "always use metric units".
    Rule(
        "units",
        icase(
            r"\b(?:use|using|prefer|give|show|want|stick to|switch to|switched to|in|into|convert)\b[^.!?]{0,30}?"
            r"\b(?P<v>metric|imperial|US customary)(?: units?| system| measurements?)?\b"
        ),
        "word",
        "preference",
        "slow",
        0.65,
    ),
    # Schedules: "no meetings before 10am", "I don't take calls after 6pm".
    Rule(
        "schedule",
        icase(
            r"^(?:please,? )?(?P<v>no (?:more )?(?:meetings?|calls?|appointments?|emails?|messages?|notifications?"
            r"|pings?|reminders?|work) (?:before|after|on|during|past|at) [^.!?,]{1,40}?)(?:,? please| for me)?[.!]?$"
            r"|\bI (?:don't|do not|never) (?:take|do|schedule|book|accept) (?P<v2>(?:meetings?|calls?|appointments?)"
            r" (?:before|after|on|during|past) [^.!?,]{1,40}?)(?=[.!,;]|$)"
        ),
        "clause",
        "preference",
        "slow",
        0.65,
    ),
    # Code conventions: "we use tabs, not spaces, in all our Go code".
    Rule(
        "code_convention",
        icase(
            r"(?:\b(?:we|I) (?:always |only |now )?(?:use|write|indent with|format with|prefer|stick to|switched to) |^)"
            r"(?P<v>[^.!?;]{2,60}?),? (?:in|for) (?:all |every )?(?:of )?(?:our|my|the) (?P<ctx2>(?:[\w#+.-]+ ){0,3}?"
            r"(?:code|codebase|repos?|repositories|projects?|files|scripts|services))\b"
        ),
        "clause",
        "instruction",
        "stable",
        0.65,
    ),
    Rule(
        "convention",
        icase(
            rf"\b(?:our|the team's|my) (?:convention|rule|policy) is (?:to |that )?(?P<v>{PHRASE}){END}"
        ),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    Rule(
        "plan",
        icase(
            rf"{I_AM} (?:going|planning|hoping) to (?P<v>[a-z][^,.;!?]{{2,60}}?) (?P<when>{WHEN_EN})\b"
        ),
        "clause",
        volatility="ephemeral",
        confidence=0.65,
    ),
    Rule(
        "plan",
        icase(rf"\bI(?:'ll| will) (?P<v>[a-z][^,.;!?]{{2,60}}?) (?P<when>{WHEN_EN})\b"),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
    Rule(
        "plan",
        icase(
            rf"{I_AM} (?P<v>(?!going\b|feeling\b|doing\b|thinking\b|hoping\b|planning\b|trying\b|looking\b|getting\b)[a-z]+ing [^,.;!?]{{2,50}}?) (?P<when>{WHEN_EN})\b"
        ),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
    Rule(
        "plan",
        icase(
            rf"^(?:I(?:'m| am) )?planning (?:a |to )(?P<v>[^,.;!?]{{2,50}}?) (?P<when>{WHEN_EN})\b"
        ),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
    Rule(
        "plan",
        icase(rf"{I_AM} (?:really )?(?:hoping|planning) to (?P<v>(?:{WANT_VERBS}) {PHRASE}){END}"),
        "clause",
        volatility="volatile",
        confidence=0.55,
    ),
    Rule(
        "plan",
        icase(
            rf"\bI(?:'ve| have)? (?:always )?want(?:ed)? to (?P<v>(?:{WANT_VERBS}) {PHRASE}){END}"
        ),
        "clause",
        volatility="volatile",
        confidence=0.55,
    ),
    Rule(
        "plan",
        icase(
            rf"\b(?:I'm|I am|we're|we are) (?:considering|thinking about|thinking of) (?P<v>[a-z]+ing {PHRASE}){END}"
        ),
        "clause",
        volatility="volatile",
        confidence=0.55,
    ),
)
