"""Work status and activities said as an event or a duration, read by frame (EN/FR).

People rarely say "my employer is Spotify"; they say "I've been at Spotify
for two years", "ive been freelancing as a translator", "I registered my
own company, it's called Lantern Works", "j'ai signé mon CDI chez Airbus",
"started volunteering at the food bank". Each rule here is one frame:

- the speaker as subject, said ("I", "we", "je", "on") or dropped at the
  start of the sentence, never someone else ("my husband has been at …");
- an aspect that states the thing as begun or lasting (an event verb in the
  past, or a perfect: "have been …ing"), never a modal or a plan (the
  engine skips hedged clauses; "want to", "going to" match no aspect);
- an object typed by what it must mean: an organisation (a capitalised
  name, with a tenure or a work cue when the verb alone does not say work),
  a known occupation, an activity, a known place.

Their time ("for two years", "since february", "last thursday") is cut out
by ``readings`` and comes back as ``said_when``. Costs: a long stay said
like a tenure ("been at Disneyland for two weeks": a tenure needs months
or years), a return from a trip (a return needs a cue that it lasts).
"""

from __future__ import annotations

from dataclasses import replace

from .fragments import (
    CAP_SEQ,
    END,
    OCCUPATION_MODIFIERS,
    OCCUPATIONS_EN,
    OCCUPATIONS_FR,
    PHRASE,
    Rule,
    cased,
    icase,
)
from .types import Candidate

# The speaker, said or dropped at the start of the sentence.
_I = r"(?:\b(?i:I|we) |^)"
_I_PERFECT = r"(?:\b(?i:I|we)(?:'ve| have) |^(?i:been) )"
_RECENTLY = r"(?:just |recently |finally |officially )?"
# The aspect of a state that has begun and lasts: "have been …ing", "started …ing".
_LASTING = rf"(?:{_I_PERFECT}(?i:been )?|{_I}{_RECENTLY}(?i:started|began) )"
# Work done at a place: "been teaching at Lincoln High", "working remotely for Shopify".
_WORKING = (
    r"(?:working|employed|teaching|interning|nursing|coding|freelancing|contracting)"
    r"(?: remotely| full-time| part-time| full time| part time)?"
)
# A tenure of months or years ("for two years", "since 2021"), or the work
# done there ("backend mostly", "as a designer"): "been at Spotify" is a job.
_TENURE = (
    r"(?=,? (?:for (?:about |almost |nearly |over |more than |like |around )?"
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+)"
    r" (?:years?|months?|yrs?)\b|now,? (?:as|on|in|doing|working)\b"
    # Since a day or an hour is a visit: "at Heathrow since 6am".
    r"|since (?!\d{1,2}(?::\d\d)?\s?(?:am|pm|h)\b|this |yesterday|last night|earlier|noon|midnight"
    r"|mon|tue|wed|thu|fri|sat|sun))"
    r"|,? (?:as an? |on the \w+ team\b|(?:doing |mostly |working on )?(?:backend|frontend|sales"
    r"|marketing|engineering|product|design|support|data|devops|ops)\b))"
)
_OCCUPATION = rf"(?:(?:{OCCUPATION_MODIFIERS}) )?(?:{OCCUPATIONS_EN})"
_BUSINESS_EN = (
    r"(?:company|business|startup|start-up|firm|agency|studio|consultancy|practice|shop|bakery"
    r"|café|cafe|restaurant|llc|ltd)"
)
_BUSINESS_FR = (
    r"(?:boîte|boite|entreprise|société|start-?up|agence|cabinet|auto-entreprise|micro-entreprise"
    r"|boutique|restaurant|studio)"
)
# Up to three words of a place said in lower case ("osaka", "new york"): the
# value checker keeps the longest leading words that name a known place.
_LOWER_PLACE = r"[a-zà-ÿ][\w'-]+(?: [a-zà-ÿ][\w'-]+){0,2}"
# Where a named activity's place ends: its days or times are a schedule of their own.
_UNTIL_DAYS = rf"(?:(?=\s+(?:on|every|each|twice|once|for|since|le|les|tous)\b)|{END})"

STATUS: tuple[Rule, ...] = (
    Rule(
        "employer",
        # "I've been at Spotify for two years now", "been working at Nokia since 2021".
        cased(rf"{_I_PERFECT}(?i:been )?(?i:{_WORKING} (?:at|for)|at) (?P<v>{CAP_SEQ}){_TENURE}"),
        "org",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "employer",
        # A job begun, however it is qualified: "got my first job as a barista at Starbucks".
        cased(
            rf"{_I}(?i:{_RECENTLY}(?:got|landed|started|took|accepted|began) (?:a|an|my|the) "
            r"(?:(?:first|new|full-time|part-time|summer|permanent) )*(?:job|position|role|gig"
            r"|internship|placement)(?: as an? [a-z]+(?: [a-z]+){0,2}?)? (?:at|with)) (?P<v>"
            + CAP_SEQ
            + ")"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "occupation",
        # "ive been freelancing as a translator", "started working as a nurse".
        icase(
            rf"{_LASTING}(?:working|freelancing|contracting|temping|employed) as (?:an? )?"
            rf"(?P<v>{_OCCUPATION})\b"
            rf"|{_I}{_RECENTLY}(?:got|landed|started|took|accepted) (?:a|an|my|the) (?:(?:first|new|full-time"
            rf"|part-time|summer|permanent) )*(?:job|position|role) as (?:an? )?(?P<v2>{_OCCUPATION})\b"
            # The way of working said before the job: "je bosse en freelance comme traductrice".
            r"|\bje (?:bosse|travaille|taffe) (?:en (?:freelance|free|indépendante?|intérim)|à mon compte"
            rf"|à (?:temps partiel|mi-temps|plein temps)) (?:comme|en tant que) (?:une? )?(?P<v3>{OCCUPATIONS_FR})\b"
        ),
        "occupation",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "employer",
        # A business of one's own, by its name: "I registered my own company
        # last thursday, it's called Lantern Works"; "j'ai monté ma boîte, elle s'appelle Kiwi".
        cased(
            rf"{_I}(?i:{_RECENTLY}(?:registered|founded|co-founded|started|launched|set up|incorporated"
            rf"|opened|created) (?:my own|our own|my|our|a|an) (?:new |little |small |tiny )?{_BUSINESS_EN}"
            r"\b[^.!?]{0,40}?\b(?:called|named)) (?P<v>" + CAP_SEQ + ")"
            r"|\b(?i:(?:j'ai|on a|nous avons) (?:enfin |récemment |officiellement )?(?:créé|monté|fondé"
            rf"|lancé|ouvert|immatriculé) (?:ma|mon|notre|une|un) (?:propre |petite |petit )?{_BUSINESS_FR}"
            r"\b[^.!?]{0,40}?(?:s'appelle|appelée?|nommée?|baptisée?)) (?P<v2>" + CAP_SEQ + ")"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "employer",
        # A contract signed with the employer: "j'ai signé mon CDI chez Airbus".
        cased(
            rf"{_I}(?i:{_RECENTLY}signed (?:my|a|an|the) (?:new )?(?:employment |job |work )?"
            r"(?:contract|offer)(?: letter)? (?:with|at|from)) (?P<v>" + CAP_SEQ + ")"
            r"|\b(?i:j'ai (?:enfin |officiellement )?signé (?:mon|ma|un|une|le) (?:nouveau )?"
            r"(?:CDI|CDD|contrat(?: de travail)?|promesse d'embauche)(?: \w+)?? (?:chez|avec|à|au sein de"
            r"|pour)) (?P<v2>" + CAP_SEQ + ")"
            # A contract changed: "je suis passée en CDI chez Thales".
            r"|\b(?i:je suis (?:enfin )?(?:passée?|embauchée?|titularisée?) en (?:CDI|CDD) (?:chez|à"
            r"|au sein de)) (?P<v3>" + CAP_SEQ + ")"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "volunteers_at",
        # "started volunteering at the food bank on saturday mornings".
        icase(
            rf"{_LASTING}volunteering (?:at|with|for|in) (?:the |a |an )?(?P<v>{PHRASE}){_UNTIL_DAYS}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "home_city",
        # A known place said in lower case: "i moved to osaka a couple of months ago".
        cased(
            rf"{_I}(?:(?i:'ve|have) )?(?i:{_RECENTLY}(?:moved|relocated)(?: back| over)? to)"
            rf" (?P<v>{_LOWER_PLACE})"
            r"|\b(?i:(?:j'ai|on a|nous avons) (?:enfin |récemment )?(?:emménagé|déménagé)"
            rf"|je me suis installée?|on s'est installée?s|nous nous sommes installée?s) (?:à|a) (?P<v2>{_LOWER_PLACE})"
            # Where one lives, typed in lower case: "i live in denver", "j'habite à lyon".
            rf"|{_I}(?i:(?:'ve |have )?(?:been )?(?:currently |now )?(?:live|living) in) (?P<v3>{_LOWER_PLACE})"
            rf"|\b(?i:j'habite|je vis|j'vis|on habite|on vit|nous habitons|nous vivons) (?:à|a) (?P<v4>{_LOWER_PLACE})"
        ),
        "known_place",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "home_city",
        # A return that lasts: "je suis rentrée en Martinique après 10 ans à
        # Paris", "je suis revenu vivre à Lyon"; back from a trip is no move.
        cased(
            r"\b(?i:(?:je suis|on est|nous sommes) (?:enfin |finalement )?(?:rentrée?s?|revenue?s?"
            r"|retournée?s?)(?: (?:vivre|habiter|m'installer|nous installer))? (?:à|a|en|au|aux))"
            rf" (?P<v>{CAP_SEQ})(?=[^.!?]*?\b(?i:après (?:\d+|\w+) ans|pour de bon|définitivement))"
            r"|\b(?i:(?:je suis|on est|nous sommes) (?:enfin |finalement )?(?:rentrée?s?|revenue?s?"
            rf"|retournée?s?) (?:vivre|habiter|m'installer|nous installer) (?:à|a|en|au|aux)) (?P<v2>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.6,
    ),
)


# What a pastime's value is done as, in its schedule.
_DOING = {"volunteers_at": "volunteering at ", "learning": "learning "}


def pastime_schedule(found: list[Candidate], days: str) -> list[Candidate]:
    """A pastime said with its days, as a schedule: "volunteering at the food bank on saturday mornings".

    The habit reading gives the schedule of a habit said in the present
    ("I play tennis on saturday mornings"); a pastime said as begun
    ("started volunteering … about a month ago") is no habit to it, yet its
    days are a routine all the same, from the same moment.
    """
    out = []
    for cand in found:
        if cand.said_when is None:
            # Said in the present, a pastime is a habit: the habit reading's.
            continue
        said = f"{_DOING.get(cand.predicate, '')}{cand.value}"
        if days.lower() not in said.lower():
            said = f"{said} {days}"
        out.append(
            replace(
                cand,
                predicate="schedule",
                value=said,
                fact_kind="preference",
                volatility="slow",
            )
        )
    return out


def aside(sentence: str, at: int) -> bool:
    """Is ``at`` inside brackets: a detail ("(a tutor on tuesdays)"), not the pastime's days?"""
    return sentence.count("(", 0, at) > sentence.count(")", 0, at)
