"""The rules extractor's patterns, English and French, as data.

Each ``Rule`` finds one statement shape in a sentence; ``value`` says how the
captured words are checked. Precision comes first: values must look like
what the predicate expects (a capitalised place, a known occupation, a short
noun phrase that is not a pronoun), and hedged or questioning sentences are
skipped by the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ...types import FactKind, Volatility
from .vocabulary import CONTEXTS, DIET_WORDS, LANGS

ValueShape = Literal[
    "name", "place", "org", "occupation", "phrase", "clause", "number", "language", "diet"
]


@dataclass(frozen=True, slots=True)
class Rule:
    predicate: str  # "" when a ``rel`` or ``cat`` group names it
    pattern: re.Pattern[str]
    value: ValueShape
    fact_kind: FactKind = "attribute"
    volatility: Volatility = "stable"
    confidence: float = 0.7


def _r(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE)


def _cs(text: str) -> re.Pattern[str]:
    """Case-sensitive after an insensitive lead-in: names must be capitalised."""
    return re.compile(text)


CAP = r"[A-ZÀ-Ý][\w'’&-]+"
CAP_SEQ = rf"{CAP}(?: (?:of |de |du |la |le )?{CAP}){{0,3}}"
PHRASE = r"(?:[^,.;:!?()\"]|:(?=\S)){2,60}?"
# Where a captured phrase ends: punctuation, a subordinating word, or "and"
# opening a new clause ("I love hiking and I hate sushi"); "and" inside a
# noun phrase ("tech and jokes") does not end it.
END = (
    r"(?=\s*(?:[,.;!?()\"]|:(?!\S)|\s[-–—]\s|\s(?:but|because|since|so|when|while|as|which|that|too|though|mais|parce|car|quand)\b"
    r"|\s(?:and|et) (?:I|I'm|we|it|he|she|they|you|my|then|also|je|j'|on|il|elle)\b|$))"
)

MONTHS_EN = "January|February|March|April|May|June|July|August|September|October|November|December"
DAYS_EN = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
MONTHS_FR = "janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre"
DAYS_FR = "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
WHEN_EN = (
    rf"(?:tomorrow|tonight|next (?:week|month|year|weekend|summer|winter|spring|fall|{DAYS_EN})"
    rf"|this (?:weekend|week|month|summer|winter|spring|fall|year|{DAYS_EN})"
    rf"|on (?:{DAYS_EN})|in (?:{MONTHS_EN})|in (?:a|two|three|\d+) (?:days?|weeks?|months?)"
    rf"|on (?:the )?\d{{1,2}}(?:st|nd|rd|th)?(?: of)?(?: (?:{MONTHS_EN}))?|on (?:{MONTHS_EN}) \d{{1,2}}(?:st|nd|rd|th)?)"
)
WHEN_FR = (
    rf"(?:demain|ce soir|ce week-end|cette semaine|ce mois-ci|la semaine prochaine|le mois prochain"
    rf"|l'année prochaine|l’année prochaine|(?:{DAYS_FR}) prochain|en (?:{MONTHS_FR})"
    rf"|le \d{{1,2}}(?: (?:{MONTHS_FR}))?|dans (?:\d+|deux|trois) (?:jours|semaines|mois))"
)

RELATIONS_EN = (
    "sister|brother|wife|husband|partner|boyfriend|girlfriend|son|daughter|mom|mother|dad|father"
    "|best friend|friend|dog|cat|puppy|kitten"
)
RELATIONS_FR = (
    "sœur|soeur|femme|copine|fille|mère|mere|meilleure amie|amie|chienne|chatte"
    "|frère|frere|mari|copain|fils|père|pere|meilleur ami|ami|chien|chat|conjoint|conjointe"
)

OCCUPATIONS_EN = (
    "accountant|actor|actress|analyst|architect|artist|athlete|attorney|baker|barista|biologist|carpenter"
    "|cashier|chef|chemist|coach|consultant|counselor|counsellor|dancer|data scientist|dentist|designer"
    "|developer|doctor|driver|economist|editor|electrician|engineer|entrepreneur|farmer|firefighter"
    "|graphic designer|journalist|lawyer|lecturer|librarian|manager|mechanic|musician|nurse|painter"
    "|paramedic|pharmacist|photographer|physician|physicist|physiotherapist|pilot|plumber|police officer"
    "|professor|programmer|psychologist|realtor|researcher|salesperson|scientist|singer|social worker"
    "|software developer|software engineer|student|surgeon|teacher|therapist|translator|tutor|vet"
    "|veterinarian|waiter|waitress|web developer|writer|youtuber|streamer|instructor|mentor"
    "|midwife|optician|radiologist|surveyor|sailor|soldier|cleaner|gardener|florist|butcher|hairdresser"
)
OCCUPATIONS_FR = (
    "professeur|professeure|enseignant|enseignante|médecin|infirmier|infirmière|développeur|développeuse"
    "|ingénieur|ingénieure|avocat|avocate|architecte|comptable|boulanger|boulangère|cuisinier|cuisinière"
    "|étudiant|étudiante|journaliste|pharmacien|pharmacienne|psychologue|chercheur|chercheuse|designer"
    "|graphiste|serveur|serveuse|vendeur|vendeuse|photographe|musicien|musicienne|traducteur|traductrice"
    "|sage-femme|infirmier|pharmacienne|dentiste|chirurgien|chirurgienne|kinésithérapeute|kiné|vétérinaire"
    "|plombier|électricien|électricienne|coiffeur|coiffeuse|fleuriste|bibliothécaire|policier|policière"
    "|pompier|agriculteur|agricultrice|chauffeur|ambulancier|ambulancière|consultant|consultante"
)


_I = r"\bI(?:'m| am)"
PET_KINDS = r"turtles?|dogs?|cats?|pupp(?:y|ies)|kittens?|hamsters?|rabbits?|bunn(?:y|ies)|parrots?|snakes?|horses?|guinea pigs?"
# Conventions are imperatives about work ("always run the tests before
# pushing"); "Always here to help!" and "Never give up!" are chit-chat.
IMPERATIVES_EN = (
    "run|use|write|add|check|commit|push|test|review|ask|reply|answer|respond|call|send|keep|put|include"
    "|format|lint|document|deploy|merge|rebase|tag|update|back up|log|cc|copy|double-check|confirm|lock|close"
    "|save|cite|mention|sign|read|respect|store|name|prefix|squash|open|email|notify|wear|bring|book|pay"
    "|schedule|paste|rotate|share|set|show|print|delete|remove|install|upgrade"
    "|restart|reboot|encrypt|archive|clean|order|buy|translate|summarise|summarize|round|spell|capitalise"
    "|capitalize|indent|wrap|forward|attach|drink|eat|park|unplug|water|feed|walk|label|file|charge|text"
    "|greet|address|sort|list|link|quote|pin|mark|flag|track|measure|convert|reserve|skip"
    "|write down|note|remind|explain|highlight|bold|correct|proofread|fix|double-check"
)
IMPERATIVES_FR = (
    "lancer|utiliser|écrire|ajouter|vérifier|répondre|tester|relire|mettre|envoyer|garder|inclure|formater"
    "|documenter|déployer|fusionner|demander|appeler|sauvegarder|nommer|fermer|signer|citer"
    "|planifier|partager|coller|supprimer|installer|redémarrer|chiffrer|archiver|traduire|résumer"
    "|arrondir|joindre|imprimer|commander|réserver|payer|publier|pousser|parler|transmettre|noter"
    "|rappeler|prévenir|expliquer|éviter|laisser|prendre|donner|garder|tutoyer|vouvoyer|indiquer"
    "|préciser|mentionner|utiliser|respecter|lire|commencer|finir|terminer|programmer|copier|faire"
)
WANT_VERBS = (
    r"visit|go to|travel to|learn|try|adopt|start|open|move to|get into|become|write|publish|build"
)
_ADV = r"(?:really |absolutely |just |truly |totally |so |also |still |genuinely )*"

RULES: tuple[Rule, ...] = (
    # Identity and attributes (English).
    Rule("name", _cs(rf"\b[Mm]y name(?:'s| is) (?P<v>{CAP}(?: {CAP})?)"), "name", confidence=0.9),
    Rule(
        "home_city",
        _cs(rf"\bI (?:currently |now )?live in (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "home_city",
        _cs(rf"\bI(?:'ve| have)? (?:just |recently )?moved to (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
    ),
    Rule(
        "home_city",
        _cs(rf"\bI(?:'m| am) (?:now |currently )?based in (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
    ),
    Rule("hometown", _cs(rf"\bI(?:'m| am) (?:originally )?from (?P<v>{CAP_SEQ})"), "place"),
    Rule("hometown", _cs(rf"\bI grew up in (?P<v>{CAP_SEQ})"), "place"),
    Rule("hometown", _cs(rf"\b[Mm]y home country,? (?P<v>{CAP_SEQ})"), "place"),
    Rule(
        "occupation",
        _r(rf"\bI(?:'m| am)? (?:currently |now )?work(?:ing)? as an? (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "occupation",
        _r(rf"{_I} (?:now |currently |a )?(?:an? )?(?P<v>(?:{OCCUPATIONS_EN}))\b(?! of\b)"),
        "occupation",
        volatility="slow",
    ),
    Rule(
        "employer",
        _cs(rf"\bI (?:currently |now )?work (?:at|for) (?P<v>{CAP_SEQ})"),
        "org",
        volatility="slow",
    ),
    Rule(
        "age",
        _r(rf"{_I} (?P<v>\d{{1,2}}) (?:years old|yo)\b"),
        "number",
        volatility="slow",
        confidence=0.85,
    ),
    Rule(
        "age",
        _r(r"\bI (?:just )?turned (?P<v>\d{1,2})\b(?! (?:minutes|hours|days|weeks|months))"),
        "number",
        volatility="slow",
    ),
    Rule(
        "",
        _cs(rf"\b[Mm]y (?P<rel>{RELATIONS_EN})(?:,| named| called|'s name is)? (?P<v>{CAP})\b"),
        "name",
        confidence=0.75,
    ),
    Rule(
        "employer",
        _cs(rf"{_I} an? (?:{OCCUPATIONS_EN}) (?:at|for) (?P<v>{CAP_SEQ})"),
        "org",
        volatility="slow",
    ),
    Rule(
        "",
        _cs(
            rf"\b(?:I|[Ww]e)(?:'ve| have)? (?:just |recently )?(?:have|got|adopted|own|rescued) (?:a|an|another)"
            rf" (?:little |new |sweet |old |young )?(?P<rel>{RELATIONS_EN})(?:,)? (?:named|called) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    Rule(
        "diet",
        _r(rf"{_I} (?:now |strictly |a |fully )?(?P<v>{DIET_WORDS})\b"),
        "diet",
        volatility="slow",
        confidence=0.8,
    ),
    # Language preferences: a request ("reply in English") or a stated
    # preference ("I prefer my invoices in French"), both languages.
    Rule(
        "language",
        _r(
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
        _r(
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
        _r(rf"\bI {_ADV}(?:love|adore|enjoy) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "likes",
        _r(rf"{_I} (?:a )?(?:big |huge |massive )?fan of (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "dislikes",
        _r(rf"\bI {_ADV}(?:hate|dislike|detest|can't stand|cannot stand) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "dislikes",
        _r(rf"\bI (?:really )?(?:don't|do not) (?:like|enjoy) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.65,
    ),
    Rule(
        "prefers",
        _r(rf"\bI (?:much |really )?prefer (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "",
        _r(
            rf"\b[Mm]y (?:all-time )?favou?rite (?P<cat>[a-z-]+(?: [a-z-]+)?) (?:is|has to be) (?P<v>{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "slow",
        0.75,
    ),
    Rule(
        "likes",
        _r(rf"\b[Mm]y (?:all-time )?favou?rite (?:is|has to be) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "likes",
        _r(rf"\bI {_ADV}(?:do )?like (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "likes",
        _r(rf"^(?:(?:really|also|just|totally) )?(?:love|adore) (?P<v>[a-z]+ing\b{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "likes",
        _r(rf"{_I} (?:really |totally |so )?into (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "likes",
        _r(rf"\b(?:my|our shared) love (?:for|of) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "likes",
        _cs(
            r"^(?P<v>[A-Z][a-z]+ing(?: [a-z]+){0,3}) (?:is one of my (?:faves|favou?rites)|makes me (?:so |really |very )?happy)"
        ),
        "phrase",
        "preference",
        "slow",
        0.65,
    ),
    Rule(
        "hobby",
        _r(
            r"\bI (?:started|took up|picked up) (?P<v>[a-z]+ing(?: [a-z]+){0,2}?) (?:(?:about |around |over |almost )?\w+ (?:years?|months?) ago|last year|as a kid|when I was)"
        ),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "hobby",
        _r(
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
        _r(rf"\bI (?:usually |often |also |mostly )?play (?P<v>(?:the )?{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "learning",
        _r(rf"{_I} (?:currently |now )?learning (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="volatile",
        confidence=0.65,
    ),
    Rule("allergy", _r(rf"{_I} allergic to (?P<v>{PHRASE}){END}"), "phrase", confidence=0.8),
    Rule(
        "member_of",
        _r(rf"\bI(?:'ve| have)? (?:just |recently )?joined (?P<v>(?:an? |the )?{PHRASE}){END}"),
        "phrase",
        volatility="slow",
        confidence=0.6,
    ),
    Rule(
        "volunteers_at",
        _r(
            r"\b(?:the|a|an) (?P<v>[a-z][\w -]{2,40}?) (?:I|we) (?:volunteer|help out) (?:at|with|for|in)\b"
        ),
        "phrase",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "volunteers_at",
        _r(rf"\bI volunteer (?:at|with|for) (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "pet",
        _r(
            rf"\b[Mm]y (?P<v>{PET_KINDS})\b(?! (?:named |called |is named )?(?-i:[A-Z]))"
            r"(?! (?:painting|drawing|photo|picture|pic|figurine|toy|statue|sculpture|costume|mug|shirt"
            r"|poster|book|show|game|video|print|sticker)s?\b)"
        ),
        "phrase",
        confidence=0.6,
    ),
    # Decisions, conventions, plans (English).
    Rule(
        "decision",
        _r(rf"\b(?:we|I)(?:'ve| have)? (?:finally )?decided (?:to|on) (?P<v>{PHRASE}){END}"),
        "clause",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "convention",
        _r(rf"^(?:please,? )?(?P<v>(?:always|never) (?:{IMPERATIVES_EN}) .{{3,120}}?)[.!]?$"),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    Rule(
        "convention",
        _r(
            rf"\b(?:our|the team's|my) (?:convention|rule|policy) is (?:to |that )?(?P<v>{PHRASE}){END}"
        ),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    Rule(
        "plan",
        _r(
            rf"{_I} (?:going|planning|hoping) to (?P<v>[a-z][^,.;!?]{{2,60}}?) (?P<when>{WHEN_EN})\b"
        ),
        "clause",
        volatility="ephemeral",
        confidence=0.65,
    ),
    Rule(
        "plan",
        _r(rf"\bI(?:'ll| will) (?P<v>[a-z][^,.;!?]{{2,60}}?) (?P<when>{WHEN_EN})\b"),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
    Rule(
        "plan",
        _r(
            rf"{_I} (?P<v>(?!going\b|feeling\b|doing\b|thinking\b|hoping\b|planning\b|trying\b|looking\b|getting\b)[a-z]+ing [^,.;!?]{{2,50}}?) (?P<when>{WHEN_EN})\b"
        ),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
    Rule(
        "plan",
        _r(rf"^(?:I(?:'m| am) )?planning (?:a |to )(?P<v>[^,.;!?]{{2,50}}?) (?P<when>{WHEN_EN})\b"),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
    Rule(
        "plan",
        _r(rf"{_I} (?:really )?(?:hoping|planning) to (?P<v>(?:{WANT_VERBS}) {PHRASE}){END}"),
        "clause",
        volatility="volatile",
        confidence=0.55,
    ),
    Rule(
        "plan",
        _r(rf"\bI(?:'ve| have)? (?:always )?want(?:ed)? to (?P<v>(?:{WANT_VERBS}) {PHRASE}){END}"),
        "clause",
        volatility="volatile",
        confidence=0.55,
    ),
    Rule(
        "plan",
        _r(
            rf"\b(?:I'm|I am|we're|we are) (?:considering|thinking about|thinking of) (?P<v>[a-z]+ing {PHRASE}){END}"
        ),
        "clause",
        volatility="volatile",
        confidence=0.55,
    ),
    # Identity and attributes (French).
    Rule("name", _cs(rf"\b[Jj]e m'appelle (?P<v>{CAP}(?: {CAP})?)"), "name", confidence=0.9),
    Rule("name", _cs(rf"\b[Mm]on (?:pré)?nom est (?P<v>{CAP}(?: {CAP})?)"), "name", confidence=0.9),
    Rule(
        "home_city",
        _cs(rf"\b[Jj]'habite (?:à|a|en|au) (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "home_city",
        _cs(rf"\b[Jj]e vis (?:à|a|en|au) (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "home_city",
        _cs(rf"\b[Jj]'ai (?:récemment )?déménagé (?:à|a|en|au) (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
    ),
    Rule("hometown", _cs(rf"\b[Jj]e suis originaire (?:de|d') ?(?P<v>{CAP_SEQ})"), "place"),
    Rule(
        "occupation",
        _r(rf"\bje travaille comme (?P<v>{PHRASE}){END}"),
        "phrase",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "occupation",
        _r(rf"\bje suis (?:un |une )?(?P<v>(?:{OCCUPATIONS_FR}))\b"),
        "occupation",
        volatility="slow",
    ),
    Rule(
        "employer",
        _cs(rf"\b[Jj]e travaille (?:chez|pour) (?P<v>{CAP_SEQ})"),
        "org",
        volatility="slow",
    ),
    Rule("age", _r(r"\bj'ai (?P<v>\d{1,2}) ans\b"), "number", volatility="slow", confidence=0.85),
    Rule(
        "",
        _cs(
            rf"\b[Jj]'ai (?:adopté )?(?:un|une) (?:petit |petite |jeune )?(?P<rel>{RELATIONS_FR})"
            rf" (?:qui s'appelle|nommée?|appelée?|du nom de) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    Rule(
        "diet",
        _r(rf"\bje suis (?:devenue? |maintenant )?(?P<v>{DIET_WORDS})\b"),
        "diet",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "language",
        _r(
            r"\b(?:envoie|envoyez|écris|écrivez|réponds|répondez|parle|parlez|rédige|rédigez|adresse|adressez)"
            r"(?:-(?:les|le|la|lui|leur|moi|nous))*(?: (?:les|le|la|moi|nous))*"
            rf"(?: (?:plutôt|toujours|désormais|dorénavant|uniquement|seulement))? en (?P<v>{LANGS})\b"
        ),
        "language",
        "preference",
        "slow",
        0.75,
    ),
    Rule(
        "language",
        _r(
            r"\bje (?:préfère|voudrais|veux|souhaite|aimerais)"
            r"(?: (?:recevoir|avoir|lire|qu'on me réponde|que tu me répondes|qu'on m'écrive|que tu m'écrives))?"
            rf"(?: (?:mes|les|des|vos|tes|toutes? (?:mes|les)) (?P<ctx>{CONTEXTS}))? en (?P<v>{LANGS})\b"
        ),
        "language",
        "preference",
        "slow",
        0.75,
    ),
    Rule(
        "",
        _cs(rf"\b(?:[Mm]a|[Mm]on) (?P<rel>{RELATIONS_FR}) (?P<v>{CAP})\b"),
        "name",
        confidence=0.75,
    ),
    # Preferences (French).
    Rule(
        "likes",
        _r(rf"\bj'(?:adore|aime (?:beaucoup |bien |vraiment )?)(?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "dislikes",
        _r(rf"\bje (?:déteste|ne supporte pas|n'aime pas) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule("prefers", _r(rf"\bje préfère (?P<v>{PHRASE}){END}"), "phrase", "preference", "slow", 0.7),
    Rule(
        "",
        _r(rf"\b(?:mon|ma) (?P<cat>[a-zéèê]+) préférée? (?:est|c'est) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.75,
    ),
    # Decisions, conventions, plans (French).
    Rule(
        "decision",
        _r(rf"\b(?:on a|nous avons|j'ai) (?:finalement )?décidé d(?:e |')(?P<v>{PHRASE}){END}"),
        "clause",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "convention",
        _r(
            rf"^(?:il faut )?(?P<v>(?:toujours|ne jamais|jamais) (?:{IMPERATIVES_FR}) .{{3,120}}?)[.!]?$"
        ),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    Rule(
        "convention",
        _r(rf"\bla (?:règle|convention) est (?:de |d')(?P<v>{PHRASE}){END}"),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    Rule(
        "plan",
        _r(
            rf"\bje (?:vais|compte|prévois de|pars) (?P<v>[a-zé][^,.;!?]{{2,60}}?) (?P<when>{WHEN_FR})\b"
        ),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
)

# Relation words, both languages, to the predicate they state.
RELATION_PREDICATES: dict[str, str] = {
    "sister": "sister",
    "sœur": "sister",
    "soeur": "sister",
    "brother": "brother",
    "frère": "brother",
    "frere": "brother",
    "wife": "spouse",
    "husband": "spouse",
    "femme": "spouse",
    "mari": "spouse",
    "conjoint": "spouse",
    "conjointe": "spouse",
    "partner": "partner",
    "boyfriend": "partner",
    "girlfriend": "partner",
    "copine": "partner",
    "copain": "partner",
    "son": "son",
    "fils": "son",
    "daughter": "daughter",
    "fille": "daughter",
    "mom": "mother",
    "mother": "mother",
    "mère": "mother",
    "mere": "mother",
    "dad": "father",
    "father": "father",
    "père": "father",
    "pere": "father",
    "friend": "friend",
    "best friend": "friend",
    "ami": "friend",
    "amie": "friend",
    "meilleur ami": "friend",
    "meilleure amie": "friend",
    "dog": "pet",
    "cat": "pet",
    "puppy": "pet",
    "kitten": "pet",
    "chien": "pet",
    "chienne": "pet",
    "chat": "pet",
    "chatte": "pet",
}

# French favourite categories, so "mon livre préféré" and "my favorite book" meet.
CATEGORY_EN: dict[str, str] = {
    "livre": "book",
    "film": "movie",
    "couleur": "color",
    "plat": "dish",
    "chanson": "song",
    "groupe": "band",
    "série": "show",
    "sport": "sport",
    "auteur": "author",
    "colour": "color",
}
