"""Changes of state and standing identities read by their structure, English and French.

A first-person verb of change with its object says which fact now holds:
"took up bouldering", "picked up the ukulele", "je me suis mis au
violon" (a pastime or an instrument, told from other objects by the
``lexicon``); "I drive a Honda Civic", "on a une Twingo" (a car);
"I'm studying law", "I started a master's in economics" (studies, stored as
an occupation: "economics student"); "je suis comptable chez KPMG" (the
employer beside the job); "on s'est mariés avec Élodie", "je suis avec
Karim depuis …" (the spouse or partner). Casual English drops the subject
("took up tennis last week", "Started a new job at Spotify"): a rule that
opens on the verb also reads it at the start of a sentence. ``readings``
has cut out the time ("last month", "il y a trois semaines"), which the
engine hands back as the fact's ``said_when``.
"""

from __future__ import annotations

from .fragments import CAP, CAP_SEQ, DAYS_EN, MONTHS_EN, OCCUPATIONS_FR, Rule, cased, icase
from .lexicon import ACTIVITY_EN, ACTIVITY_FR, CAR, INSTRUMENT_EN, INSTRUMENT_FR
from .vocabulary import DIET_WORDS, LANGS

# The speaker, said or dropped: "I took up", "I've taken up", "took up". In
# the cased rules (a name follows) only a capital "I" is the speaker, where
# patterns_ties reads "i" too; "we" is not the speaker here, as it is in
# patterns_events.
_ME = r"(?:\bI(?:'ve| have)? |^)"
# Adverbs before a change, "also" and "even" among them ("I also took up
# yoga"); unlike those of patterns_ties and patterns_events, not "officially".
_NOW = r"(?:just |recently |finally |also |even )?"
_NOW_FR = r"(?:enfin |récemment |aussi |même )?"
# Where a read object ends: punctuation, a clause word, or the sentence.
_STOP_BODY = (
    r"\s*(?:[,.;!?()]|$)|\s+(?:and|but|because|so|at|in|with|for|on|now|again|too|lol|haha|mais|et"
    r"|car|depuis|avec|dans|pour|chez|sur|sous|près|vers|le|la|les|à|au|chaque|tous|toutes|trois|deux|\d"
    # Where a time begins: "le piano il y a un an", "tennis last week".
    r"|il|ça|en|cet|cette|ce|hier|l'an|l'année|last|this|yesterday|since|ago|earlier)\b"
)
_STOP = rf"(?={_STOP_BODY})"
# What names the work done at a place joined: a department's team, a role or a job.
_WORK_CUE = (
    r"(?:backend|back-end|frontend|front-end|engineering|dev|data|product|design|sales|marketing"
    r"|finance|legal|support|ops|devops|platform|infra|security|research|hr|mobile|web|ml|ai"
    r"|accounting|customer success|growth) team|as an? (?!member|volunteer|fan|guest|player)\w+"
    r"|role|position|job|internship|intern|new hire|onboarding|first day at work"
)

# A language taken up, or studied in classes: the language is what is
# learnt, whatever the words around it ("started going to spanish classes",
# "j'ai commencé le japonais", "je prends des cours d'allemand"). The
# value is the language's English name, lowercase typing included.
_LEARNT = (
    rf"{_ME}(?i:{_NOW}(?:started|began|took up|picked up) (?:learning |studying )?)(?i:(?P<v>{LANGS}))"
    # The language ends its object ("took up french cooking" is cooking).
    rf"(?={_STOP_BODY})"
    r"|(?i:\bI(?:'m| am|'ve been| have been)? (?:just |now |also )?(?:started )?"
    r"(?:taking|take|going to|go to|attending|attend|doing|signed up for|enrolled in) (?:some |a |an )?"
    rf"(?:evening |night |online |weekly |private )?(?P<v2>{LANGS}) (?:classes|class|lessons|lesson|courses?)\b)"
    rf"|(?i:\bj'ai {_NOW_FR}(?:commencé|repris|attaqué) (?:le |l')(?P<v3>{LANGS})(?={_STOP_BODY}))"
    rf"|(?i:\bje (?:prends|suis|fais|commence) des cours (?:de |d')(?P<v4>{LANGS})\b)"
)

CHANGES: tuple[Rule, ...] = (
    Rule("learning", cased(_LEARNT), "language", "preference", "volatile", 0.65),
    # English: a pastime taken up.
    Rule(
        "hobby",
        icase(
            rf"{_ME}{_NOW}(?:took up|taken up|picked up|got into|gotten into|started|began|started doing)"
            rf" (?:some |a bit of )?(?P<v>{ACTIVITY_EN}){_STOP}"
        ),
        "phrase",
        "preference",
        "slow",
        0.65,
    ),
    # English: a pastime one does, said with how often or since when.
    Rule(
        "hobby",
        icase(
            rf"\bI(?:'ve| have)? (?:been )?(?:also )?(?:do|doing|practi[sc]e|practi[sc]ing|go|going|play|playing)"
            rf" (?:to )?(?P<v>{ACTIVITY_EN})"
            r"(?=\s+(?:since|for|every|each|twice|once|three times|on (?:weekends|sundays|saturdays)"
            r"|a lot|regularly|weekly|daily|now)\b)"
            rf"|\bI(?:'ve| have) been (?P<v2>{ACTIVITY_EN})(?=\s+(?:since|for)\b)"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    # English: an instrument taken up or learnt.
    Rule(
        "learning",
        icase(
            rf"{_ME}{_NOW}(?:took up|taken up|picked up|started|began|started (?:learning|playing)"
            rf"|been (?:learning|playing|taking lessons in)) (?:the )?(?P<v>{INSTRUMENT_EN})"
            rf"(?: (?:lessons|classes))?{_STOP}"
            # Lessons taken are the instrument learnt: "started taking guitar lessons",
            # "started cello lessons".
            rf"|{_ME}{_NOW}(?:(?:started|began|been|am|'m) )?tak(?:e|ing) (?:the )?"
            rf"(?P<v2>{INSTRUMENT_EN}) (?:lessons|classes)\b"
        ),
        "phrase",
        "preference",
        "volatile",
        0.65,
    ),
    Rule(
        "learning",
        icase(
            r"\bI(?:'ve| have) been (?:learning|studying) (?!to\b|how\b|about\b|a lot\b|hard\b|the (?:hard way|ropes|basics|news)\b)"
            rf"(?:the )?(?P<v>[a-zà-ÿ][\w'-]+(?: [a-zà-ÿ][\w'-]+)??){_STOP}"
        ),
        "phrase",
        "preference",
        "volatile",
        0.6,
    ),
    # English: studies ("law student", "PhD student in chemistry").
    Rule(
        "occupation",
        icase(
            r"\bI(?:'m| am) (?:currently |now )?studying"
            r" (?!for\b|to\b|hard\b|late\b|abroad\b|tonight\b|now\b|a lot\b)(?P<v>[a-z][\w-]+(?: [a-z][\w-]+)??)"
            rf"(?=\s+(?:at|in)\s+(?:uni|university|college|school)\b|{_STOP_BODY})"
        ),
        "study",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "occupation",
        icase(
            rf"(?:\bI(?:'ve| have)? |\bI(?:'m| am) |^){_NOW}(?:started|began|enrolled in|doing) (?:a|an|my) "
            r"(?P<v>(?:master's|masters|master|bachelor's|bachelors|degree|phd|doctorate|msc|ma|ba|bsc)"
            r" (?:degree )?in [a-z][\w-]+(?: [a-z][\w-]+)??)" + _STOP
        ),
        "study",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "employer",
        cased(
            rf"{_ME}(?i:{_NOW}(?:started|began)) (?:at|with) "
            rf"(?!(?:{MONTHS_EN}|{DAYS_EN}|Christmas|Easter|New Year)\b)(?P<v>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.6,
    ),
    # An organisation joined is an employer when the sentence names the work
    # done there: a department's team, a role, a job ("I joined Nubank last
    # year, backend team", "joined Criteo in March as a data engineer");
    # a club or a team one plays in stays a membership (``member_of``).
    Rule(
        "employer",
        cased(
            rf"{_ME}(?i:{_NOW}joined) "
            rf"(?!(?:{MONTHS_EN}|{DAYS_EN}|Christmas|Easter|New Year)\b)(?P<v>{CAP_SEQ})"
            rf"(?=[^.!?]*\b(?i:{_WORK_CUE})\b)"
        ),
        "org",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "hobby",
        icase(
            rf"{_ME}{_NOW}(?:signed up for|enrolled in|booked|started|began|took) (?:a |an |some )?(?P<v>{ACTIVITY_EN})"
            r" (?:class|classes|course|lessons?|club|workshop)\b"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "relationship_status",
        icase(
            r"\b(?:we(?:'re| are|'ve been| have been)|on est|nous sommes|on s'est mise?s) (?P<v>together|ensemble)"
            r"(?=\s*(?:[.!,;]|$)|\s+(?:since|for|now|depuis|maintenant)\b)"
        ),
        "word",
        volatility="slow",
        confidence=0.6,
    ),
    # A child or pet born or adopted, named in the next clause.
    Rule(
        "",
        cased(
            r"\b(?:[Mm]a|[Mm]on|[Nn]otre) (?P<rel>fille|fils|chienne|chien|chatte|chat) est (?:née?|arrivée?)\b"
            rf"[^.!?]{{0,40}}?,? (?:il|elle) s'appelle (?P<v>{CAP})\b"
        ),
        "name",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "",
        cased(
            r"\b(?:[Mm]y|[Oo]ur) (?P<rel>daughter|son) was born\b[^.!?]{0,40}?,?"
            rf" (?:(?:he|she)(?:'s| is) (?:called|named)|(?:his|her) name(?:'s| is)) (?P<v>{CAP})\b"
        ),
        "name",
        volatility="slow",
        confidence=0.65,
    ),
    # English: a car driven or owned.
    Rule(
        "owns",
        cased(
            rf"\b(?:I|[Ww]e) (?:(?i:drive|have|own|'ve got|have got)) (?:a|an) (?:(?i:new|used|second-hand|old|little|red|blue|black|white|grey|silver) )*"
            # "a 2012 Civic": the model year is not the car.
            rf"(?:(?:19|20)\d\d )?(?P<v>(?:{CAR})(?: [A-Z0-9][\w-]*)?)\b"
        ),
        "name",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "spouse",
        cased(rf"{_ME}(?i:{_NOW}got married to) (?P<v>{CAP})\b"),
        "name",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "employer",
        cased(
            rf"^(?i:{_NOW}(?:started|began|landed|got) (?:a |my )?(?:new )?(?:job|position|role|internship))"
            rf" (?:at|with) (?P<v>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    # French: a pastime done or taken up, an instrument played.
    Rule(
        "hobby",
        icase(
            rf"\b(?:je fais|je joue|j'ai {_NOW_FR}(?:commencé|repris|attaqué|découvert)|je me suis {_NOW_FR}(?:mise?|remise?))"
            rf" (?:du |de la |de l'|des |le |la |l'|les |à la |à l'|au |aux )(?P<v>{ACTIVITY_FR}){_STOP}"
            # Classes of a pastime, and a game begun ("j'ai commencé des cours
            # de poterie", "j'ai commencé à jouer aux échecs").
            rf"|\b(?:je (?:prends|suis)|j'ai {_NOW_FR}(?:commencé|repris|pris)) des cours (?:de |d')(?P<v2>{ACTIVITY_FR}){_STOP}"
            rf"|\bj'ai {_NOW_FR}(?:commencé|recommencé) à (?:jouer|faire) (?:du |de la |de l'|des |à la |à l'|au |aux )"
            rf"(?P<v3>{ACTIVITY_FR}){_STOP}"
        ),
        "phrase",
        "preference",
        "slow",
        0.65,
    ),
    Rule(
        "plays",
        icase(
            rf"\bje (?:joue|fais) (?:du |de la |de l')(?P<v>{INSTRUMENT_FR}){_STOP}"
            rf"|\bj'ai {_NOW_FR}(?:commencé|repris|attaqué) (?:le |la |l')(?P<v2>{INSTRUMENT_FR}){_STOP}"
            rf"|\bje me suis {_NOW_FR}(?:mise?|remise?) (?:au |à la |à l')(?P<v3>{INSTRUMENT_FR}){_STOP}"
            rf"|\bj'ai {_NOW_FR}(?:commencé|recommencé) à jouer (?:du |de la |de l')(?P<v4>{INSTRUMENT_FR}){_STOP}"
        ),
        "phrase",
        "preference",
        "slow",
        0.65,
    ),
    Rule(
        "learning",
        icase(
            rf"\bj'apprends (?!la nouvelle\b|les nouvelles\b)(?:le |la |l'|les )(?P<v>[a-zà-ÿ][\w'-]+(?: [a-zà-ÿ][\w'-]+)??){_STOP}"
        ),
        "phrase",
        "preference",
        "volatile",
        0.6,
    ),
    Rule(
        "member_of",
        icase(
            rf"\bje (?:me suis|suis) {_NOW_FR}inscrite? (?:dans|à|au|en) (?:un |une |le |la |l'|au )?"
            rf"(?P<v>(?:club|cours|association|salle|chorale|équipe)[^,.;!?]{{0,30}}?){_STOP}"
            # "je suis inscrit chez Basic-Fit": a club or gym by its name.
            rf"|\bje (?:me suis|suis) {_NOW_FR}inscrite? chez (?P<v2>(?-i:[A-ZÀ-Ý][\w-]+(?: [A-ZÀ-Ý][\w-]+)*))"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "diet",
        icase(
            rf"\bI(?:'m| am|'ve been| have been) on (?:a|the) (?:strict )?(?P<v>{DIET_WORDS}) diet\b"
            # Said as in a chat: "been doing the keto thing", "I've been on
            # keto since January"; the diet ends its phrase ("doing vegan
            # recipes" is cooking).
            rf"|\bI(?:'m| am|'ve been| have been) (?:on|doing) (?:a |the )?(?:strict |whole )?(?P<v4>{DIET_WORDS})"
            r"(?: (?:diet|thing|lifestyle))?(?=\s*(?:[,.;!?]|$)| (?:since|for|now|lately|these days|again"
            r"|and|but|so)\b)"
            rf"|\bje (?:suis|me suis mise?) au régime (?P<v2>{DIET_WORDS})\b"
            rf"|\bje fais (?:un|le) régime (?P<v3>{DIET_WORDS})\b"
        ),
        "diet",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "home_city",
        cased(
            rf"\b[Jj]e suis (?i:(?:partie?|allée?) (?:vivre|habiter|m'installer|m'établir)) (?:à|a) (?P<v>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.65,
    ),
    # French: the employer beside the job, a car bought or driven.
    Rule(
        "employer",
        cased(
            rf"\b[Jj]e suis (?i:(?:maintenant |désormais )?(?:un |une )?(?:{OCCUPATIONS_FR})"
            rf"(?: (?:de |d'|en )[a-zéèêàç][\w'-]+)?) chez (?P<v>{CAP_SEQ})"
        ),
        "org",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "owns",
        cased(
            r"\b(?i:(?:je me suis|on s'est|nous nous sommes) (?:enfin )?(?:acheté|achetée|achetés|offert|payé)"
            r" (?:un|une|une nouvelle|un nouveau))"
            rf" (?P<v>{CAP}(?: {CAP})?)"
            r"|\b(?i:(?:j'ai|on a|nous avons) (?:un|une)|je roule en|on roule en)"
            rf" (?P<v2>(?:{CAR})(?: [A-Z0-9][\w-]*)?)\b"
        ),
        "name",
        volatility="slow",
        confidence=0.6,
    ),
    # French: studies named by their diploma.
    Rule(
        "occupation",
        icase(
            r"\bje (?:fais|prépare|suis en) (?:un |une |mon |ma )?(?:master|licence|doctorat|thèse|bts|dut"
            r"|but|bachelor|prépa|études|deuxième année|première année|troisième année)"
            r" (?:de |d'|en )(?P<v>[a-zéèêàç][\w'-]+)" + _STOP
        ),
        "study_fr",
        volatility="slow",
        confidence=0.6,
    ),
    # French: the person one married or is with.
    Rule(
        "spouse",
        cased(
            r"\b(?i:(?:on s'est|nous nous sommes|je me suis) (?:enfin )?mariée?s? avec) "
            rf"(?P<v>{CAP})\b"
        ),
        "name",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "partner",
        cased(
            rf"\b(?i:je (?:suis (?:en couple )?avec|sors avec)) (?P<v>{CAP})"
            r"(?=\s+depuis (?:\d+|une?|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|quelques|plusieurs"
            r"|longtemps|peu)\b|\s*[.!]?$)"
        ),
        "name",
        volatility="slow",
        confidence=0.6,
    ),
)
