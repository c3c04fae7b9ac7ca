"""What the rules of both languages are written with: the ``Rule`` type, the
compile helpers, and the shared regex fragments and word lists."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ...text.risk_words import OWN_EMAIL
from ...types import FactKind, Volatility

ValueShape = Literal[
    "name",
    "place",
    "known_place",
    "org",
    "occupation",
    "phrase",
    "clause",
    "number",
    "language",
    "diet",
    "email",
    "phone",
    "word",
    "study",
    "study_fr",
]


@dataclass(frozen=True, slots=True)
class Rule:
    predicate: str  # "" when a ``rel`` or ``cat`` group names it
    pattern: re.Pattern[str]
    value: ValueShape
    fact_kind: FactKind = "attribute"
    volatility: Volatility = "stable"
    confidence: float = 0.7
    # Said to the assistant: a named speaker of a group conversation says it
    # to another person, so it is read only from an unnamed speaker.
    addressed: bool = False
    # A last resort: its facts are dropped from a sentence another rule reads.
    fallback: bool = False


def icase(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE)


def cased(text: str) -> re.Pattern[str]:
    """Case-sensitive after an insensitive lead-in: names must be capitalised."""
    return re.compile(text)


CAP = r"[A-ZÀ-Ý][\w'’&-]+"
CAP_SEQ = rf"{CAP}(?: (?:of |de |du |la |le )?{CAP}){{0,3}}"
PHRASE = r"(?:[^,.;:!?()\"]|:(?=\S)){2,60}?"
# Where a captured phrase ends: punctuation, a subordinating word ("since",
# "depuis"), or "and" opening a new clause ("I love hiking and I hate
# sushi"); "and" inside a noun phrase ("tech and jokes") does not end it.
# French "car" (because) is also an English noun ("a new car"): it ends a
# phrase only before the start of a French clause.
_CAR = (
    r"car(?=\s+(?:(?:je|il|elle|on|nous|vous|ils|elles|ce|ça|cela|tu|y|en|si|le|la|les"
    r"|mon|ma|mes|ton|ta|tes|son|sa|ses|notre|nos|leur|leurs|un|une|des)\b|[jcl][’']))"
)
END = (
    r"(?=\s*(?:[,.;!?()\"]|:(?!\S)|\s[-–—]\s|\s(?:but|because|since|so|when|while|as|which|that|too|though|mais|parce|depuis|"
    + _CAR
    + r"|quand)\b"
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

# Words a relation may take before its noun without changing who it is
# ("my little brother Jake", "ma grande sœur Julie").
KIN_ADJ_EN = r"(?:(?:older|younger|big|little|baby|eldest|oldest|youngest|best|new|sweet|lovely) )?"
KIN_ADJ_FR = r"(?:(?:grande?|petite?|meilleure?|nouvelle|nouveau|vieux|vieille|cher|chère) )?"

RELATIONS_EN = (
    "sister|brother|wife|husband|partner|boyfriend|girlfriend|bf|gf|son|daughter|mom|mother|dad|father"
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
    "|nanny|carer|caregiver|receptionist|secretary|clerk|technician|welder|bartender|cook|dietitian"
    "|nutritionist|optometrist|banker|broker|trader|recruiter|marketer|product manager|project manager"
    "|ux designer|data analyst|civil servant|postman|courier|builder|roofer|tiler|landscaper|zookeeper"
    "|teaching assistant|lifeguard|personal trainer|sous-chef|freelancer|paralegal|solicitor|barrister"
    "|copywriter|illustrator|animator|dental nurse|care worker|support worker|delivery driver"
    "|team lead|team leader|tech lead|engineering manager|cto|ceo|founder|co-founder"
)
# What may stand before an occupation without changing it ("a freelance photographer").
OCCUPATION_MODIFIERS = (
    "freelance|self-employed|senior|junior|lead|head|staff|principal|trainee|qualified|registered"
    "|certified|full-time|part-time|full time|part time|professional|substitute|supply|locum"
)
# Free words before a known job, after "a"/"an": the job's own field or
# kind ("a product designer", "a backend engineer", "an ER nurse"). Words
# that judge, or that make the job a pastime or a wish ("a terrible cook",
# "an amateur photographer", "an aspiring writer"), and adjectives by their
# endings ("-ly", "-ous", "-ful", "-less", "-ish", "-able", "-ible") are not.
_JUDGING = (
    "good|great|bad|better|best|worse|worst|terrible|awful|decent|lousy|poor|careful|nervous|slow"
    "|fast|quick|messy|picky|amateur|aspiring|wannabe|would-be|frustrated|failed|former|retired|ex"
    "|huge|big|little|small|proud|happy|sad|tired|busy|lazy|real|true|total|complete|natural|born"
    "|self-taught|hobby|weekend|home|backyard|bedroom|armchair|occasional|keen|avid|budding"
    "|struggling|starving|broke|single|working|new|old|young|future|lucky|crazy|fellow|part|kind"
    "|sort|bit|lot|such|much|very|pretty|fairly|quite|so|too|the|a|an|and|or|of|my|your|his|her|our"
    "|their|not|no|just|also|still|now|currently|officially|mom|mum|dad|parent|backseat|bit"
)
FREE_OCCUPATION_MODIFIER = (
    rf"(?!(?:{_JUDGING})\b)[a-z][a-z0-9-]*"
    r"(?<!ly)(?<!ous)(?<!ful)(?<!less)(?<!ish)(?<!able)(?<!ible)(?<!ing)"
)
OCCUPATIONS_FR = (
    "professeur|professeure|enseignant|enseignante|médecin|infirmier|infirmière|développeur|développeuse|dev"
    "|ingénieur|ingénieure|avocat|avocate|architecte|comptable|boulanger|boulangère|cuisinier|cuisinière"
    "|étudiant|étudiante|journaliste|pharmacien|pharmacienne|psychologue|chercheur|chercheuse|designer"
    "|graphiste|serveur|serveuse|vendeur|vendeuse|photographe|musicien|musicienne|traducteur|traductrice"
    "|sage-femme|infirmier|pharmacienne|dentiste|chirurgien|chirurgienne|kinésithérapeute|kiné|vétérinaire"
    "|plombier|électricien|électricienne|coiffeur|coiffeuse|fleuriste|bibliothécaire|policier|policière"
    "|pompier|agriculteur|agricultrice|chauffeur|ambulancier|ambulancière|consultant|consultante"
    # Everyday and clipped French job titles ("prof", "kiné", "instit").
    "|prof|instit|instituteur|institutrice|aide-soignant|aide-soignante|auxiliaire de vie|ouvrier|ouvrière"
    "|menuisier|menuisière|maçon|charpentier|facteur|factrice|caissier|caissière|secrétaire"
    "|assistant|assistante|commercial|commerciale|chef de projet|cheffe de projet|chef|cheffe"
    "|directeur|directrice|informaticien|informaticienne|analyste|technicien|technicienne|mécanicien"
    "|mécanicienne|éducateur|éducatrice|animateur|animatrice|orthophoniste|ostéopathe|opticien"
    "|opticienne|notaire|juge|banquier|banquière|agent immobilier|fonctionnaire|militaire|gendarme"
    "|pilote|hôtesse de l'air|steward|comédien|comédienne|acteur|actrice|chanteur|chanteuse"
    "|écrivain|écrivaine|auteur|autrice|artiste|danseur|danseuse|maître-nageur|coach|entraîneur"
    "|entraîneuse|auto-entrepreneur|entrepreneur|entrepreneuse|freelance|retraité|retraitée"
    "|sage-femme|psychiatre|psychomotricien|psychomotricienne|diététicien|diététicienne|vétérinaire"
    "|serrurier|électricien|carreleur|peintre|paysagiste|jardinier|jardinière|traiteur|boucher|bouchère"
    "|poissonnier|fromager|libraire|graphiste|webdesigner|développeur web|data scientist|product manager"
)

# A hedge or condition: what follows it is not stated as true.
HEDGES = re.compile(
    r"\b(?:if|maybe|perhaps|might|would|could|wish|wonder|imagine|pretend|si jamais|peut-être|peut-etre)\b",
    re.IGNORECASE,
)


# "I'm actually 43": the adverbs of a restatement do not change what is said.
I_AM = r"\bI(?:'m| am)(?: actually| really| in fact)?"
EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
PHONE = r"\+?\(?\d[\d .()-]{5,18}\d"
# Where a contact detail is named: "my email", "my new phone number", "mon adresse mail".
EMAIL_WORDS = OWN_EMAIL
PHONE_WORDS = (
    r"(?:[Mm]y|[Mm]on) (?:new |current |nouveau )?(?:(?:phone|mobile|cell|cellphone|telephone)(?: number)?"
    # "num", "tél": the number by its chat abbreviation.
    r"|number|num(?:éro)?(?: de (?:téléphone|portable|tél[ée]phone|tel|tél))?|portable|téléphone|t[ée]l)"
)
RELATIONSHIP_EN = r"single|married|engaged|divorced|widowed|separated|in a relationship"
RELATIONSHIP_FR = r"célibataire|mariée?|fiancée?|divorcée?|veuf|veuve|en couple|pacsée?|séparée?"
PET_KINDS = (
    r"turtles?|dogs?|cats?|pupp(?:y|ies)|kittens?|hamsters?|rabbits?|bunn(?:y|ies)|parrots?|snakes?|horses?"
    r"|guinea pigs?|ferrets?|gerbils?|chinchillas?|hedgehogs?|budgies?|budgerigars?|parakeets?|cockatiels?"
    r"|canar(?:y|ies)|geckos?|iguanas?|tortoises?|axolotls?|bearded dragons?|ponies|pony|lizards?"
)
# Conventions are imperatives about work ("always run the tests before
# pushing"); "Always here to help!" and "Never give up!" are chit-chat.
# The words that say a wish holds from now on, before or after it. One list
# every reader of a standing wish shares, so a marker one reader knows the
# others know ("à l'avenir, donne-moi …" asks as "dorénavant, …" does,
# "going forward could you …?" as "from now on, could you …?").
# A language's own rules take that language's list: an order's verb is
# judged by its language's word lists.
LASTING_EN = (
    r"(?:from now on|from here on(?: out)?|from this point (?:on|forward)|going forward|moving forward"
    r"|henceforth|by default)"
)
LASTING_FR = (
    r"(?:à partir de maintenant|à partir d'aujourd'hui|dorénavant|désormais|par défaut|à l'avenir"
    r"|à compter d'aujourd'hui)"
)
LASTING = rf"(?:{LASTING_EN}|{LASTING_FR})"
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
# French orders in the second person, as people type them.
IMPERATIVES_FR_2SG = (
    "réponds|mets|donne|écris|parle|utilise|évite|garde|fais|dis|tutoie|vouvoie|appelle|explique|arrête"
    "|continue|passe|reste|envoie|indique|précise|rappelle|cite|traduis|résume|ajoute|vérifie|lance|relis"
    "|note|laisse|prends|commence|termine|respecte|formate|rédige|affiche|montre|convertis|arrondis"
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
ADVERBS = r"(?:really |absolutely |just |truly |totally |so |also |still |genuinely )*"
