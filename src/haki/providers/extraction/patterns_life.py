"""Life events and everyday settings read from their structure, English and French.

A subject, a verb of a life event and its object say which fact now holds:
adopting or getting a pet *named X* (the pet is X), marrying someone (the
spouse), a first day or a start somewhere (the employer), switching to a
diet, buying a thing; a contact detail given beside its topic word ("I
changed my number, it's now …"); units named by their measures
("distances in kilometres"); schedules and code conventions in French.
``readings`` has already cut out the time and said a shared subject as the
speaker, so these rules read the bare statement.
"""

from __future__ import annotations

from .fragments import (
    CAP,
    CAP_SEQ,
    EMAIL,
    END,
    OCCUPATIONS_FR,
    PHONE,
    PHRASE,
    RELATIONS_EN,
    Rule,
    cased,
    icase,
)
from .lexicon import BREED, PET_KINDS_EN, PET_KINDS_FR, PET_MODIFIERS, PET_YOUNG
from .vocabulary import DIET_WORDS

_NAMED_EN = (
    r"(?:,? (?:who(?:'s| is) )?(?:named|called)|,? (?:and )?(?:we|I) (?:named|called) (?:him|her|it)"
    r"|,? (?:his|her|its) name(?: is|'s)|,? (?:he|she|it)(?:'s| is) (?:called|named))"
)
_NAMED_FR = r"(?:,? (?:qui s'appelle|nommée?|appelée?|prénommée?|(?:il|elle) s'appelle))"
# The work a sentence is about, so "I joined Stellantis" or "je suis chez
# SFR" names an employer, not a club or someone's home.
_WORK_EN = r"(?=.*\b(?:work\w*|jobs?|company|employer|hired|quit|left|career|resigned|laid off)\b)"
# A tenure said right after the place ("chez Thales depuis 2020", "depuis
# trois ans", "depuis l'an dernier"), not a stay ("chez Paul depuis lundi").
_TENURE_FR = (
    r"(?= depuis (?:\d{4}|(?:\w+ )?(?:ans?|années?|mois)\b|l'an\b|l'année\b|le mois\b|(?:janvier|février"
    r"|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre)\b))"
)
_WORK_FR = (
    r"(?=.*\b(?:travail\w*|boulot|job|poste|entreprise|bosse|quitté|embauchée?|démissionn\w*"
    r"|licenciée?)\b)"
)

LIFE: tuple[Rule, ...] = (
    Rule(
        "",
        cased(
            # The subject may be dropped: "got a puppy last week, his name is Bo".
            r"(?:\b(?i:(?:I|we)(?:'ve| have)? )|^)(?i:(?:just |recently |finally )?"
            r"(?:adopted|got|rescued|welcomed|brought home|picked up) (?:a|an|our|my|a new|a little|a tiny)"
            rf"(?: \w+)?? (?P<rel>{PET_KINDS_EN}|{BREED}){PET_YOUNG}{_NAMED_EN}) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    Rule(
        "",
        cased(
            r"\b(?i:(?:j'ai|nous avons|on a) (?:(?:enfin |récemment )?(?:adopté|eu|recueilli|accueilli|acheté|récupéré|pris) )?"
            rf"(?:un|une) {PET_MODIFIERS}(?P<rel>{PET_KINDS_FR}|{BREED}){PET_YOUNG}{_NAMED_FR}) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    Rule(
        "",
        cased(
            r"\b(?i:(?:our|my) (?P<rel>daughter|son) was born\b[^.!?]{0,40}?\b(?:we|I) "
            r"(?:named|called) (?:her|him)) (?P<v>" + CAP + r")\b"
        ),
        "name",
        confidence=0.7,
    ),
    Rule(
        "",
        cased(
            r"\b(?i:(?:I|we) (?:just )?(?:had|welcomed) (?:a|our) (?:baby )?(?P<rel>boy|girl|son|daughter)"
            rf"(?: \w+ \w+)??{_NAMED_EN}) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.7,
    ),
    Rule("spouse", cased(rf"\bI (?:just )?(?:married|wed) (?P<v>{CAP})\b"), "name", confidence=0.7),
    Rule("spouse", cased(rf"\b[Jj]'ai épousé (?P<v>{CAP})\b"), "name", confidence=0.7),
    Rule(
        "relationship_status",
        icase(
            r"\b(?:on s'est|nous nous sommes) (?:enfin )?"
            r"(?P<v>mariée?s|fiancée?s|pacsée?s|séparée?s)\b"
        ),
        "word",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "diet",
        icase(
            r"\bI(?:'ve| have)? (?:just |recently )?(?:switched to|went|gone|turned|changed to|moved to)"
            rf" (?:a |an )?(?:fully )?(?P<v>{DIET_WORDS})(?: diet)?\b"
            rf"|\bje suis (?:passée?|devenue?) (?:au |à l'|à une alimentation )?(?P<v2>{DIET_WORDS})\b"
        ),
        "diet",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "employer",
        cased(
            rf"\b[Mm]y (?:first (?:day|week) (?:at|with) (?:my new job at )?|new job (?:at|with) )"
            rf"(?P<v>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "employer",
        cased(
            # "Hired as a data scientist at Criteo": the speaker dropped, the job between.
            rf"(?:\bI (?:was|got|have been|'ve been) (?:just )?|^(?:[Jj]ust |[Ff]inally )?)(?i:hired)"
            rf"(?: as an? [a-z]+(?: [a-z]+){{0,2}})? (?:by|at) (?P<v>{CAP_SEQ})"
            rf"|\b[Jj]'ai été (?:embauchée?|recrutée?|engagée?) (?:chez|par|à) (?P<v2>{CAP_SEQ})"
            rf"|\b[Jj]'ai (?:intégré|rejoint) (?P<v3>{CAP_SEQ})(?= (?:en|il y a|le|la|l'|depuis|comme|en tant)\b|[.!,]|$)"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "home_city",
        cased(rf"\bI(?:'ve| have) (?:lived|been living) in (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "employer",
        # "… and I've been at Booking ever since": since the change told
        # before. "I've been at X" alone may be a visit or a person ("with
        # Tom"); its tenure is read by frame (``patterns_status``).
        cased(
            rf"\bI(?:'ve| have) been (?:(?:working )?(?:at|with) (?P<v>{CAP_SEQ})(?=\s+ever since\b)"
            rf"|working (?:at|with) (?P<v2>{CAP_SEQ})(?=\s*[.!]?$))"
        ),
        "org",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "employer",
        cased(
            # "I left Google last year and joined OpenAI": the subject said once.
            rf"^{_WORK_EN}.*?(?:(?:\bI(?:'ve| have)? |\band |\bthen )(?:just |recently )?joined"
            r"|\bI(?:'m| am) (?:now )?(?:at|with))"
            rf" (?P<v>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "employer",
        cased(
            rf"\b[Jj]'ai (?:enfin )?commencé (?:à (?:travailler|bosser) )?chez (?P<v>{CAP_SEQ})"
            rf"|\b[Jj]e (?:bosse|taffe|travaille) (?:maintenant |désormais )?(?:chez|pour) (?:la |le |l')?(?P<v2>{CAP_SEQ})"
            # "chez X" with work said in the sentence, or held for a tenure
            # said of that place: "je suis chez Paul ce soir, on se connaît
            # depuis 10 ans" is a visit.
            rf"|^{_WORK_FR}.*?\b[Jj]e suis (?:maintenant |désormais )?chez (?P<v3>{CAP_SEQ})"
            rf"|\b[Jj]e suis (?:maintenant |désormais )?chez (?P<v4>{CAP_SEQ}){_TENURE_FR}"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "owns",
        icase(
            r"\b(?:j'ai|nous avons|on a) (?:enfin )?acheté (?:un|une|mon premier|ma première|un nouveau"
            rf"|une nouvelle) (?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.55,
    ),
    Rule(
        "occupation",
        icase(rf"\bje suis devenue? (?:un |une )?(?P<v>{OCCUPATIONS_FR})\b"),
        "occupation",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "home_city",
        cased(
            rf"\bI(?:'ve| have)? (?:just |recently )?(?:relocated|settled|moved(?: in together| back| over| out)?)"
            rf" (?:to|in) (?P<v>{CAP_SEQ})"
            rf"|\bI(?:'m| am) (?:now (?:living )?in (?P<v2>{CAP_SEQ})|(?:living )?in (?P<v3>{CAP_SEQ}) now\b)"
            # A home moved into, in its city: "moved into our new flat in Bristol",
            # "emménagé dans un nouvel appart à Lyon".
            rf"|\b(?:I(?:'ve| have)? (?:just |finally |recently )?moved|(?:j'ai|on a|nous avons) emménagé) (?:into|dans) (?:an?|our|my|the|un|une|notre|mon|ma|le|la|l')"
            r" (?:(?:new|first|little|tiny|nouvel|nouveau|nouvelle|premier|premi[eè]re|petit|petite) )?"
            r"(?i:flat|apartment|house|place|home|condo|studio|loft|townhouse|appart|appartement|maison|logement)"
            rf" (?:in|à|a) (?P<v4>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "age",
        icase(r"^(?=.*\b(?:birthday|anniversaire)\b).*?\bI(?:'m| am) (?:now )?(?P<v>\d{1,2})\b"),
        "number",
        volatility="slow",
        confidence=0.7,
    ),
    # A contact detail beside its topic word and the speaker's own words for
    # it; an address data is sent to ("send it to …", "email my notes to …")
    # is no contact detail.
    Rule(
        "email",
        icase(
            r"^(?=.*\b(?:e-?mails?|mail|address(?:es)?|adresse|courriel)\b)"
            r"(?!.*\b(?:send|forward|envoie|envoyer|transf\w+|cc|bcc|copy|copie)\b)"
            # "email my calendar to …": the verb, whose address is a destination
            # ("mail a changé" is the French auxiliary, not an article).
            r"(?!.*\b(?:e-?mail|mail)\s+(?:my|the|a(?! \w+é\b)|an|our|your|this|that|these|those"
            r"|all|every|each)\b)"
            # Someone else's address: "email my boss at …", "my sister's email".
            rf"(?!.*\b(?:{RELATIONS_EN}|boss|manager|colleague|coworker|friend|him|her|them"
            r"|patron|chef|collègue|ami|amie)\b)"
            r"(?=.*\b(?:my|mon|ma|use|new|nouvelle|nouveau|changed|switched|changé)\b)"
            rf"[^@]*?(?P<v>{EMAIL})"
        ),
        "email",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "phone",
        icase(
            r"^(?=.*\b(?:phone|number|numéro|portable|mobile|cell)\b)"
            r"(?!.*\b(?:call|appelle|text|send|envoie|dial)\b)"
            r"(?=.*\b(?:my|mon|ma|new|nouveau|changed|changé)\b)"
            rf"[^\d+]*?(?P<v>{PHONE})"
        ),
        "phone",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "units",
        icase(
            r"\b(?:in|use|using|prefer|want|utilise[rz]?|préfère|veux|en)\b[^.!?]{0,30}?"
            # "lost 6 kilos" is a quantity, not the system one wants.
            r"(?<!\d)(?<!\d )\b(?P<v>kilomet(?:re|er)s|kilograms?|kilos|centimet(?:re|er)s|celsius|miles|pounds|feet"
            r"|inches|fahrenheit|métrique|impérial|kilomètres|kilogrammes)\b"
        ),
        "word",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "schedule",
        icase(
            r"^(?:merci de ne |s'il te plaît,? )?(?P<v>pas de (?:réunions?|appels?|rendez-vous|mails?"
            r"|messages?|notifications?|travail) (?:avant|après|le|les|pendant|à partir de) [^.!?,]{1,40}?)"
            r"(?:,? merci|,? s'il te plaît|,? stp)?[.!]?$"
            r"|\bje ne (?:prends|fais|programme|accepte) (?:pas|jamais|plus) (?P<v2>d'(?:appels?|réunions?)"
            r" (?:avant|après|le|les|pendant) [^.!?,]{1,40}?)(?=[.!,;]|$)"
        ),
        "clause",
        "preference",
        "slow",
        0.65,
    ),
    Rule(
        "code_convention",
        icase(
            r"\b(?:on|nous) (?:met|mettons|utilise|utilisons|indente|écrit|écrivons)"
            r" (?:des |les |le |la |l')?(?P<v>[^.!?;]{2,60}?),?"
            r" (?:dans|pour) (?:tout |tous |toute |toutes )?(?:notre|nos|mon|mes|le|les)"
            r" (?P<ctx2>(?:code|projets?|dépôts?|scripts|fichiers)(?: [\w#+.-]+){0,2})"
        ),
        "clause",
        "instruction",
        "stable",
        0.65,
    ),
)
