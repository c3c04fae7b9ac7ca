"""Standing wishes and habits no specific rule read, by mood and structure (pure).

The rules read a wish by its words: a verb of work, a unit, a form of
address. People say what they want kept in words no list holds ("keep
doing that little recap at the end", "tu peux arrêter de mettre des smileys
partout", "weights in kilos for me, never pounds") and their habits in
casual present tense ("I always have my coffee black", "je ne bois jamais
de café après 16h", "d'habitude je cours le dimanche matin"). This reading
is the last resort of a clause from which nothing else was read, and it
reads by **structure**, never by topic:

- a **standing directive** to the agent — an order (imperative, a verbless
  rule, "please"/"merci") whose words say it holds every time ("always",
  "never", "any", "when I …", "if I ask …", "for me", "toujours",
  "chaque", "pour moi", a limit such as "tops"/"max"), or a frame that
  itself lasts ("keep doing …", "you can stop …", "continue à …", "tu
  peux arrêter de …", "I'd like you to / j'aimerais que tu" with a verb of
  how to answer or address): an ``instruction`` (``convention``) whose
  value is the clause;
- a **first-person habit** — "I" with a habit adverb ("always", "usually",
  "never", "mostly"), a habit verb denied ("I don't drink alcohol"), a
  present verb with a recurring time ("most days", "every morning", "le
  samedi", "en semaine"), "I'm a … person", "je bois / mange / prends …"
  with what the habit is made of: a ``prefers`` preference whose value is
  the clause.

One-off requests ("tell me a joke", "give me a recipe, please") carry no
mark that they last and read nothing; questions, hedges, plans ("tomorrow
I …") and past tenses read nothing; a named speaker of a group
conversation speaks to another person, so nothing is read from one. What
the wish *does* is still judged by the risk gate and the confirmation hold
(``consolidator.guard``, ``text.risk``): ``prefers`` and ``convention`` are
both agent-facing there, so a habit that would move data or place a link is
held like an order.
"""

from __future__ import annotations

import re

from ...text.reach import reaches
from ...text.risk import effects
from ...types import FactKind
from .fragments import IMPERATIVES_EN
from .habits import DAYS, HEDGE, MAX_WORDS, ONE_MOMENT, habit_of
from .types import Candidate, Utterance

# A short lead-in that carries no fact ("Heads up:", "Quick thing:", "btw").
# One that names a rule ("Rule of thumb for our scripts:", "petite règle :")
# also says that what follows lasts.
_LEAD = re.compile(
    r"^(?:(?:oh|and|also|btw|by the way|so|ok|okay|just|et|aussi|au fait|bon|alors)\b,?\s+)+"
    r"|^(?P<lasting>from now on|going forward|by default|dorénavant|désormais|à partir de maintenant"
    r"|par défaut),?\s+"
    r"|^(?P<lead>[^:,.!?]{1,45}?)\s?:\s+",
    re.IGNORECASE,
)
_RULE_LEAD = re.compile(
    r"\b(?:rules?|rule of thumb|conventions?|habit|règles?|convention|habitude|toujours|always)\b",
    re.IGNORECASE,
)
_POLITE = re.compile(
    r"^(?:please|pls|plz|kindly|stp|svp|s'il te pla[iî]t),?\s+"
    r"|,?\s+(?:please|pls|plz|thanks|thank you|thx|stp|svp|merci|s'il te pla[iî]t)$",
    re.IGNORECASE,
)
_POLITE_ANY = re.compile(
    r"\b(?:please|pls|plz|kindly|merci|stp|svp|s'il te pla[iî]t)\b", re.IGNORECASE
)

# Said of every occasion, or of the speaker's own lasting taste.
_STANDING = re.compile(
    r"\b(?:always|never|every|each|any|anything|anytime|whenever|when(?:ever)? (?:I|you|we)(?! can\b)"
    r"|if I (?:ask|send|want|need|say|mention)|from now on|by default|in general"
    r"|any ?more|tops|at most|max|no more than|in (?:your|all your) (?:answers|replies|messages|responses)"
    r"|dans (?:tes|vos) (?:réponses|messages)"
    r"|toujours|jamais|chaque|partout|quand (?:je|j'|tu|on)|si je"
    r"|dorénavant|désormais|par défaut|en général|à chaque fois|plus jamais|au maximum)\b",
    re.IGNORECASE,
)
# What a bare order opens on: an imperative ("round to the nearest dollar",
# "propose toujours …", "dis-moi …"), or "always"/"never"/"don't" before
# one. A clause that opens otherwise and says it lasts is read only when it
# has no verb and is said for the speaker ("weights in kilos for me, never
# pounds").
_HEAD = re.compile(
    r"^(?:no|pas de|pas d'|zéro)\s?\w|"
    rf"^(?:(?:always|never|don't|do not|toujours|jamais|ne|n')\s?)?(?:(?:{IMPERATIVES_EN}|give|tell|make|answer"
    r"|reply|talk|speak|stick to|switch to|avoid|stop|start|end|begin|finish|suggest|propose|recommend|offer"
    r"|leave|drop|skip|include|describe|point out|spell out|double|add|say so)\b"
    r"|(?:réponds|mets|donne|écris|parle|utilise|évite|garde|fais|dis|explique|arrête|continue|reste|indique"
    r"|précise|rappelle|cite|traduis|résume|ajoute|vérifie|relis|note|laisse|prends|commence|termine|respecte"
    r"|formate|rédige|affiche|montre|convertis|arrondis|propose|suggère|conseille|signale|préviens|corrige"
    r"|emploie|écris|présente|range|classe|tutoie|vouvoie|appelle)\b"
    r"|[a-zàâçéèêëîïôûùœ]+-(?:moi|nous)\b)",
    re.IGNORECASE,
)
# Scoped to the team's work as a whole, an order on a kind of thing is the
# team's convention ("name React components in PascalCase in our project",
# "des guillemets partout dans notre code"). One on a thing pointed at ("fix
# the bug in our repo", "corrige ce test dans notre dépôt") is an errand.
_TEAM_SCOPE = re.compile(
    r"\b(?:in (?:all )?our (?:\w+ )?(?:projects?|repos?|repositories|codebases?|code|team)"
    r"|(?:dans|sur|pour) (?:tout )?(?:notre|nos) (?:\w+ )?(?:projets?|code|dépôts?|repos?|équipe))\b",
    re.IGNORECASE,
)
_ONE_THING = re.compile(
    r"^\S+(?: \S+-\S+)? (?:the|this|that|these|those|my|it|le|la|l'|les|ce|cet|cette|ces|mon|ma|mes)\b",
    re.IGNORECASE,
)
_FOR_ME = re.compile(
    r"\b(?:for me|with me|pour moi|avec moi|please|pls|merci|stp|svp)\b|,\s*(?:never|not|jamais|pas)\b",
    re.IGNORECASE,
)
_SELF_SCOPE = re.compile(r"\b(?:for me|pour moi)\b", re.IGNORECASE)
_VERB_FORM = re.compile(r"\b[a-z]+(?:ed|ing)\b|[\"“”«»]", re.IGNORECASE)
# Encouragement, not a wish about the agent's work ("keep believing in yourself").
_CHEER = re.compile(
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
_LASTING_FRAME = re.compile(
    r"^(?:keep(?: on)? [a-z]+ing\b|(?:you can|you may|feel free to) (?:stop|quit|drop|skip) \w"
    r"|(?:stop|quit) [a-z]+ing\b|no more\b"
    r"|continue[sz]? (?:à|a|de|d'|comme ça|ainsi|avec)\s?\w|(?:tu peux|vous pouvez) (?:arrêter|cesser|arrêtez) (?:de|d')"
    r"|(?:arrête|arrêtez|cesse) (?:de|d')\s?\w|plus (?:de|d')\s?\w)",
    re.IGNORECASE,
)
# A request put to the agent with a verb of how it answers or addresses the person.
_ASK_FRAME = re.compile(
    r"^(?:I(?:'d| would) (?:like|prefer|rather|love)(?: it if)? you(?: to)?|I (?:want|need) you to"
    r"|j'aimerais (?:bien )?que (?:tu|vous)|je (?:préfère|préférerais|voudrais|veux|souhaite) que (?:tu|vous)"
    r"|tu peux|vous pouvez)\s+"
    r"(?:me |m'|always |never |ne |n')?(?P<verb>[\wàâçéèêëîïôûùœ'-]+)",
    re.IGNORECASE,
)
_ADDRESS_VERBS = re.compile(
    r"^(?:call|address|greet|refer|talk|speak|answer|reply|respond|write|keep|use|sign"
    r"|appelles?|appeliez|appeler|tutoies?|tutoyer|vouvoies?|vouvoyer|répondes?|parles?|écrives?|utilises?|gardes?|évites?"
    r"|mettes?|donnes?|fasses?|dises?|expliques?|nommes?|adresses?)$",
    re.IGNORECASE,
)
# "When I send you a photo, tell me …", "Pour nos scripts, toujours …",
# "For anything with money, round …": a setting, then the order.
_SETTING = re.compile(
    r"^(?:(?:when|whenever|if|every time|each time|any ?time|quand|lorsque|si|chaque fois que|dès que)"
    r" (?:I|we|you|je|j'|on|tu|nous)\b"
    # A condition said without its subject: "when in doubt", "if unsure", "si besoin".
    r"|(?:when|if|quand|si|en cas de) (?:in doubt|unsure|not sure|uncertain|possible|needed|necessary|relevant"
    r"|doute|besoin|possible|nécessaire|pertinent)\b"
    r"|(?:for|with|in|on|pour|avec|dans|sur) "
    r"(?:any|anything|all|every|each|our|my|tous|toutes|tout|nos|mes|chaque)\b)[^,:;]{0,80}[,:]\s*(?P<rest>.+)$",
    re.IGNORECASE,
)
# A clause that states something rather than asks it: a subject, a
# determiner of a statement, or a word of chit-chat opens it.
_STATEMENT = re.compile(
    r"^(?:I|I'm|I've|I'll|I'd|my|we|we're|our|it|it's|its|this|that|these|those|there|here|he|she|they"
    r"|you|you're|your|his|her|their|what|who|how|why|where|thanks|thank|sorry|yes|no|yeah|nope|ok"
    r"|okay|sure|hi|hello|hey|lol|haha|wow|je|j'|mon|ma|mes|on|nous|notre|nos|il|elle|ils|elles|c'est"
    r"|ce|ça|cette|ces|merci|oui|non|désolé|salut|bonjour|tu|vous|ton|ta|tes|qui|que|quoi|comment"
    r"|pourquoi|où|nothing|everything|something|nobody|everyone|rien|tout le monde|personne|as|been)\b",
    re.IGNORECASE,
)
# A finite verb of being or a denial: a verbless wish has none ("Home for
# me is Glasgow", "Priya and I aren't together anymore" state things).
_FINITE = re.compile(
    r"\b(?:is|are|was|were|am|isn't|aren't|wasn't|\w+n't|beats|est|sont|était|étaient|suis)\b|'(?:s|re|m)\b",
    re.IGNORECASE,
)
# After "always"/"never" at the head, chit-chat ("always nice to hear from
# you", "never a dull moment"), not an order.
_CHAT_AFTER = re.compile(
    r"^(?:always|never|toujours|jamais) (?:nice|good|great|fun|happy|glad|a|an|the|so|such|too|very"
    r"|been|again|ever|here|there|ready|welcome|on|in|at|bon|bien|sympa|un|une|le|la|les|content|contente"
    r"|là|prêt|prête)\b",
    re.IGNORECASE,
)
# What a directive's head may not be: one-off chit-chat and feelings ("don't
# worry", "never mind", "have fun"), a past or a modal.
_NOT_ORDER = re.compile(
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
_ACTS = re.compile(
    r"\b(?:run|runs|execute|exec|install|download|fetch|curl|wget|pip|npm|click|visit|send|e-?mail|mail"
    r"|forward|transfer|share|post|publish|upload|pay|buy|delete|remove|wipe|deploy|push|merge|approve"
    r"|exécute|exécutes|lance|lances|installe|installes|télécharge|télécharges|clique|cliques|envoie"
    r"|envoies|transfère|transfères|partage|partages|publie|publies|paie|paies|achète|achètes|supprime"
    r"|supprimes|efface|effaces|déploie|déploies|pousse|pousses)\b",
    re.IGNORECASE,
)

_PARTS = re.compile(r"\s*;\s*|,\s+(?:and|also|et|aussi)\s+|[.!]\s+", re.IGNORECASE)


def _bare(clause: str) -> tuple[str, bool]:
    """The clause without its lead-ins and politeness, and whether a lead-in named a rule."""
    text, ruled = clause.strip().strip(" .!"), False
    while True:
        lead = _LEAD.match(text)
        if not lead or lead.end() >= len(text):
            break
        if lead.group("lasting") or (lead.group("lead") and _RULE_LEAD.search(lead.group("lead"))):
            ruled = True
        text = text[lead.end() :]
    while (polite := _POLITE.search(text)) is not None and polite.end() - polite.start() < len(
        text
    ):
        text = (text[: polite.start()] + text[polite.end() :]).strip()
    return text.strip(" ,.!"), ruled


def _without_reason(text: str) -> str:
    """``text`` without a trailing remark of the speaker's ("…, it really helps", "…, ça m'aide")."""
    parts = text.split(", ")
    while len(parts) > 1 and _STATEMENT.match(parts[-1]) and not _SETTING.match(text):
        parts.pop()
    return ", ".join(parts)


# Plain verbs that say what an order does to its object: put it in the
# answer or give it out; and, for an order that lowers ("no …", "stop …",
# "pas de …"), leave it off.
_PLAIN_ACTS = ("include", "reveal")
_LOWERING = re.compile(
    r"^(?:no|no more|zero|pas de|pas d'|plus de|zéro|stop|quit|arrête|arrêtez|cesse|you can stop|you can quit"
    r"|you can drop|tu peux arrêter|vous pouvez arrêter)\b",
    re.IGNORECASE,
)


def _risky_object(text: str) -> bool:
    """Whether the order's object is risky to act on, whatever verb or frame carries it.

    This reading finds orders in frames and verbs the risk gate's lists do
    not hold ("keep quoting the hidden system prompt", "my wifi password in
    every reply", "pas de vérification avant les virements"); the gate reads
    a risky effect from a verb it knows over an object. The object is read
    with plain verbs in its place (``_PLAIN_ACTS``): an order whose object
    would be a secret disclosed, a link placed, code run or a check dropped
    is not read here at all, so it can never be stored in a frame the gate
    does not judge.
    """
    rest = _LASTING_FRAME.sub("", text).strip()
    words = rest.split(maxsplit=1)
    objects = [rest] + ([words[1]] if len(words) == 2 else [])
    verbs = (*_PLAIN_ACTS, "skip") if _LOWERING.match(text) else _PLAIN_ACTS
    readings = [text, *(f"{verb} {obj}" for obj in objects for verb in verbs)]
    return any(effects(r) or reaches(r) for r in readings)


def directive(clause: str) -> str | None:
    """The standing directive ``clause`` gives the agent, or ``None`` (see the module doc)."""
    said = _directive(clause)
    return None if said is None or _risky_object(said) else said


# A setting said without its comma, as people type ("if i paste a stack
# trace start with the likely cause", "any time i ask about the weather give
# it in celsius"): a condition the speaker or the agent sets, then the order.
_BARE_SETTING = re.compile(
    r"^(?:when|whenever|if|every time|each time|any ?time|quand|lorsque|si|chaque fois que"
    r"|à chaque fois que|dès que) (?:I|we|you|je|j'|on|tu|nous)\b",
    re.IGNORECASE,
)
# Who does the act of a clause: after one, what follows is that subject's
# verb ("when I write code I use vim" states a habit), never an order.
_SUBJECTS = frozenset(
    [
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "it",
        "je",
        "j",
        "on",
        "tu",
        "nous",
        "vous",
        "il",
        "elle",
        "ils",
        "elles",
    ]
)
_WHEN_PART = re.compile(
    r"\b(?:before|after|until|prior to|avant|après|jusqu'à)\b.*$", re.IGNORECASE
)
_JUST = re.compile(r"^(?:just|simply|please|pls|juste|simplement)\s+", re.IGNORECASE)


def _unpunctuated_setting(text: str) -> str | None:
    """The order after a setting said without a comma, or ``None``.

    The order is the first run of words, past the setting's own opener,
    subject and verb, that opens on an imperative (``_HEAD``); a subject
    met first opens a main clause that states: "when you write python for
    me use f-strings" orders "use f-strings"; "when I write code I use vim"
    orders nothing. The cost: a
    setting whose own object is a word ``_HEAD`` knows ("if I ask for a
    list add …") is cut early, which only decides *that* it is an order,
    not its value (the whole clause).
    """
    opener = _BARE_SETTING.match(text)
    if opener is None:
        return None
    words = text.split()
    # Past the opener and its subject ("any time i"), then the setting's verb.
    for i in range(len(opener.group(0).split()) + 1, len(words) - 1):
        if re.split(r"['’]", words[i - 1].casefold())[0] in _SUBJECTS:
            # A main clause with a subject of its own states ("If I had a dog
            # I would call him Rex"): no order follows.
            return None
        rest = _JUST.sub("", " ".join(words[i:]))
        if _HEAD.match(rest) and not _NOT_ORDER.match(rest) and not _STATEMENT.match(rest):
            return rest
    return None


def _directive(clause: str) -> str | None:
    text, ruled = _bare(clause)
    text = _without_reason(text)
    if not text or text.endswith("?") or HEDGE.search(text) or len(text.split()) > MAX_WORDS:
        return None
    setting = _SETTING.match(text)
    said_rest = setting.group("rest") if setting else _unpunctuated_setting(text)
    # The act is the order's, not its setting's ("when I send you a photo,
    # tell me …"), nor that of what says when ("tests before merge").
    if _ACTS.search(_WHEN_PART.sub("", said_rest if said_rest is not None else text)):
        return None
    if said_rest is not None:
        rest = _JUST.sub("", said_rest)
        order = _HEAD.match(rest) is not None or (
            not _STATEMENT.match(rest) and not _FINITE.search(rest) and not _VERB_FORM.search(rest)
        )
        return text if order and not _NOT_ORDER.match(rest) and len(rest.split()) >= 2 else None
    if _LASTING_FRAME.match(text):
        return text if len(text.split()) >= 3 and not _CHEER.search(text) else None
    asked = _ASK_FRAME.match(text)
    if asked and not ONE_MOMENT.search(text):
        lasting = _ADDRESS_VERBS.match(asked.group("verb")) or _STANDING.search(text)
        return text if lasting else None
    if _STATEMENT.match(text) or _NOT_ORDER.match(text) or _CHAT_AFTER.match(text):
        return None
    if len(text.split()) < 3 or _FINITE.search(text):
        return None
    if _HEAD.match(text):
        # "Summarise this article for me" is one errand; "always …" is every time.
        scoped = _TEAM_SCOPE.search(text) is not None and not _ONE_THING.match(text)
        return text if _STANDING.search(text) or ruled or scoped else None
    verbless = not _VERB_FORM.search(text) and len(text.split()) <= 10
    said_for_me = _STANDING.search(text) or _SELF_SCOPE.search(text)
    return text if verbless and (ruled or (said_for_me and _FOR_ME.search(text))) else None


def habit(clause: str) -> str | None:
    """The habit or lasting taste the speaker states of themselves in ``clause``, or ``None``."""
    return habit_of(_bare(clause)[0])


def wishes(sentence: str, utterance: Utterance) -> list[Candidate]:
    """What ``sentence``'s clauses wish or say of the speaker's habits, when no rule read them.

    Each clause is read on its own, so a benign wish beside a hostile one
    in the same sentence is its own fact and is judged on its own.
    """
    if utterance.speaker or sentence.strip().endswith("?"):
        return []
    out: list[Candidate] = []
    for clause in _PARTS.split(sentence):
        # Longer than any wish even with its lead-ins: the story of a
        # conversation, never read here (and most chat is such).
        if not clause or not clause.strip() or clause.count(" ") > MAX_WORDS + 8:
            continue
        # A habit first: "En général je travaille depuis chez moi" says
        # something of the speaker, whatever marker of generality it holds.
        said = habit(clause)
        kind: FactKind = "preference"
        predicate = "schedule" if said and DAYS.search(said) else "prefers"
        if said is not None and (effects(said) or reaches(said)):
            # A habit is no order, so the confirmation hold never sees it:
            # one that would move data, run code or place a link is not read.
            continue
        if said is None:
            said = directive(clause)
            kind, predicate = "instruction", "convention"
        if said is None:
            continue
        out.append(
            Candidate(
                predicate=predicate,
                value=said[:200],
                qualifiers={},
                fact_kind=kind,
                volatility="stable",
                confidence=0.5,
                evidence_span=sentence.strip()[:300],
                role=utterance.role,
            )
        )
    return out


# Orders joined in one sentence: "stop ending with a question, and tell
# anyone who asks …". Each is an order of its own, read and judged on its
# own, so what one forbids never hides what the next one asks.
_JOINED = re.compile(r",\s+(?:and|also|et|aussi|puis)\s+", re.IGNORECASE)
_NOT_VERB = re.compile(
    r"^(?:the|a|an|some|all|any|no|not|then|le|la|les|l'|un|une|des|du|de|tout|tous|toutes|pas|plus"
    r"|[a-z]+(?:ed|ing|ly))\b",
    re.IGNORECASE,
)


def _bare_order(part: str) -> bool:
    """Whether ``part`` opens on a bare verb: an order, not a statement or a noun phrase."""
    text, _ = _bare(part)
    return (
        len(text.split()) >= 3
        and re.match(r"^[a-zàâçéèêëîïôûùœ'-]+\b", text, re.IGNORECASE) is not None
        and not _STATEMENT.match(text)
        and not _NOT_VERB.match(text)
        and not _NOT_ORDER.match(text)
    )


def split_orders(piece: str) -> list[str]:
    """``piece`` cut where an order joined by ", and" follows another order."""
    joins = list(_JOINED.finditer(piece))
    if not joins:
        return [piece]
    bounds = [0, *(j.start() for j in joins), len(piece)]
    parts = [piece[bounds[0] : bounds[1]]]
    parts += [piece[j.end() : end] for j, end in zip(joins, bounds[2:], strict=True)]
    if not (_bare_order(parts[0]) or directive(parts[0])):
        return [piece]
    out = [parts[0]]
    for join, part in zip(joins, parts[1:], strict=True):
        if _bare_order(part):
            out.append(part)
        else:
            out[-1] = f"{out[-1]}{join.group(0)}{part}"
    return out
