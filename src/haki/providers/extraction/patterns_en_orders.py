"""English patterns of standing orders and intentions: decisions,
conventions, units, schedules, code conventions, plans. Tried last of the
English rules, in this order."""

from __future__ import annotations

from .fragments import (
    END,
    I_AM,
    IMPERATIVES_EN,
    LASTING_EN,
    PHRASE,
    WANT_VERBS,
    WHEN_EN,
    Rule,
    cased,
    icase,
)

ORDERS_EN: tuple[Rule, ...] = (
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
            rf"^(?:please,? )?(?:{LASTING_EN}|in future|in the future),? "
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
            rf"^(?:please,? )?(?P<v>(?:{IMPERATIVES_EN}) .{{3,120}}?),? (?:{LASTING_EN}"
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
            # "please" or not: a request on the form of what is written for the
            # speaker ("Use 24-hour time in everything you write for me").
            r"^(?:please,? )?(?P<v>(?:use|give|write|reply|answer|format|express|keep|show|convert|stick to"
            r"|quote) (?:me |all |my |the )?(?:[\w-]+ ){0,3}?(?:units?|format|style|dates?|times?|measurements?"
            r"|currency|temperatures?|distances?|prices?|amounts?|weights?|answers?|replies|code|indentation"
            r"|spelling|variables?|bullet points?)\b.{0,80}?)(?:,? please)?[.!]?$"
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
            r"\b(?:use|using|(?:I'm|I am) used to|prefer|give|show|want|stick to|switch to|switched to|in|into|convert)\b[^.!?]{0,30}?"
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
    # The clock the speaker lives by: "I'm on Pacific time", "we're on Berlin time".
    Rule(
        "timezone",
        cased(r"\b(?:I'm|I am|[Ww]e're|[Ww]e are) on (?P<v>[A-Z][\w]+(?: [A-Z][\w]+)?) [Tt]ime\b"),
        "phrase",
        "attribute",
        "slow",
        0.65,
    ),
    # Code conventions: "we use tabs, not spaces, in all our Go code".
    Rule(
        "code_convention",
        icase(
            r"(?:\b(?:we|I) (?:always |only |now )?(?:use|write|indent with|format with|prefer|stick to|switched to) |^)"
            r"(?P<v>[^.!?;]{2,60}?),? (?:in|for) (?:all |every )?(?:of )?(?:our|my|the) (?P<ctx2>(?:[\w#+.-]+ ){0,3}?"
            r"(?:code|codebase|repos?|repositories|projects?|files|scripts|services|makefiles?|dockerfiles?|configs?|tests?))\b"
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
