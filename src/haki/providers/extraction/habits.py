"""A habit or lasting taste the speaker states of themselves, by structure (pure).

"I always have my coffee black", "I take the train to work most days",
"je ne bois jamais de café après 16h", "le soir je lis une heure": "I"
with a habit adverb before a verb of doing, a habit verb denied, a present
verb with a recurring time, "I'm a … person", "je bois / mange / prends …"
with what the habit is made of, or a French habit led by its time. A
moment of its own ("tomorrow", "ce soir") makes it a plan, a past tense a
story; hedges read nothing. ``wishes`` asks this first of every clause no
rule read (a habit says something of the speaker, whatever marker of
generality it holds) and files what it returns as a ``prefers``
preference (``schedule`` on given days, ``DAYS``).
"""

from __future__ import annotations

import re

# A habit, said of the speaker.
_HABIT_ADVERB_EN = (
    r"(?:always|usually|normally|generally|typically|often|mostly|never|rarely|only|tend to)"
)
_HABIT_VERB_EN = (
    r"(?:drink|eat|smoke|take|have|use|drive|cook|fly|wear|work|go|run|ride|cycle|bike|walk|commute|watch"
    r"|read|play|sleep|wake|get up|shop|buy|order|skip|train|swim|do)"
)
# A habit denied: what the speaker does not take or do at all. A food
# refused is a diet ("I don't eat meat" is labelled vegetarian), not this.
_DENIED_EN = r"(?:drink|smoke|drive|cook|fly|wear|watch|use|own|gamble|vape)"
# A span of days or hours said as a range is a routine: "Monday to
# Thursday", "9 to 5", "du lundi au jeudi", "de 8h à 16h".
_DAY_EN = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_DAY_FR = r"(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)"
_HOUR = r"\d{1,2}(?:[:h.]\d{2}|h|\s?[ap]\.?m\.?)?"
_SPAN_EN = rf"\b(?:from )?(?:{_DAY_EN}s? (?:to|through|till|until|-) {_DAY_EN}|{_HOUR} ?(?:to|till|until|-) ?{_HOUR})\b"
SPAN_FR = rf"\b(?:du {_DAY_FR} au {_DAY_FR}|de {_HOUR} à {_HOUR})\b"
_RECURRING_EN = (
    r"\b(?:most days|every (?:day|morning|evening|night|week|weekend|monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday)|each (?:day|morning|evening|week)|on (?:weekdays|weekends|mondays|tuesdays"
    r"|wednesdays|thursdays|fridays|saturdays|sundays)|at weekends|daily|weekly|in the (?:mornings|evenings))\b"
    rf"|{_SPAN_EN}"
)
# A past tense makes a habit a story ("I never saw him again", "I usually
# went to the beach as a kid"): regular pasts end in -ed, the irregular ones
# are listed (the common English irregular verbs), and a few words place a
# statement in the past whatever its verb.
_IRREGULAR_PAST_EN = (
    r"(?:saw|met|understood|told|went|came|became|began|bought|brought|built|caught|chose|did|drank|drove"
    r"|ate|fell|felt|fought|found|flew|forgot|forgave|froze|got|gave|grew|had|heard|held|hid|kept"
    r"|knew|led|left|lent|lost|made|meant|paid|ran|rang|rode|rose|said|sat|sold|sent"
    r"|shook|shot|sang|sank|slept|spoke|spent|stood|stole|stuck|swam|took|taught|tore|thought|threw"
    r"|wore|won|wrote|woke|was|were|read(?= (?:it|that|them|him|her) (?:again|once|before)))"
)
_PAST_MARK_EN = re.compile(
    rf"^I(?: \w+)? {_IRREGULAR_PAST_EN}\b|\b(?:as a (?:kid|child|boy|girl|teen\w*|student)"
    r"|when I was|back then|back in the day|used to|that day|once (?!in a while)(?:at|in|on|when|before)"
    r"|in (?:the past|my childhood|high school|college)|years ago|ago|growing up)\b",
    re.IGNORECASE,
)
_HABIT_EN = re.compile(
    rf"^I(?: {_HABIT_ADVERB_EN} (?!(?:wanted|thought|knew|felt|loved|liked|hated|wished|hoped|said|had|was|want|think|know|feel"
    rf"|wonder|wish|hope|try|seem|say|mean|forget|remember|find|need|love|like|hate|enjoy|get|got|am)\b)"
    rf"[a-z]+(?<!ed)\b| (?:don't|do not|never) {_DENIED_EN}\b"
    # A present verb with a recurring time, an adverb between as typed
    # ("i usualy go running in the mornings").
    rf"|(?: [a-z]+ly)? {_HABIT_VERB_EN}\b(?=.*(?:{_RECURRING_EN}|\b(?:usually|normally|mostly|always|typically)\b))"
    rf"|(?:'m| am) (?:more of )?an? [\w -]{{2,30}}? (?:person|kind of (?:guy|girl|gal|person)|type)\b"
    # How the speaker likes a thing given: "I like my reports in tables".
    rf"| (?:like|prefer|take|want) my [\w -]{{2,30}}? (?:in|with|without|as|short|long|strong|black|hot|cold"
    rf"|sweet|simple|brief|plain|rare|spicy|mild|iced|neat)\b)",
    re.IGNORECASE,
)
_HABIT_FR_VERB = (
    r"(?:bois|mange|prends|fais|cours|joue|lis|regarde|travaille|cuisine|conduis|fume|dors|marche"
    r"|me lève|me couche|utilise|porte|nage|roule|vais au|vais à la|fais mes)"
)
_HABIT_FR_MARK = (
    rf"\b(?:toujours|jamais|souvent|d'habitude|en général|généralement|tous les|toutes les|chaque"
    r"|le (?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|matin|midi|soir|week-end)"
    rf"|en semaine|le week-end|{SPAN_FR}|sans|rarement|(?<=bois )(?:mon|ma|mes)|(?<=prends )(?:mon|ma|mes)|que du|que de la|que de l'|que des|que d'|uniquement|surtout|plus de|pas de|pas d')"
)
_HABIT_FR = re.compile(
    r"^j'(?:aime|préfère) (?:mon|ma|mes) [\w -]{2,30}? (?:en|avec|sans|au|à la)\b|"
    rf"^(?:(?:d'habitude|en général|généralement|le plus souvent|souvent),? )?(?:je (?!ne mange\b)(?:ne |n')?|j')"
    rf"{_HABIT_FR_VERB}\b(?=.*{_HABIT_FR_MARK})"
    rf"|^(?:d'habitude|en général|généralement|le plus souvent),? (?:je|j')"
    # Led by its time, a habit needs its verb: "le soir je lis …", not "le soir je suis fatigué".
    rf"|^(?:le (?:matin|midi|soir|week-end)|en semaine|tous les (?:matins|soirs|jours|week-ends)),?"
    rf" (?:je (?:ne |n')?|j'){_HABIT_FR_VERB}\b",
    re.IGNORECASE,
)
# A habit on given days is a routine of the person's own time (``schedule``).
DAYS = re.compile(
    rf"{SPAN_FR}|{_SPAN_EN}|"
    r"\b(?:on (?:weekdays|weekends|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)"
    r"|every (?:weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|at weekends"
    r"|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday) (?:mornings|afternoons"
    r"|evenings|nights)"
    r"|le (?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|week-end)|en semaine)\b",
    re.IGNORECASE,
)
# A moment of its own makes a statement a plan or a story, not a habit.
ONE_MOMENT = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|evening|week|weekend)|last|next|right now"
    r"|aujourd'hui|ce soir|demain|hier|ce matin|cette semaine|ce week-end|dernier|dernière|prochain"
    r"|prochaine|tout à l'heure)\b",
    re.IGNORECASE,
)
HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|wonder|wish|pretend|imagine|peut-être|si jamais)\b", re.IGNORECASE
)
MAX_WORDS = 24
# What the speaker is, given so the agent uses it ("I'm a night owl so if
# you're suggesting a routine …", "i'm left-handed, in case that matters
# when you're recommending gear", "I'm a visual learner, diagrams help me
# …"): a short complement of "I'm", then a tail that turns to the agent's
# work ("you", "tu") or to what helps the speaker. What the speaker is at
# the moment ("sorry", "tired", "back") is no lasting trait.
# A place, a role of one's own or a thing owned follows a preposition or a
# determiner ("I'm in Honolulu", "I'm the admin", "I'm your developer"):
# where or who the speaker claims to be, never a trait of theirs.
_NOT_TRAIT = (
    r"(?:the|your|my|his|her|their|our|this|that|in|at|on|from|with|to|into|of|for|le|la|les|l'"
    r"|ton|ta|votre|mon|ma|ce|cet|cette|dans|à|au|en|de|du|des|sur|chez|avec|pour)"
)
_TRAIT = re.compile(
    rf"^(?:I'm|I am|je suis) (?:(?:a|an|un|une) )?(?P<trait>(?!{_NOT_TRAIT}\b)[\w-]+(?: [\w-]+)?)"
    r"(?:,\s*|\s+(?=so\b|donc\b|alors\b|du coup\b))(?P<tail>.+)$",
    re.IGNORECASE,
)
_FOR_AGENT = re.compile(
    r"\b(?:you|you're|your|tu|te|t'|tes|vous)\b|\bhelps? me\b|\bm'aide(?:nt)?\b", re.IGNORECASE
)
# A tail that gives the agent leave or a duty ("I'm an admin, so you can
# skip …", "tu n'as pas besoin de …") makes the sentence a claim of standing
# to order, which is read as an order or not at all, never as a trait.
_LEAVE = re.compile(
    r"\byou(?:'re| are)? (?:can|may|must|should|shall|need|needn't|don't (?:need|have)|do not (?:need|have)"
    r"|have to|are allowed|have permission)\b|\bno need\b|\b(?:tu|vous) (?:peux|pouvez|dois|devez|as le droit"
    r"|avez le droit|n'as pas|n'avez pas)\b|\bpas besoin\b",
    re.IGNORECASE,
)
_PASSING = re.compile(
    r"^(?:not|so|very|really|just|sorry|tired|busy|afraid|glad|happy|sure|done|back|here|late|confused"
    r"|stuck|excited|curious|ready|fine|ok|okay|good|great|sick|hungry|bored|désolée?|fatiguée?|prête?"
    r"|sûre?|content|contente|là|de retour|en retard)\b",
    re.IGNORECASE,
)


def _trait_for_agent(text: str) -> bool:
    said = _TRAIT.match(text)
    return bool(
        said
        and not _PASSING.match(said["trait"])
        and _FOR_AGENT.search(said["tail"])
        and not _LEAVE.search(said["tail"])
    )


def habit_of(text: str) -> str | None:
    """The habit ``text`` (a clause without its lead-ins) states of the speaker, or ``None``."""
    if not text or text.endswith("?") or HEDGE.search(text) or len(text.split()) > MAX_WORDS:
        return None
    if ONE_MOMENT.search(text):
        return None
    if _HABIT_EN.match(text) and not _PAST_MARK_EN.search(text):
        return text
    if _HABIT_FR.match(text) or _trait_for_agent(text):
        return text
    return None


# What a sentence the habit reader by meaning placed must still be to be kept
# as a taste (``meaning.candidate``). Its value is the whole sentence, so the
# sentence must be a taste or habit of the speaker's, not a story, a plan, a
# wish of the moment or a statement of who the speaker is: those are facts
# of their own kind (``occupation``, ``child``), which a ``prefers`` would
# misfile.
_OF_SPEAKER = re.compile(
    r"\b(?:j'|m')|\b(?:i|me|my|mine|myself|we|us|our|je|moi|mon|ma|mes|nous|notre|nos)\b",
    re.IGNORECASE,
)
# A thing said to be so, of no one ("Exploring new places is always fun"):
# a remark, whatever taste it hints at.
_COPULA = re.compile(r"\b(?:is|are|was|were|est|sont|c'est)\b", re.IGNORECASE)
# A past said of the speaker ("I moved to Berlin", "we adopted a puppy",
# "j'ai adopté un chat"); "-eed" is no past ("I feed the cat").
_PAST_OF_SPEAKER = re.compile(
    rf"^(?:I|we)(?: \w+)? (?:\w+[^e\W]ed|{_IRREGULAR_PAST_EN})\b"
    # "J'ai toujours aimé le café" is a taste that lasts, not a story.
    r"|^(?:j'ai|nous avons|on a)(?! toujours| jamais)(?: \w+)? \w+é(?:e|s|es)?(?!\w)",
    re.IGNORECASE,
)
# A wish of the moment, a hypothetical or a plan ("I'd love to check them
# out", "if I need anything, I'll reach out"), or a state of late ("I've
# been feeling low lately").
_CONDITIONAL = re.compile(
    r"^(?:I'd|I would|I'm going to|j'aimerais|je voudrais|je vais)\b"
    r"|\b(?:I'll|I will|we'll|we will|lately|recently|dernièrement|récemment)\b",
    re.IGNORECASE,
)
# Someone else as the subject ("She's full of energy", "They're my little
# buddies", "You're really passionate about gaming"): their trait, not the
# speaker's taste. An order to the agent was told apart before
# (``meaning.by_subject``).
_OTHER_SUBJECT = re.compile(
    r"^(?:he|she|they|you|his|her|their|your|il|elle|ils|elles|tu|vous)(?:'s|'re|'ve|'ll|'d)?\b",
    re.IGNORECASE,
)
# Who the speaker is ("I'm a software dev at a startup", "je suis infirmière
# à Lyon"); a taste said so names its kind ("I'm a morning person", "a big
# fan of jazz").
_IS_A = re.compile(
    r"^(?:I'm|I am|je suis)(?: not| pas)? (?:a|an|un|une) (?!.*\b(?:person|type|kind|fan|lover"
    r"|personne|genre|fan|amateur|amatrice)\b)",
    re.IGNORECASE,
)


def not_a_taste(said: str) -> bool:
    """Whether ``said`` (a sentence read as a habit by meaning) states no taste of the speaker's."""
    return bool(
        (_COPULA.search(said) and not _OF_SPEAKER.search(said))
        or HEDGE.search(said)
        or ONE_MOMENT.search(said)
        or _PAST_MARK_EN.search(said)
        or _PAST_OF_SPEAKER.match(said)
        or _CONDITIONAL.search(said)
        or _OTHER_SUBJECT.match(said)
        or _IS_A.match(said)
    )
