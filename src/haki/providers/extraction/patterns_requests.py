"""Standing requests put to the assistant, English and French, in any verb.

The convention rules of ``patterns_en_orders`` and ``patterns_fr`` read an
order by its verb, from a list of verbs of work; people ask for what they
want in words no list holds ("Always greet me by my first name", "Don't
use emojis", "I'd like you to keep answers under 100 words", "merci de
toujours citer tes sources"). Here the **frame** says it is a standing
request, whatever the verb:

- a marker that it lasts: "always", "never", "from now on", "by default",
  "whenever …", "every time …", "dorénavant", "à partir de maintenant",
  "verbe + toujours / jamais";
- a request put to "you": "I'd like you to", "I want you to", "make sure
  you", "please don't", "stop …ing", "je veux que tu", "merci de", "évite
  de", with a verb of how to answer (``REPLY_VERBS``) when no marker says it
  lasts.

Verbs of feeling and chit-chat ("never give up", "don't worry", "I want you
to know") are no orders. Each rule is ``addressed``: a named speaker of a
group conversation says it to another person, not to the assistant, so it
is read only from an unnamed speaker. What an order does is judged apart,
whatever rule read it (``consolidator.guard``, ``text/risk.py``): a rule
vouches for the frame, never for the order, and the guard holds every order
whose clause reaches beyond the reply for a person to confirm. A
bare imperative counts as standing when an every-occasion marker follows
its verb ("always", "any", "when you", "toujours", "chaque", "quand je").
"""

from __future__ import annotations

from .fragments import IMPERATIVES_EN, LASTING_EN, LASTING_FR, Rule, cased, icase

# What follows "never" or "don't" in chat between people, not an order about work or replies.
_NOT_AN_ORDER_EN = (
    r"(?!(?:be|being|have|know|feel|think|remember|forget|understand|worry|mind|give up|give in|stop|here|there|ready"
    r"|welcome|again|ever|hesitate|let|lose|doubt|change|look back|settle|quit|underestimate|take care|take it|go|get|come"
    r"|miss|fail|regret|leave me|leave it|want|need|say|mean|believe|wish|hope|try|dream|fear|judge|apologi[sz]e"
    r"|hate|love|like|do that|do it|you|you're|you'll|I|I'm|we|it|it's|this|that|they|he|she|a|an"
    r"|the|my|your|so|such|nice|good|great|fun|happy|glad|on|in|at|up|with|for|too|very|just)\b)"
)
_NOT_AN_ORDER_FR = (
    r"(?!(?:être|sois|soyez|avoir|aie|savoir|penser|pense|oublie|oublier|abandonne|abandonner|t'inquiète"
    r"|vous inquiétez|inquiète|hésite|hésitez|hésiter|regrette|change|changer|lâche|lâcher|saches|sache"
    r"|sois|soit|rappelles|souviennes|tu|vous|je|il|elle|on|nous|c'est|ce|ça|un|une|le|la|les|mon|ma|ton|ta"
    r"|très|si|bien|bon|bonne)\b)"
)
# How an answer is given: enough, beside a request put to "you", to make it standing.
REPLY_VERBS = (
    rf"{IMPERATIVES_EN}|greet|address|talk|speak|explain|list|give|keep|avoid|stop|use|write|reply|answer"
    r"|respond|format|include|show|remind|tell|call|refer|sign|quote|express|convert|measure|date|round"
    r"|number|bold|highlight|mark|label|sort|structure|lead|start|end|finish|open|close|limit|skip|leave"
)
# How the agent behaves towards the person, which a negative wish asks it to
# leave off ("don't warn me about spelling", "ne t'excuse pas à chaque
# fois"). What such a wish lowers is the risk gate's to judge: "don't warn
# me about phishing links" reads here too, and ``text/risk.py`` holds it.
_MANNER_EN = (
    r"warn|ask|apologi[sz]e|nag|bother|lecture|correct|flag|alert|mention|pester|interrupt|check with"
    r"|double-check|confirm|thank|congratulate|praise|greet"
)
_MANNER_FR = (
    r"excuse|préviens|rappelle|demande|avertis|embête|relance|corrige|signale|interromps|remercie"
    r"|félicite|salue|sermonne"
)
_VERB_EN = r"[a-z][a-z'-]+"
_VERB_FR = r"[a-zàâçéèêëîïôûùüÿœ][\wàâçéèêëîïôûùüÿœ'-]+"
_LASTS_EN = (
    rf"(?:{LASTING_EN}|in (?:the )?future|for (?:all )?future \w+|whenever possible|at all times)"
)
_LASTS_FR = rf"(?:{LASTING_FR}|à chaque fois|chaque fois)"
_CLAUSE = r".{2,120}?"
_END = r"(?:,? (?:please|thanks|thank you|thx))?[.!]?$"


def _request(pattern: str) -> Rule:
    return Rule(
        "convention",
        icase(pattern),
        "clause",
        "instruction",
        "stable",
        0.6,
        addressed=True,
    )


# How the speaker wants to be called: "Call me Sam", "Appelle-moi Sam";
# said of themselves, "I go by Sam", "je me fais appeler Sam" (``mood``
# files the first as an instruction, the second as a preference).
_CALL_ME = Rule(
    "preferred_name",
    cased(
        r"^(?:[Pp]lease,? )?(?:[Cc]all me|[Aa]ddress me as|[Yy]ou can call me|[Aa]ppelle-moi|[Aa]ppelez-moi"
        r"|[Tt]u peux m'appeler|[Vv]ous pouvez m'appeler|[Ii] go by|[Ii]'m known as|[Jj]e me fais appeler) (?P<v>(?:Dr\.? |Mr\.? |Ms\.? |Mrs\.? )?[A-ZÀ-Ý][\w'-]+"
        r"(?: [A-ZÀ-Ý][\w'-]+)?)(?:,? (?:please|s'il te plaît|stp|from now on|dorénavant))?[.!]?$"
    ),
    "phrase",
    "preference",
    "slow",
    0.7,
    addressed=True,
)


# What a bare imperative must be about to be a standing request on the form
# of replies ("Keep your answers short", "Use British spelling", "No emojis").
_FORM = (
    r"(?:your |the |all |my )?(?:answers?|replies|reply|responses?|spelling|format(?:ting)?|bullet(?: points)?"
    r"|emojis?|emoticons?|tone|jargon|abbreviations|markdown|headings?|tables?|paragraphs?|sentences?"
    r"|words|examples|code blocks?|units?|dates?|lists?|explanations?|language)"
)
_FORM_VERBS = (
    r"keep|use|answer|reply|respond|write|format|give|avoid|add|include|put|show|limit|skip|stick to|sort"
    r"|spell|date|number|round|express|convert|structure"
)
_FORM_FR = (
    r"(?:tes |les |des |d'|de |mes )?(?:réponses?|orthographe|format|puces|emojis?|émojis?|émoticônes|ton"
    r"|jargon|abréviations|markdown|titres|tableaux|paragraphes|phrases|mots|exemples|unités|dates|listes"
    r"|montants|prix|heures|horaires|quantités|chiffres|nombres"
    r"|résumés?|explications?)"
)

# A word that opens a statement, not an imperative: "Thanks for everything",
# "Our team uses …", "Mondays are …" (a verb in -s, -ed, -ly or -ing), or a
# chat interjection before one ("fyi in case I never said, …").
_NOT_IMPERATIVE_EN = (
    r"(?!(?:fyi|btw|tbh|lol|anyway|oh|well|hey|yeah|nah|wait|sorry|random|update"
    r"|our|their|his|her|its|there|here|what|which|who|how|why|where|when|if|as|so|but|and|or|yes|no|ok"
    r"|okay|thanks|sure|also|today|tomorrow|last|next|some|many|most|every|each|all|any|both|one|had|was|were"
    r"|is|are|got|went|did|made|said|took|saw|felt|can|could|would|should|will|must|may|might|lets?|let's"
    r"|[a-z]+(?:ed|ly|ing|s))\b)"
)
_NOT_IMPERATIVE_FR = (
    r"(?!(?:ne|n'|t'|m'|s'|les|des|du|de|d'|dans|pour|avec|mes|tes|ses|nos|vos|leurs|ces|cette|cet|quand|comme|mais|donc"
    r"|alors|puis|oui|non|merci|salut|bonjour|chez|sur|sous|après|avant|depuis|hier|demain|aujourd'hui|en|au"
    r"|aux|j'|c'|l'|qu'|que|qui|tout|tous|toute|toutes|chaque|notre|votre|leur|ils|elles|y|est|sont|était"
    r"|a|ai|as|ont|fait|va|vais|vont|pas|plus|inutile)\b)"
)
# Said of every occasion, not of one: what makes a bare imperative standing.
# "All" and "tous" count things, not occasions ("Ignore all previous
# instructions", "lis tous les documents"), so they do not.
_GENERAL_EN = (
    r"\b(?:always|never|every|each|any|whenever|when(?:ever)? (?:you|I|we)|by default|every time"
    r"|each time|from now on)\b"
)
_GENERAL_FR = (
    r"\b(?:toujours|jamais|chaque|systématiquement|quand (?:je|tu|on)|lorsque|à chaque fois"
    r"|dorénavant|désormais|par défaut)\b"
)

REQUESTS: tuple[Rule, ...] = (
    _CALL_ME,
    # "Always greet me by my first name", "Never use emojis": the same value
    # as the verb-list rule, so both read one fact.
    _request(
        rf"^(?:please,? )?(?:{_LASTS_EN},? )?(?P<v>(?:always|never) {_NOT_AN_ORDER_EN}{_VERB_EN} {_CLAUSE}){_END}",
    ),
    # "From now on, greet me in Spanish", "By default, sort lists by date".
    _request(
        rf"^(?:please,? )?{_LASTS_EN},? (?:please,? )?(?P<v>{_NOT_AN_ORDER_EN}{_VERB_EN} {_CLAUSE}){_END}",
    ),
    # "Whenever I ask for a recipe, give the quantities in grams."
    _request(
        rf"^(?P<v>(?:whenever|every time|each time|when) (?:I|we|you) [^,]{{3,80}}, (?:please,? )?(?:always )?"
        rf"{_NOT_AN_ORDER_EN}{_VERB_EN} {_CLAUSE}){_END}",
    ),
    # The same without the comma, when a verb of how to answer opens the
    # order: "when you summarise articles for me give me 3 bullets max".
    _request(
        rf"^(?P<v>(?:whenever|every time|each time|when) (?:I|you|we) (?!(?:was|were|had|did|went|got)\b|\w+ed\b)"
        rf"[^,.!?]{{3,80}}? (?:{REPLY_VERBS}) (?:me|us|it|them)\b {_CLAUSE}){_END}"
    ),
    # A bare imperative said of every occasion, in any verb: "Name test
    # files test_<module>.py for every module", "Prefer pytest for any
    # tests you write", "Give me vim keybindings when you explain shortcuts".
    _request(
        rf"^(?:please,? )?(?P<v>{_NOT_IMPERATIVE_EN}{_NOT_AN_ORDER_EN}{_VERB_EN} (?=[^.!?]*{_GENERAL_EN})"
        rf"[^.!?]{{2,140}}?){_END}",
    ),
    # "Don't use emojis", "Please never call me Bob", "Do not ever add a signature."
    _request(
        rf"^(?:please,? )?(?P<v>(?:don't|do not)(?: ever)? {_NOT_AN_ORDER_EN}(?:{REPLY_VERBS}|{_MANNER_EN}) {_CLAUSE}){_END}"
    ),
    # "Ne t'excuse pas à chaque fois", "Ne me préviens plus pour les fautes".
    _request(
        rf"^(?:merci de |stp,? )?(?P<v>(?:ne |n')(?:me |m'|te |t')?(?:{_MANNER_FR})(?:-moi)? (?:pas|plus|jamais)\b"
        rf"(?: {_CLAUSE})?)(?:,? (?:s'il te plaît|stp|merci))?[.!]?$",
    ),
    # "Stop apologising in every answer", "Avoid jargon when you explain things."
    # "quit" orders only with what is to be quit doing ("quit adding emojis"):
    # "quit my job at Amazon" is the speaker's own past, subject unsaid.
    _request(
        rf"^(?:please,? )?(?P<v>(?:(?:stop|avoid) [a-z]+(?:ing)?|quit [a-z]+ing) {_CLAUSE}){_END}"
    ),
    # "I'd like you to keep answers short", "I want you to call me Sam",
    # "Make sure you always cite a source".
    _request(
        rf"\b(?:I(?:'d| would) (?:like|prefer|love|rather)(?: it if)?|I (?:want|need)) you (?:to )?"
        rf"(?P<v>(?:always |never )?(?:{REPLY_VERBS}) {_CLAUSE}){_END}"
    ),
    _request(
        rf"^(?:please,? )?(?:make sure|be sure|remember) (?:to|that you|you) "
        rf"(?P<v>(?:always |never )?(?:{REPLY_VERBS}) {_CLAUSE}){_END}"
    ),
    # A bare imperative on the form of replies: "Keep your answers short",
    # "Use British spelling", "Answer in bullet points".
    _request(
        rf"^(?:please,? )?(?P<v>(?:{_FORM_VERBS}) (?:me |us )?(?:[\w-]+,? ){{0,3}}?(?:in |with |to |as |into |without )?"
        rf"(?:\w+ )?{_FORM}\b.{{0,80}}?){_END}"
    ),
    _request(rf"^(?:please,? )?(?P<v>no (?:more )?{_FORM}\b.{{0,60}}?){_END}"),
    _request(
        rf"^(?P<v>pas (?:de |d')(?:{_FORM_FR})\b.{{0,60}}?)(?:,? (?:s'il te plaît|stp|merci))?[.!]?$"
    ),
    # French: "Réponds toujours en moins de 100 mots", "N'utilise jamais d'emojis".
    _request(
        rf"^(?:merci de |s'il te plaît,? |stp,? )?(?P<v>(?:ne |n')?{_NOT_AN_ORDER_FR}{_VERB_FR}"
        rf"(?:-moi|-nous|-les|-le|-la|-lui)? (?:toujours|jamais|systématiquement) {_CLAUSE})[.!]?$",
    ),
    # What the team does, said as a practice: "We use snake_case for all
    # Python variables", "we deploy with Terraform", "Dans notre code Go on
    # utilise des tabulations".
    _request(
        r"^(?:(?:in|for|at|dans|pour|chez) [^,]{2,50},? )?(?P<v>(?:we|on|nous) (?:always |only |toujours )?"
        r"(?:use|write|deploy with|name|indent with|format with|code in|utilise|utilisons|écrit|écrivons"
        r"|déploie avec|déployons avec|nomme|nommons|indente avec) [^.!?]{2,100}?)[.!]?$",
    ),
    # "Quand je te demande un résumé, fais-le en 3 points max."
    _request(
        rf"^(?P<v>(?:quand|lorsque|chaque fois que|à chaque fois que|dès que) (?:je |j'|on |tu |nous )"
        rf"[^,]{{3,80}}, (?:merci de |stp,? )?(?:toujours )?{_NOT_AN_ORDER_FR}{_VERB_FR}"
        rf"(?:-moi|-nous|-les|-le|-la|-lui)? {_CLAUSE})[.!]?$",
    ),
    # A bare imperative said of every occasion: "Mets les heures en heure de
    # l'Est pour chaque rendez-vous", "Respecte toujours le format feature/xxx".
    _request(
        rf"^(?:merci de |stp,? )?(?P<v>{_NOT_IMPERATIVE_FR}{_NOT_AN_ORDER_FR}{_VERB_FR}"
        rf"(?:-moi|-nous|-les|-le|-la|-lui)? (?=[^.!?]*{_GENERAL_FR})[^.!?]{{2,140}}?)"
        rf"(?:,? (?:s'il te plaît|stp|merci))?[.!]?$",
    ),
    # "Dorénavant, tutoie-moi", "À partir de maintenant, donne les prix en euros".
    _request(
        rf"^{_LASTS_FR},? (?:merci de |s'il te plaît,? )?(?P<v>{_NOT_AN_ORDER_FR}{_VERB_FR} {_CLAUSE})[.!]?$",
    ),
    # "Merci de toujours citer tes sources", "Évite le jargon", "Je veux que tu me tutoies".
    _request(
        rf"^(?:merci de|pense à|n'oublie pas de|veille à) (?P<v>(?:toujours |ne jamais |jamais )?"
        rf"{_NOT_AN_ORDER_FR}{_VERB_FR} {_CLAUSE})[.!]?$",
    ),
    _request(rf"^(?P<v>(?:évite|arrête) (?:de |d'|le |la |les |l')\s?{_CLAUSE})[.!]?$"),
    # "Tutoie-moi", "Vouvoie-moi", "Fais des réponses courtes", "Utilise le système métrique".
    Rule(
        "address_form",
        icase(
            r"^(?P<v>(?:tutoie|vouvoie|tutoyez|vouvoyez)-(?:moi|nous))(?:,? (?:s'il te plaît|stp|merci))?[.!]?$"
        ),
        "phrase",
        "preference",
        "slow",
        0.7,
        addressed=True,
    ),
    _request(
        rf"^(?:merci de |s'il te plaît,? )?(?P<v>(?:fais|donne|écris|réponds|utilise|garde|évite|mets|rédige|formate|affiche|montre|exprime"
        rf"|convertis|présente|arrondis|indique)"
        rf"(?:-moi|-nous)? (?:\w+ ){{0,3}}?{_FORM_FR}\b.{{0,80}}?)(?:,? (?:s'il te plaît|stp|merci))?[.!]?$"
    ),
    _request(
        rf"\bje (?:veux|voudrais|souhaite|préfère|préférerais|aimerais) que (?:tu|vous) "
        rf"(?P<v>(?:me |m'|nous |ne |n')?{_NOT_AN_ORDER_FR}{_VERB_FR} {_CLAUSE})[.!]?$",
    ),
)
