"""The frames a standing wish is said in, as ``wishes`` reads them (pure regex tables).

Lead-ins and politeness that carry no fact, the marks that say a wish
lasts, what a bare order opens on, settings ("when I …, …", "chaque
vendredi, …"), statements and chit-chat that are no order, and the acts
beyond the reply that reading leaves to the request rules. ``wishes``
holds the reading; this module only the words.
"""

from __future__ import annotations

import re

from ...text.injection import PICTOGRAPH_BREAK
from .fragments import IMPERATIVES_EN, LASTING

# A short lead-in that carries no fact ("Heads up:", "Quick thing:", "btw").
# One that names a rule ("Rule of thumb for our scripts:", "petite règle :")
# also says that what follows lasts.
LEAD = re.compile(
    r"^(?:(?:oh|and|also|btw|by the way|so|ok|okay|just|et|aussi|au fait|bon|alors)\b,?\s+)+"
    rf"|^(?P<lasting>{LASTING}),?\s+"
    r"|^(?P<lead>[^:,.!?]{1,45}?)\s?:\s+",
    re.IGNORECASE,
)
RULE_LEAD = re.compile(
    r"\b(?:rules?|rule of thumb|conventions?|habit|règles?|convention|habitude|toujours|always)\b",
    re.IGNORECASE,
)
# The tail's blank run is matched from its first blank only (``(?<!\s)``):
# started at every blank of a long run it would be read again from each,
# in time square to the run's length.
POLITE = re.compile(
    r"^(?:please|pls|plz|kindly|stp|svp|s'il te pla[iî]t),?\s++"
    r"|(?:,|(?<![\s,]))\s++(?:please|pls|plz|thanks|thank you|thx|stp|svp|merci|s'il te pla[iî]t"
    r"|(?:ok|okay|alright|right|got it|d'accord|compris)\s?\?)$",
    re.IGNORECASE,
)
# A tag after an order asks only that it be heard ("never share my phone
# number with anyone, ok?"): the order is no question.
# The tag is a word of its own ("…, ok?"), never the end of one ("facebook?");
# the blanks before it are entered only where their run starts (linear).
TAG_QUESTION = re.compile(
    r"(?:,|(?<![\s,]))\s*+\b(?:ok|okay|alright|right|got it|d'accord|compris)\s?\?\s*$",
    re.IGNORECASE,
)
POLITE_ANY = re.compile(
    r"\b(?:please|pls|plz|kindly|merci|stp|svp|s'il te pla[iî]t)\b", re.IGNORECASE
)

# Said of every occasion, or of the speaker's own lasting taste.
STANDING = re.compile(
    r"\b(?:always|never|every|each|any|anything|anytime|whenever|when(?:ever)? (?:I|you|we)(?! can\b)"
    rf"|if I (?:ask|send|want|need|say|mention)|{LASTING}|in general"
    r"|any ?more|tops|at most|max|no more than|in (?:your|all your) (?:answers|replies|messages|responses)"
    # A kind of answer, not one: "at the top of long answers", "in replies".
    r"|(?:of|in|to|for|on) (?:(?!the\b|these\b|those\b|my\b|this\b|that\b)\w+ )?(?:answers|replies|responses)"
    r"|dans (?:tes|vos) (?:réponses|messages)"
    r"|toujours|tjrs|tjs|jamais|chaque|partout|quand (?:je|j'|tu|on)|si je"
    r"|en général|à chaque fois|plus jamais|au maximum)\b",
    re.IGNORECASE,
)
# What a bare order opens on: an imperative ("round to the nearest dollar",
# "propose toujours …", "dis-moi …"), or "always"/"never"/"don't" before
# one. A clause that opens otherwise and says it lasts is read only when it
# has no verb and is said for the speaker ("weights in kilos for me, never
# pounds").
HEAD = re.compile(
    r"^(?:no|pas de|pas d'|zéro)\s?\w|"
    rf"^(?:(?:always|never|don't|do not|toujours|jamais|ne|n')\s?)?(?:(?:{IMPERATIVES_EN}|give|tell|make|answer"
    r"|reply|talk|speak|stick to|switch to|avoid|stop|start|end|begin|finish|suggest|propose|recommend|offer"
    r"|leave|drop|skip|include|describe|point out|spell out|double|add|say so)\b"
    r"|(?:réponds|mets|donne|écris|parle|utilise|évite|garde|fais|dis|explique|arrête|continue|reste|indique"
    r"|précise|rappelle|cite|traduis|résume|ajoute|vérifie|relis|note|laisse|prends|commence|termine|respecte"
    r"|formate|rédige|affiche|montre|convertis|arrondis|propose|suggère|conseille|signale|préviens|corrige"
    r"|emploie|écris|présente|range|classe|tutoie|vouvoie|appelle)\b"
    r"|[a-zàâçéèêëîïôûùœ]+-(?:moi|nous)\b)"
    # French gives a standing order in the infinitive too, after the word
    # that says how often: "toujours me vouvoyer", "ne jamais utiliser de
    # tirets", "tjrs répondre en français".
    r"|^(?:toujours|tjrs|tjs|jamais|ne jamais|ne pas|ne plus|surtout ne pas)\s+"
    r"(?:(?:me|te|nous|lui|leur|les|le|la|en|y)\s+|[mlt]')?[a-zàâçéèêëîïôûùœ]{2,}(?:er|ir|re|oir)\b",
    re.IGNORECASE,
)
# Scoped to the team's work as a whole, an order on a kind of thing is the
# team's convention ("name React components in PascalCase in our project",
# "des guillemets partout dans notre code"). One on a thing pointed at ("fix
# the bug in our repo", "corrige ce test dans notre dépôt") is an errand.
TEAM_SCOPE = re.compile(
    r"\b(?:(?:in|for|across) (?:all )?our (?:\w+ )?(?:projects?|repos?|repositories|codebases?|code|team"
    r"|variables|functions|files|classes|tests|components|modules|scripts|queries|tables|branches|commits)"
    r"|(?:dans|sur|pour) (?:tout )?(?:notre|nos) (?:\w+ )?(?:projets?|code|dépôts?|repos?|équipe))\b",
    re.IGNORECASE,
)
# An order scoped to a kind of thing, not to one thing: "use 2-space
# indentation in JS", "réponds en bullet points", "for SQL use uppercase
# keywords". Neither the object nor the scope has a determiner: a kind,
# not an item ("write a poem in French", "translate this to Spanish" are
# errands). 15 determiners per language.
_DETERMINER = (
    r"(?:a|an|the|this|that|these|those|my|your|his|her|its|our|their|me|it|them"
    r"|un|une|le|la|les|l'|ce|cet|cette|ces|mon|ma|mes|ton|ta|tes|du|des|moi)"
)
# The verbs of how a piece of work is done, the only ones read so: "explain
# recursion in Python" is an errand.
WORK_VERB = (
    r"(?:use|follow|write|format|name|indent|answer|reply|respond|put|keep|give|sign"
    r"|utilise|suis|respecte|écris|formate|nomme|indente|réponds|mets|garde|donne|signe)"
)
KIND_SCOPE = re.compile(
    rf"^{WORK_VERB}\s+(?:(?!{_DETERMINER}\b)[\w'+#-]+\s+){{0,4}}?(?:in|for|en|pour|dans)\s+"
    rf"(?!{_DETERMINER}\b)(?:any\s+|all\s+)?[\w+#.-]+(?:\s+[\w+#.-]+)?\s*$",
    re.IGNORECASE,
)
# After a scope said first, the order on kinds of things: a verb of work,
# then up to ten words none of which points at one thing ("use uppercase
# keywords and snake_case table names"): the scope already says it is
# a kind of work, so the object may be a list of kinds.
SCOPED_ORDER = re.compile(
    rf"^{WORK_VERB}\s+(?:(?!{_DETERMINER}\b)[\w'+#.-]+\s*){{1,10}}$", re.IGNORECASE
)
# The scope said first: "For SQL use uppercase keywords", "en Python,
# utilise des f-strings". One or two words of scope, then the order.
SCOPE_FIRST = re.compile(
    rf"^(?:for|in|pour|en)\s+(?!{_DETERMINER}\b)(?P<scope>[\w+#.-]+(?:\s+[\w+#.-]+)?),?\s+", re.I
)
# How to address the person in a setting holds until it is changed:
# "appelle-moi Dr Martin dans les mails formels", "call me Sam at work".
# A plain "call me Sam" is the name rules' (``naming``).
ADDRESSING = re.compile(
    r"^(?:call|address|appelle|tutoie|vouvoie)(?:\s+me|-moi)?\b.*?\s(?:in|at|for|when|whenever|dans|en|pour"
    r"|quand|au|aux|lors)\s",
    re.IGNORECASE,
)
ONE_THING = re.compile(
    r"^\S+(?: \S+-\S+)? (?:the|this|that|these|those|my|it|le|la|l'|les|ce|cet|cette|ces|mon|ma|mes)\b",
    re.IGNORECASE,
)
FOR_ME = re.compile(
    r"\b(?:for me|with me|pour moi|avec moi|please|pls|merci|stp|svp)\b|,\s*(?:never|not|jamais|pas)\b",
    re.IGNORECASE,
)
SELF_SCOPE = re.compile(r"\b(?:for me|pour moi)\b", re.IGNORECASE)
VERB_FORM = re.compile(r"\b[a-z]+(?:ed|ing)\b|[\"“”«»]", re.IGNORECASE)
# Encouragement, not a wish about the agent's work ("keep believing in yourself").
CHEER = re.compile(
    r"^keep(?: on)? (?:trying|going|believing|pushing|fighting|smiling|dreaming|shining|learning|growing"
    r"|practicing|practising|rocking|working|moving|being|it up|at it|up)\b|^keep(?: on)? \w+ing (?:what|how|whatever)\b"
    r"|\band enjoying\b|\byoursel(?:f|ves)\b|\btoi-même\b"
    # An act whose object is the addressee's own life or work ("keep sharing
    # your art", "keep chasing your dreams", "keep writing those beautiful
    # poems"), or said with praise or "no matter what", cheers them on: how
    # the agent answers would be "keep writing *the summaries* in bullets".
    r"|^keep(?: on)? \w+ing (?:\w+ )?(?:your(?! (?:\w+ )?(?:answers?|repl(?:y|ies)|responses?|messages?|summar\w*|explanations?|examples?"
    r"|code|outputs?|tone|recaps?|lists?|tables?|sentences?|paragraphs?|comments?))|those (?:\w+ )?(?:beautiful|amazing|great|wonderful|lovely|awesome"
    r"|incredible|fantastic|brilliant)|ta|tes|ton|vos|votre)\b"
    r"|\bno matter what\b|\bquoi qu'il arrive\b|\bit'?s (?:so |really )?(?:inspiring|amazing|beautiful"
    r"|wonderful|great|awesome)\b",
    re.IGNORECASE,
)
# A frame that says the wish lasts, whatever follows it.
LASTING_FRAME = re.compile(
    r"^(?:keep(?: on)? [a-z]+ing\b|(?:you can|you may|feel free to) (?:stop|quit|drop|skip) \w"
    r"|(?:stop|quit) [a-z]+ing\b|no more\b"
    r"|continue[sz]? (?:à|a|de|d'|comme ça|ainsi|avec)\s?\w|(?:tu peux|vous pouvez) (?:arrêter|cesser|arrêtez) (?:de|d')"
    r"|(?:arrête|arrêtez|cesse) (?:de|d')\s?\w|plus (?:de|d')\s?\w)",
    re.IGNORECASE,
)
# A request put to the agent with a verb of how it answers or addresses the person.
ASK_FRAME = re.compile(
    r"^(?:I(?:'d| would) (?:like|prefer|rather|love)(?: it if)? you(?: to)?|I (?:want|need) you to"
    # The same request as a wish of how things would be: "it'd be great if you …".
    r"|it(?:'d| would) be (?:\w+ )?(?:great|nice|good|helpful|awesome|cool|lovely|ideal|better|perfect) if you"
    r"|ce serait (?:\w+ )?(?:bien|top|super|génial|cool|parfait|pratique) (?:si tu|que tu)"
    r"|j'aimerais (?:bien )?que (?:tu|vous)|je (?:préfère|préférerais|voudrais|veux|souhaite) que (?:tu|vous)"
    r"|tu peux|vous pouvez)\s+"
    r"(?:me |m'|always |never |ne |n')?(?P<verb>[\wàâçéèêëîïôûùœ'-]+)",
    re.IGNORECASE,
)
ADDRESS_VERBS = re.compile(
    r"^(?:call|address|greet|refer|talk|speak|answer|reply|respond|write|keep|use|sign"
    r"|appelles?|appeliez|appeler|tutoies?|tutoyer|vouvoies?|vouvoyer|répondes?|parles?|écrives?|utilises?|gardes?|évites?"
    r"|mettes?|donnes?|fasses?|dises?|expliques?|nommes?|adresses?)$",
    re.IGNORECASE,
)
# The acts of a person asking something of the agent.
_ASKING = (
    r"(?:ask|asks|asked|request|requests|want|wants|need|needs|call|calls|text|texts|e-?mails?|messages?"
    r"|writes?|contacts?|demande|demandent|veut|veulent|appelle|appellent|écrit|écrivent|contacte|contactent)"
)
# "When I send you a photo, tell me …", "Pour nos scripts, toujours …",
# "For anything with money, round …": a setting, then the order.
SETTING = re.compile(
    r"^(?:(?:when|whenever|if|every time|each time|any ?time|quand|lorsque|si|chaque fois que|dès que)"
    r" (?:I|we|you|je|j'|on|tu|nous)\b"
    # A condition on the answer or the matter, not on a person's request
    # ("if the answer involves money, give it in AUD"): a request of a third
    # party's ("when the devs ask for …, give it") sets no wish of the speaker's.
    # Such a setting is read only before an order a verb opens (``HEAD``).
    r"|(?P<thing>(?:when|whenever|if|quand|lorsque|si|dès que) (?:the|a|an|it|le|la|les|l'|un|une|il|elle)\b"
    rf"(?![^,:;]*\b{_ASKING}\b)"
    # A kind of thing the order is scoped to: "pour les mails pro, commence par …".
    r"|(?:for|pour) (?:the (?:\w+ )?\w+s|les \w+)\b)"
    # A condition said without its subject: "when in doubt", "if unsure", "si besoin".
    r"|(?:when|if|quand|si|en cas de) (?:in doubt|unsure|not sure|uncertain|possible|needed|necessary|relevant"
    r"|doute|besoin|possible|nécessaire|pertinent)\b"
    r"|(?:for|with|in|on|pour|avec|dans|sur) "
    r"(?:any|anything|all|every|each|our|my|tous|toutes|tout|nos|mes|chaque)\b"
    # A recurring time: "every friday, …", "chaque vendredi, rappelle-moi …".
    r"|(?:every|each|chaque|tous les|toutes les) (?:other )?[\w-]+)[^,:;]{0,80}[,:]\s*(?P<rest>.+)$",
    re.IGNORECASE,
)
# A clause that states something rather than asks it: a subject, a
# determiner of a statement, or a word of chit-chat opens it.
STATEMENT = re.compile(
    r"^(?:I|I'm|I've|I'll|I'd|my|we|we're|our|it|it's|its|this|that|these|those|there|here|he|she|they"
    r"|you|you're|your|his|her|their|what|who|how|why|where|thanks|thank|sorry|yes|no|yeah|nope|ok"
    r"|okay|sure|hi|hello|hey|lol|haha|wow|je|j'|mon|ma|mes|on|nous|notre|nos|il|elle|ils|elles|c'est"
    r"|ce|ça|cette|ces|merci|oui|non|désolé|salut|bonjour|tu|vous|ton|ta|tes|qui|que|quoi|comment"
    r"|pourquoi|où|nothing|everything|something|nobody|everyone|rien|tout le monde|personne|as|been)\b",
    re.IGNORECASE,
)
# A finite verb of being or a denial: a verbless wish has none ("Home for
# me is Glasgow", "Priya and I aren't together anymore" state things).
FINITE = re.compile(
    r"\b(?:is|are|was|were|am|isn't|aren't|wasn't|\w+n't|beats|est|sont|était|étaient|suis)\b|'(?:s|re|m)\b",
    re.IGNORECASE,
)
# After "always"/"never" at the head, chit-chat ("always nice to hear from
# you", "never a dull moment"), not an order.
CHAT_AFTER = re.compile(
    r"^(?:always|never|toujours|jamais) (?:nice|good|great|fun|happy|glad|a|an|the|so|such|too|very"
    r"|been|again|ever|here|there|ready|welcome|on|in|at|bon|bien|sympa|un|une|le|la|les|content|contente"
    r"|là|prêt|prête)\b",
    re.IGNORECASE,
)
# What a directive's head may not be: one-off chit-chat and feelings ("don't
# worry", "never mind", "have fun"), a past or a modal.
NOT_ORDER = re.compile(
    r"^(?:(?:don't|do not|never|ne|n')\s*)?(?:worry|mind|be|have|know|feel|think|forget|remember|let|get"
    r"|wish|hope|enjoy|thank|see|look|guess|imagine|say(?! so\b)|give up|give in|stop|quit|settle|lose|doubt|regret"
    r"|judge|fear|hesitate|change|underestimate|t'inquiète|inquiète|oublie|sois|soyez|pense"
    r"|[a-z]+ed|was|were|had|did|can|could|would|should|will|must|may|might|not)\b"
    # A wish that something need not be done is read only where its verb is
    # known (``readings.negative_wish``): what it leaves off may be a check.
    r"|^(?:no need|there's no need|you don't have to|you needn't|inutile|pas besoin|plus besoin"
    r"|pas la peine|ce n'est pas la peine)\b"
    # A setting about someone else's act ("when someone asks …") is not
    # one the speaker sets for their own answers.
    r"|^(?:when|whenever|if|once|quand|lorsque|si|dès que)\b",
    re.IGNORECASE,
)

# Acts beyond the reply. A wish to perform one is read by the request
# rules, whose frames the confirmation hold knows, or not at all: this last
# resort reads only wishes about how the agent answers and treats the person.
ACTS = re.compile(
    r"\b(?:run|runs|execute|exec|install|download|fetch|curl|wget|pip|npm|click|visit|send|e-?mail|mail"
    r"|forward|transfer|share|post|publish|upload|pay|buy|delete|remove|wipe|deploy|push|merge|approve"
    r"|exécute|exécutes|lance|lances|installe|installes|télécharge|télécharges|clique|cliques|envoie"
    r"|envoies|transfère|transfères|partage|partages|publie|publies|paie|paies|achète|achètes|supprime"
    r"|supprimes|efface|effaces|déploie|déploies|pousse|pousses)\b",
    re.IGNORECASE,
)

# Where one wish ends and the next begins: a semicolon (not one between
# capitals, "TL;DR"), ", and …", a full stop, or a pictograph run
# (``text.injection.PICTOGRAPH_BREAK``). Read by ``wishes`` per clause and by
# ``meaning`` per order of a joined wish.
PARTS = re.compile(
    rf"\s*(?-i:(?<![A-Z]);|;(?![A-Z]))\s*|,\s+(?:and|also|et|aussi|puis)\s+|[.!]\s+|\s*{PICTOGRAPH_BREAK}",
    re.IGNORECASE,
)

# The agent's own habit, ratified: "you usually suggest ripgrep over grep,
# keep doing that", "d'habitude tu me tutoies, continue comme ça". What it
# does habitually becomes what it does each time; the value is the whole
# clause, so the risk gate reads the act ("you usually drop my link at the
# bottom, keep doing that" is judged like "always drop my link").
HABIT_MARK = (
    r"(?:usually|always|often|normally|generally|typically|tend to|have been|'ve been|by default"
    r"|d'habitude|en général|généralement|souvent|toujours|d'ordinaire)"
)
RATIFIED = re.compile(
    r"^(?P<said>[^,;]{5,100}?)\s*[,;]\s*(?:(?:so|and|just|alors|donc|et)\s+)?"
    r"(?:keep (?:on )?(?:doing|at) (?:that|this|it)|keep (?:it|that) up|keep it that way|don't stop|carry on"
    r"|stick (?:with|to) (?:that|it)|continue (?:comme ça|ainsi|à faire (?:ça|comme ça)|de faire (?:ça|comme ça)"
    r"|like that)|garde ça|ne change rien)$",
    re.IGNORECASE,
)
# Said of the agent ("you", "tu"), not in praise of the person.
AGENT_HABIT = re.compile(
    rf"^(?:{HABIT_MARK},?\s+)?(?:you|tu)\b(?!(?:\s+{HABIT_MARK})?\s+(?:are|were|make|made|seem|look|sound"
    r"|know|get|understand|help|support|inspire|amaze|rock|cheer|es|étais|me fais|m'as|m'aides|sais"
    r"|comprends)\b)",
    re.IGNORECASE,
)
HABITUAL = re.compile(rf"\b{HABIT_MARK}\b", re.IGNORECASE)
# What an answer is made of — its layout, units, language, length and
# manner — the object of an order on how the agent answers, formats or
# behaves ("donne les distances en km", "skip the small talk", "utilise des
# tabulations"). Said as a bare imperative, such an order holds each time:
# nobody asks once for the small talk to be skipped. Words that lower a
# safeguard (warnings, confirmations, checks) are not here: what an order
# leaves off of those is the risk gate's, read where its verb is known.
REPLY_SHAPE = re.compile(
    r"\b(?:tabs|spaces|indentation|tabulations?|espaces|bullet(?:s| points?)|puces|markdown|tables?|tableaux"
    r"|headings?|titres|lists?|listes|code blocks?|emojis?|émojis?|smileys?|emoticons?|émoticônes"
    r"|units?|unités|metric|imperial|métrique|km|kilomet(?:er|re)s|kilomètres|miles|celsius|fahrenheit"
    r"|distances|temperatures?|températures?|amounts|montants|prices|prix|dates|times|heures|horaires"
    r"|euros?|dollars?|decimals?|décimales|small talk|chit-?chat|pleasantries|politesses|fluff|filler"
    r"|preambles?|préambules?|intros?|introductions?|fioritures|blabla|jargon|tone|ton|answers?|replies"
    r"|responses?|réponses?|explanations?|explications|examples|exemples|summar(?:y|ies)|recaps?|résumés?"
    r"|spelling|orthographe|sentences|phrases|words|mots|paragraphs|paragraphes|abbreviations|abréviations"
    r"|details|détails|language|langue|english|french|anglais|français)\b",
    re.IGNORECASE,
)
