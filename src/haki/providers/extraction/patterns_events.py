"""Facts stated as the event that began them, English and French.

People say when something began more often than that it holds: "I started
a new job at Google two weeks ago", "I got married last year", "j'ai adopté
un chien le mois dernier", "je me suis installée à Nantes". The event's
verb says which fact now holds (the employer, the relationship status, the
pet, the home city), and its time (read by ``when``) says since when.
"""

from __future__ import annotations

from .fragments import CAP_SEQ, END, OCCUPATIONS_EN, PET_KINDS, PHRASE, Rule, cased, icase
from .lexicon import BREED, PET_MODIFIERS, PET_YOUNG

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

EVENTS: tuple[Rule, ...] = (
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
            rf"(?:\b(?:I|we)(?:'ve| have)? |^){_RECENTLY}(?:adopted|got|rescued) (?:a|an|two|a new) {PET_MODIFIERS}"
            rf"(?P<v>{PET_KINDS}|{BREED}){PET_YOUNG}{_UNNAMED}"
        ),
        "phrase",
        confidence=0.65,
    ),
    Rule(
        "owns",
        icase(
            rf"\b(?:I|we)(?:'ve| have)? {_RECENTLY}(?:bought|purchased|got) (?:a|an|my first|a new) "
            # A pet, a number or a job one gets is no thing one owns.
            rf"(?!(?:new )?(?:(?:{PET_KINDS})\b|(?:phone |mobile )?number\b|e-?mail|job\b|position\b|role\b))"
            rf"(?P<v>{PHRASE}){END}"
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
