"""Facts stated as the event that began them, English and French.

People say when something began more often than that it holds: "I started
a new job at Google two weeks ago", "I got married last year", "j'ai adopté
un chien le mois dernier", "je me suis installée à Nantes". The event's
verb says which fact now holds (the employer, the relationship status, the
pet, the home city), and its time (read by ``when``) says since when.
"""

from __future__ import annotations

from .fragments import (
    CAP_SEQ,
    DAYS_EN,
    END,
    MONTHS_EN,
    OCCUPATION_MODIFIERS,
    OCCUPATIONS_EN,
    OCCUPATIONS_FR,
    PET_KINDS,
    PHRASE,
    Rule,
    cased,
    icase,
)
from .lexicon import ACTIVITY_EN, BREED, PET_MODIFIERS, PET_YOUNG

_PET_KINDS_FR = (
    r"chien|chienne|chat|chatte|chiot|chaton|lapin|hamster|perroquet|cheval|tortue|furet"
)
# A pet named in the sentence is read by the relation rules ("a dog named Rex").
_UNNAMED = (
    r"\b(?![^.!?]*?\b(?:named|called|qui s'appelle|nommée?|appelée?|prénommée?|(?:his|her|its) name"
    r"|(?:il|elle) s'appelle)\b)"
)
_RECENTLY = r"(?:just |recently |finally |officially )?"
_RECENTLY_FR = r"(?:enfin |récemment |officiellement )?"
# The speaker, said or dropped ("Finally bought a car", "Started learning Japanese"),
# or "we": a purchase, a pet or a new start is often shared ("we bought a
# house"), where the speaker of patterns_changes and patterns_ties is "I" alone.
_ME = r"(?:\b(?:I|we)(?:'ve| have)? |^)"
_CALENDAR = (
    rf"{DAYS_EN}|{MONTHS_EN}|Easter|Christmas|Xmas|New Year|Thanksgiving|Halloween|Passover|Eid"
    r"|Diwali|Hanukkah|Ramadan|Lent|Midsummer"
)
# A title after a promotion: a known job, or a rank word and what it heads.
_RANK_EN = (
    rf"(?:(?:{OCCUPATION_MODIFIERS}) )?(?:{OCCUPATIONS_EN})"
    r"|(?:team|tech|group|squad) lead(?:er)?|head of [a-z]+(?: [a-z]+)?|(?:senior |junior )?[a-z]+ manager"
    r"|director(?: of [a-z]+)?|partner|supervisor|foreman|chief [a-z]+ officer"
)
_RANK_FR = (
    rf"(?:{OCCUPATIONS_FR})(?: (?:de|d'|du|des) ?[a-zà-ÿ']+)?"
    r"|responsable(?: (?:de |d'|du |des )?[a-zà-ÿ']+)?|manager|cheffe? d'équipe"
)

# A pet, a number, a job or a cold one gets is no thing one owns; "a border
# collie puppy" is a pet however it is described.
_NOT_OWNED = (
    rf"(?!(?:new |second |third )?(?:(?:{PET_KINDS})\b|(?:{BREED})\b|(?:phone |mobile )?number\b"
    r"|e-?mail|job\b|position\b|role\b|promotion\b|raise\b|cold\b|flu\b|ticket)"
    rf"|[^,.;!?]*\b(?:{PET_KINDS})\b)"
)

EVENTS_CORE: tuple[Rule, ...] = (
    Rule(
        "employer",
        cased(
            rf"\bI(?:'ve| have)? {_RECENTLY}(?:started|began|got|landed|accepted|took) (?:a |my )?(?:new )?"
            rf"(?:job|position|role|internship|gig) (?:at|with) (?P<v>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "employer",
        cased(rf"\bI(?:'ve| have)? {_RECENTLY}joined (?P<v>{CAP_SEQ}) as an? "),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "relationship_status",
        icase(
            rf"\b(?:I|we)(?:'ve| have)? {_RECENTLY}got (?P<v>married|engaged|divorced|separated)\b"
            rf"|\bje me suis {_RECENTLY_FR}(?P<v2>mariée?|fiancée?|pacsée?|séparée?)\b"
        ),
        "word",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "occupation",
        icase(rf"\bI(?:'ve| have)? {_RECENTLY}became an? (?P<v>(?:{OCCUPATIONS_EN}))\b"),
        "occupation",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "learning",
        icase(
            rf"\bI(?:'ve| have)? {_RECENTLY}(?:started|began) (?:learning|studying) (?P<v>{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "volatile",
        0.65,
    ),
    Rule(
        "pet",
        icase(
            rf"{_ME}{_RECENTLY}(?:adopted|got|rescued) (?:a|an|two|a new) {PET_MODIFIERS}"
            rf"(?P<v>{PET_KINDS}|{BREED}){PET_YOUNG}{_UNNAMED}"
        ),
        "phrase",
        confidence=0.65,
    ),
    Rule(
        "owns",
        icase(
            rf"\b(?:I|we)(?:'ve| have)? {_RECENTLY}(?:bought|purchased|got) (?:a|an|my first|a new) "
            rf"{_NOT_OWNED}(?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.55,
    ),
    # French.
    Rule(
        "home_city",
        cased(
            rf"\b(?:[Jj]'ai {_RECENTLY_FR}(?:emménagé|déménagé)|[Jj]e me suis {_RECENTLY_FR}installée?|"
            rf"[Nn]ous (?:avons|nous sommes) (?:emménagé|déménagé|installés)) (?:à|a) (?P<v>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "employer",
        cased(
            rf"\b[Jj]'ai {_RECENTLY_FR}(?:commencé|décroché|accepté|trouvé) (?:un |mon )?(?:nouveau )?"
            rf"(?:travail|poste|job|boulot|stage|emploi) (?:chez|à|au|dans) (?P<v>{CAP_SEQ})"
            rf"|\b[Jj]'ai {_RECENTLY_FR}rejoint (?P<v2>{CAP_SEQ}) (?:comme|en tant que)"
        ),
        "org",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "hobby",
        icase(
            rf"\bj'ai {_RECENTLY_FR}(?:commencé|repris|débuté) (?:le |la |les |l')(?P<v>{PHRASE}){END}"
            rf"|\bje me suis {_RECENTLY_FR}mise? (?:au |à la |à l'|aux )(?P<v2>{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "learning",
        icase(rf"\bj'ai {_RECENTLY_FR}commencé à apprendre (?:le |la |l')?(?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "volatile",
        0.65,
    ),
    Rule(
        "pet",
        icase(
            rf"\b(?:j'ai|nous avons|on a) {_RECENTLY_FR}adopté (?:un|une|deux) {PET_MODIFIERS}"
            rf"(?P<v>{_PET_KINDS_FR}|{BREED}){PET_YOUNG}{_UNNAMED}"
        ),
        "phrase",
        confidence=0.65,
    ),
    Rule(
        "member_of",
        icase(rf"\bj'ai {_RECENTLY_FR}rejoint (?:un |une |le |la |l')(?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
)

# Milestones of everyday life read by their verb: a promotion gives the new
# title, a purchase the thing owned, a diagnosis the allergy, a birth the
# child, a move between places the arrival, a team change the team. The
# time ("last week", "avant-hier") has been cut out by ``readings`` and
# comes back as the fact's ``said_when``.
MILESTONES: tuple[Rule, ...] = (
    Rule(
        "occupation",
        icase(
            rf"{_ME}(?:just |finally |officially )?(?:got |was |been |have been |'ve been )?"
            rf"promoted (?:to |as )(?:an? |the )?(?P<v>{_RANK_EN})\b"
            rf"|\bI(?:'ve| have)? (?:got|landed|started|took) (?:a |my |the )?(?:new )?(?:job|position|role)"
            rf" as an? (?P<v2>(?:(?:{OCCUPATION_MODIFIERS}) )?(?:{OCCUPATIONS_EN}))\b"
            rf"|(?:{_ME})?(?:started|began) (?:at|with) [A-Z][\w'&-]+(?: [A-Z][\w'&-]+)* as an? "
            rf"(?P<v3>(?:(?:{OCCUPATION_MODIFIERS}) )?(?:{OCCUPATIONS_EN}))\b"
        ),
        "occupation",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "occupation",
        icase(
            rf"\bj'ai {_RECENTLY_FR}été promue? (?:au poste de |comme )?(?P<v>{_RANK_FR})\b"
            rf"|\bje suis (?:maintenant |désormais )?(?:passée?|devenue?) (?P<v2>{_RANK_FR})\b"
            rf"|\bj'ai eu une promotion\b[^.!?]*?\bje suis (?:maintenant |désormais )?(?P<v3>{_RANK_FR})\b"
        ),
        "occupation",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "employer",
        cased(
            rf"(?:\b(?:I|we)(?:'ve| have)? |^)(?:[Ss]tarted|[Bb]egan|[Ll]anded a job|[Gg]ot a job(?: as an? [a-z ]+?)?)"
            # "I started at Easter": a time is no employer.
            rf" (?:at|with) (?!(?:{_CALENDAR})\b)(?P<v>{CAP_SEQ})"
            rf"|\b[Jj]'ai {_RECENTLY_FR}été (?:embauchée?|recrutée?|prise?) (?:chez|à|par) (?P<v2>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "owns",
        icase(
            rf"{_ME}(?:just |finally |recently |officially )?(?:bought|purchased|got|picked up|closed on)"
            # The value keeps its "new" or "used", as the rule above reads "a new car".
            r" (?:myself |ourselves )?(?:a|an|my first|our first|my new|our new) "
            rf"{_NOT_OWNED}(?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.55,
    ),
    Rule(
        "owns",
        icase(
            rf"\b(?:j'ai|on a|nous avons|je me suis|on s'est) {_RECENTLY_FR}(?:acheté|achetée|achetés|offert|payé)"
            r" (?:un|une|notre|mon|ma|nos) (?:premier |première |nouveau |nouvelle |petit |petite )?"
            rf"(?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.55,
    ),
    Rule(
        "allergy",
        icase(
            r"\b(?:found out|learned|learnt|discovered|turns out|it turns out|realised|realized)"
            r"(?: that)? I(?:'m| am) (?:also )?allergic to (?P<v>[a-z][\w -]{1,30}?)\b(?=\s*(?:[,.;:!?]|$|and\b|so\b))"
            r"|\bdiagnosed with (?:an? )?(?P<v2>[a-z]+) allergy\b"
        ),
        "phrase",
        volatility="stable",
        confidence=0.7,
    ),
    Rule(
        "allergy",
        icase(
            r"\bj'ai (?:découvert|appris) que j'(?:étais|suis) allergique (?:aux |au |à la |à l')"
            r"(?P<v>[\wà-ÿ -]{2,30}?)\b(?=\s*(?:[,.;!?]|$))"
            r"|\bje suis (?:devenue? )?allergique (?:aux |au |à la |à l')(?P<v2>[\wà-ÿ-]{2,30})"
            r"(?= depuis\b|\s*[,.;!?]|$)"
            # "on m'a diagnostiqué une allergie au latex", "j'ai une allergie aux arachides".
            r"|\b(?:j'ai|je fais|on m'a (?:diagnostiqué|découvert|trouvé)) une allergie (?:aux |au |à la |à l')"
            r"(?P<v3>[\wà-ÿ-]{2,30})(?=\s*[,.;!?]|$| depuis\b)"
        ),
        "phrase",
        volatility="stable",
        confidence=0.7,
    ),
    Rule(
        "",
        cased(
            r"\b(?i:(?:my (?:wife|partner|girlfriend) )?gave birth to (?:our|my|a) (?:baby |little )?(?P<rel>daughter|son))"
            r",? (?P<v>[A-ZÀ-Ý][\w'-]+)"
        ),
        "name",
        "attribute",
        confidence=0.7,
    ),
    Rule(
        "daughter",
        cased(r"\b(?:[Nn]otre|[Mm]a) fille (?P<v>[A-ZÀ-Ý][\w'-]+) est née\b"),
        "name",
        "attribute",
        confidence=0.7,
    ),
    Rule(
        "son",
        cased(
            r"\b(?:[Nn]otre|[Mm]on) fils (?P<v>[A-ZÀ-Ý][\w'-]+) est né\b"
            r"|\b(?:[Oo]n a eu|[Nn]ous avons eu|[Jj]'ai eu) un (?:petit )?(?:garçon|bébé garçon)\b[^.!?]*?"
            r"\b(?:il s'appelle|prénommé) (?P<v2>[A-ZÀ-Ý][\w'-]+)"
        ),
        "name",
        "attribute",
        confidence=0.7,
    ),
    Rule(
        "daughter",
        cased(
            r"\b(?:[Oo]n a eu|[Nn]ous avons eu|[Jj]'ai eu) une (?:petite )?fille\b[^.!?]*?"
            r"\b(?:elle s'appelle|prénommée) (?P<v>[A-ZÀ-Ý][\w'-]+)"
        ),
        "name",
        "attribute",
        confidence=0.7,
    ),
    # A rule's value groups are ``v``, ``v2`` and ``v3``: English and French apart.
    Rule(
        "home_city",
        cased(
            r"(?:\b(?:I|[Ww]e)(?:'ve| have)? |^)(?:[Mm]oved|[Rr]elocated) from (?:the )?[A-Z][\w'-]+(?: [A-Z][\w'-]+)*"
            rf" to (?:the )?(?P<v>{CAP_SEQ})"
            rf"|\b(?:[Mm]oved|[Rr]elocated) to (?P<v2>{CAP_SEQ}) for (?:work|my job|a job)"
            rf"|\b(?:[Mm]oved in together)[^.!?]*?, in (?P<v3>{CAP_SEQ})\s*$"
        ),
        "place",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "home_city",
        cased(
            rf"\b(?:[Oo]n a|[Nn]ous avons|[Jj]'ai) (?:déménagé|quitté) (?:de |d')?[A-ZÀ-Ý][\w'-]+(?: [A-ZÀ-Ý][\w'-]+)*"
            rf" (?:à|a|pour) (?P<v>{CAP_SEQ})"
            rf"|\b(?:[Oo]n s'est|[Nn]ous nous sommes) installée?s (?:à|a) (?P<v2>{CAP_SEQ})"
            rf"|\b[Jj]'ai {_RECENTLY_FR}emménagé dans (?:le |la |l')(?P<v3>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.7,
    ),
    # A pet brought in and named later in the same sentence: "Adopted a cat
    # from the shelter, named her Luna", "on a pris un chiot, un beagle qui
    # s'appelle Filou".
    Rule(
        "pet",
        cased(
            r"(?:\b(?:I|[Ww]e)(?:'ve| have)? |^)(?i:(?:just |finally )?(?:adopted|got|rescued|brought home))"
            rf" (?i:(?:a|an|our|my) (?:[a-z]+ ){{0,2}}(?:{PET_KINDS}|{BREED}))\b[^.!?]*?"
            r"(?i:named (?:him|her|it)|(?:he|she|it)(?:'s| is) called|called|named) (?P<v>[A-ZÀ-Ý][\w'-]+)"
            r"|\b(?i:(?:on a|nous avons|j'ai) (?:enfin )?(?:adopté|pris|recueilli|ramené))"
            rf" (?i:(?:un|une) (?:[a-zà-ÿ]+ ){{0,2}}(?:{_PET_KINDS_FR}|{BREED}))\b[^.!?]*?"
            r"(?i:qui s'appelle|(?:il|elle) s'appelle|nommée?|appelée?) (?P<v2>[A-ZÀ-Ý][\w'-]+)"
        ),
        "name",
        confidence=0.7,
    ),
    # Studies begun, named by their school or diploma: "started nursing
    # school" → "nursing student", "j'ai commencé ma thèse en chimie",
    # "je suis en prépa", "je suis en fac de droit".
    Rule(
        "occupation",
        icase(
            rf"{_ME}(?:just |finally )?(?:started|began|enrolled in|got into|went back to) (?:the )?"
            r"(?P<v>nursing|medical|med|law|art|film|drama|business|dental|vet|veterinary|engineering"
            r"|culinary|cooking|design|music|graduate|grad|architecture|pharmacy) school\b"
        ),
        "study",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "occupation",
        icase(
            r"\bj'ai (?:commencé|attaqué|entamé) (?:ma|mon|une|un) (?:thèse|doctorat|licence|master|bts|dut|prépa)"
            r" (?:en |de |d')(?P<v>[a-zéèêàç][\w'-]+)\b"
            r"|\bje suis (?:en|à la) fac (?:de |d')(?P<v2>[a-zéèêàç][\w'-]+)\b"
            r"|\bje suis en (?P<v3>prépa|fac|licence|master|bts|dut)(?=\s*(?:[,.;!?]|$))"
        ),
        "study_fr",
        volatility="slow",
        confidence=0.65,
    ),
    # The person one marries or gets engaged to, named beside the event.
    Rule(
        "spouse",
        cased(
            r"\b(?P<v>[A-ZÀ-Ý][\w'-]+) and I (?:just |finally )?got married\b"
            r"|\b[Jj]e me suis (?:enfin )?mariée? avec (?P<v2>[A-ZÀ-Ý][\w'-]+)"
        ),
        "name",
        "attribute",
        "slow",
        0.7,
    ),
    Rule(
        "partner",
        cased(
            r"\b(?P<v>[A-ZÀ-Ý][\w'-]+) and I (?:just |finally )?got engaged\b"
            r"|\b[Jj]e me suis (?:enfin )?fiancée? (?:avec|à) (?P<v2>[A-ZÀ-Ý][\w'-]+)"
        ),
        "name",
        "attribute",
        "slow",
        0.7,
    ),
    Rule(
        "member_of",
        icase(
            r"\bI(?:'ve| have)? (?:moved|switched|transferred) to the (?P<v>[a-z]+ team)\b"
            r"|\bje suis (?:passée?|arrivée?) dans l'(?P<v2>équipe [a-zà-ÿ]+)\b"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "hobby",
        icase(
            rf"(?:\bI(?:'ve| have) |^)been (?:going to the (?P<v>gym)|(?P<v2>{ACTIVITY_EN})(?= to work| every| since))\b"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "learning",
        icase(
            r"^(?:just |finally )?(?:started|began) (?:learning|studying) (?P<v>[A-Z][a-zà-ÿ]+)\b"
            r"|\bj'ai commencé (?:à apprendre |l')(?P<v2>(?:anglais|espagnol|allemand|italien|portugais|russe"
            r"|chinois|japonais|coréen|arabe|néerlandais|suédois|grec|turc|polonais))\b"
        ),
        "phrase",
        "preference",
        "volatile",
        0.65,
    ),
)

EVENTS: tuple[Rule, ...] = (*EVENTS_CORE, *MILESTONES)
