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
from .habits import DAYS, HEDGE, MAX_WORDS, ONE_MOMENT, habit_of
from .schedules import typed_schedule
from .types import Candidate, Utterance
from .wish_frames import (
    ACTS,
    ADDRESS_VERBS,
    ADDRESSING,
    AGENT_HABIT,
    ASK_FRAME,
    CHAT_AFTER,
    CHEER,
    FINITE,
    FOR_ME,
    HABITUAL,
    HEAD,
    KIND_SCOPE,
    LASTING_FRAME,
    LEAD,
    NOT_ORDER,
    ONE_THING,
    PARTS,
    POLITE,
    POLITE_ANY,
    RATIFIED,
    REPLY_SHAPE,
    RULE_LEAD,
    SCOPE_FIRST,
    SCOPED_ORDER,
    SELF_SCOPE,
    SETTING,
    STANDING,
    STATEMENT,
    TAG_QUESTION,
    TEAM_SCOPE,
    VERB_FORM,
    WORK_VERB,
)


def _bare(clause: str) -> tuple[str, bool]:
    """The clause without its lead-ins and politeness, and whether a lead-in named a rule."""
    text, ruled = clause.strip().strip(" .!"), False
    while True:
        lead = LEAD.match(text)
        if not lead or lead.end() >= len(text):
            break
        if lead.group("lasting") or (lead.group("lead") and RULE_LEAD.search(lead.group("lead"))):
            ruled = True
        text = text[lead.end() :]
    while (polite := POLITE.search(text)) is not None and polite.end() - polite.start() < len(text):
        text = (text[: polite.start()] + text[polite.end() :]).strip()
    return text.strip(" ,.!"), ruled


def _without_reason(text: str) -> str:
    """``text`` without a trailing remark of the speaker's ("…, it really helps", "…, ça m'aide")."""
    parts = text.split(", ")
    while len(parts) > 1 and STATEMENT.match(parts[-1]) and not SETTING.match(text):
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
    rest = LASTING_FRAME.sub("", text).strip()
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
    subject and verb, that opens on an imperative (``HEAD``); a subject
    met first opens a main clause that states: "when you write python for
    me use f-strings" orders "use f-strings"; "when I write code I use vim"
    orders nothing. The cost: a
    setting whose own object is a word ``HEAD`` knows ("if I ask for a
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
        if HEAD.match(rest) and not NOT_ORDER.match(rest) and not STATEMENT.match(rest):
            return rest
    return None


# A sentence-initial imperative, then its object: the verb lists' own
# (``HEAD``), a French second-person form (-e, -s, -ez: "évitez", "bannis")
# or an English base form before a determiner ("ditch the preamble").
_OPENER = re.compile(
    r"^(?:(?:always|never|don't|do not|toujours|jamais|ne|n')\s?)?(?P<verb>[a-zàâçéèêëîïôûùœ-]+)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_FR_IMPERATIVE = re.compile(r"^[a-zàâçéèêëîïôûùœ]{3,}(?:e|s|ez)(?:-(?:moi|nous|les|le|la))?$", re.I)
# What an object opens on after a verb: a bare adjective or noun first
# ("bonne réponse", "great answers") is praise, not an order.
_OBJECT_START = re.compile(
    r"^(?:the|any|all|your|no|more|less|out|me|us|with|without|in|on|off|up|down|le|la|les|l'"
    r"|des|du|de|d'|tes|vos|en|sans|pas|plus|moins|toujours|jamais|systématiquement)\b",
    re.IGNORECASE,
)
# Words of taste or praise that open a remark the way a verb opens an order.
_PRAISE = re.compile(
    r"^(?:love|like|adore|aime|appreciate|nice|great|good|cool|awesome|perfect|excellent|bravo|super|belle"
    r"|bonne|jolie|joli|top|génial|géniale|parfait|parfaite|excellente|très|trop|vraiment|really|so|such)$",
    re.IGNORECASE,
)
# An object that points at one thing, or makes one ("write a poem in
# French"), is an errand ("fix these tables").
_POINTED = re.compile(
    r"\b(?:this|that|these|those|it|ce|cet|cette|ces|ça|cela|my|mon|ma|mes)\b|^(?:a|an|un|une)\b",
    re.I,
)


_SHAPE_HEAD = re.compile(rf"^(?:[\w'-]+\s+)?(?:{REPLY_SHAPE.pattern})", re.IGNORECASE)


def _shaped(text: str) -> bool:
    """Whether ``text`` opens on an imperative whose object is what an answer is made of.

    The verb is read by its form, the object by what it names
    (``REPLY_SHAPE``): no list of phrasings. What the order does is still
    the risk gate's to judge, like any other directive read here.
    """
    opened = _OPENER.match(text)
    if opened is None or _POINTED.search(opened["obj"]):
        return False
    # The object itself is part of an answer, not a thing put into one:
    # "give the distances in km", never "paste the numbers in a table".
    head = opened["obj"]
    while (lead := _OBJECT_START.match(head)) is not None and lead.end() < len(head):
        head = head[lead.end() :].lstrip(" '")
    if not _SHAPE_HEAD.match(head):
        return False
    verb = opened["verb"]
    if _PRAISE.match(verb) or _NOT_VERB.match(verb):
        return False
    if HEAD.match(text):
        return True
    by_form = _FR_IMPERATIVE.match(verb) or not re.search(r"(?:ed|ing|ly|s)$", verb, re.I)
    return bool(by_form and _OBJECT_START.match(opened["obj"]))


# An English imperative by its form, whatever the verb: a bare word, not
# one of the third person ("saves me …" drops its subject), before the
# speaker as its object ("nudge me to …"). Its verb is no list's, so its
# object is the speaker alone: an unknown verb over the speaker's things
# ("text my contacts …") may move them. ``_NOT_VERB``, ``NOT_ORDER`` and
# ``_PRAISE`` keep out what only looks so.
_FORM_ORDER = re.compile(
    r"^(?P<verb>[a-z]{3,}(?<![^s]s))(?: (?:off|up|out|down|back|over))? (?:me|us)\b", re.I
)
# A condition after an order makes it hold each time it is met ("nudge me
# to take a break if we've been going for an hour").
_ON_CONDITION = re.compile(r"\s(?:if|when|whenever|once|si|quand|dès que)\s", re.IGNORECASE)
# Done so to every one of a kind the speaker owns: "sign off my emails with
# '— R'", "write our commit messages in English"; "fix my tests" is an errand.
_WORK_ON_KIND = re.compile(
    rf"^{WORK_VERB}(?: (?:off|up|out))? (?:my|our) (?:[a-z]+ )?[a-z]+s\b", re.IGNORECASE
)
# Verbs a bare "… me" takes that ask for patience or belief, not work.
_NOT_ASKED = re.compile(r"^(?:trust|believe|excuse|pardon|forgive|spare|count|bear|hear)$", re.I)


def _by_form(text: str) -> bool:
    """Whether ``text`` is a standing order by its form alone: an English imperative
    (``_FORM_ORDER``) that holds on a condition or says it lasts."""
    opened = _FORM_ORDER.match(text)
    if opened is None or ONE_MOMENT.search(text) or VERB_FORM.search(opened["verb"]):
        return False
    verb = opened["verb"]
    if any(p.match(verb) for p in (_PRAISE, _NOT_VERB, NOT_ORDER, STATEMENT, _NOT_ASKED)):
        return False
    return bool(_ON_CONDITION.search(text) or STANDING.search(text))


def _directive(clause: str) -> str | None:
    polite = POLITE_ANY.search(clause) is not None
    text, ruled = _bare(clause)
    if (reasoned := _without_reason(text)) != text:
        # Politeness before the remark ("…names pls, that's our style guide").
        text = _bare(reasoned)[0]
    if not text or text.endswith("?") or HEDGE.search(text) or len(text.split()) > MAX_WORDS:
        return None
    setting = SETTING.match(text)
    said_rest = setting.group("rest") if setting else _unpunctuated_setting(text)
    # The act is the order's, not its setting's ("when I send you a photo,
    # tell me …"), nor that of what says when ("tests before merge").
    if ACTS.search(_WHEN_PART.sub("", said_rest if said_rest is not None else text)):
        return None
    if said_rest is not None:
        rest = _JUST.sub("", said_rest)
        if setting is not None and setting["thing"] and not HEAD.match(rest):
            return None
        order = HEAD.match(rest) is not None or (
            not STATEMENT.match(rest) and not FINITE.search(rest) and not VERB_FORM.search(rest)
        )
        return text if order and not NOT_ORDER.match(rest) and len(rest.split()) >= 2 else None
    ratified = RATIFIED.match(text)
    if ratified and AGENT_HABIT.match(ratified["said"]) and HABITUAL.search(ratified["said"]):
        # The agent's habit, ratified (``wish_frames.RATIFIED``).
        return text
    if LASTING_FRAME.match(text):
        return text if len(text.split()) >= 3 and not CHEER.search(text) else None
    asked = ASK_FRAME.match(text)
    if asked and not ONE_MOMENT.search(text):
        lasting = ADDRESS_VERBS.match(asked.group("verb")) or STANDING.search(text)
        return text if lasting else None
    if STATEMENT.match(text) or NOT_ORDER.match(text) or CHAT_AFTER.match(text):
        return None
    if len(text.split()) < 3 or FINITE.search(text):
        return None
    if (first := SCOPE_FIRST.match(text)) is not None and not HEAD.match(text):
        # The scope said first: "For SQL use uppercase keywords".
        words = text.split()
        for cut in (2, 3):
            said = " ".join(words[cut:])
            if NOT_ORDER.match(said):
                continue
            if KIND_SCOPE.match(f"{said} in {first['scope']}") or SCOPED_ORDER.match(said):
                return text
        return None
    kind = KIND_SCOPE.match(text)
    if _shaped(text):
        # An order on what the answer is made of holds each time ("donne les
        # distances en km", "skip the small talk").
        return text
    if not HEAD.match(text) and _by_form(text):
        return text
    if HEAD.match(text):
        # "Summarise this article for me" is one errand; "always …" is every time.
        scoped = (TEAM_SCOPE.search(text) is not None or kind is not None) and not ONE_THING.match(
            text
        )
        every_time = bool(
            STANDING.search(text)
            or ruled
            or scoped
            or ADDRESSING.match(text)
            or _WORK_ON_KIND.match(text)
        )
        return text if every_time else None
    verbless = not VERB_FORM.search(text) and len(text.split()) <= 10
    said_for_me = STANDING.search(text) or SELF_SCOPE.search(text)
    # A verbless request made so by its politeness, on what an answer is
    # made of ("bullet points for summaries please"): no one asks that once.
    shaped = polite and REPLY_SHAPE.search(text) is not None
    return text if verbless and (ruled or shaped or (said_for_me and FOR_ME.search(text))) else None


def habit(clause: str) -> str | None:
    """The habit or lasting taste the speaker states of themselves in ``clause``, or ``None``."""
    return habit_of(_bare(clause)[0])


def wishes(sentence: str, utterance: Utterance) -> list[Candidate]:
    """What ``sentence``'s clauses wish or say of the speaker's habits, when no rule read them.

    Each clause is read on its own, so a benign wish beside a hostile one
    in the same sentence is its own fact and is judged on its own.
    """
    if utterance.speaker or (sentence.strip().endswith("?") and not TAG_QUESTION.search(sentence)):
        return []
    out: list[Candidate] = []
    for clause in PARTS.split(sentence):
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
        # Hours and days said as ranges are the schedule's value, in one
        # form, so the same schedule said again is the same value (``schedules``).
        value = (typed_schedule(said) if predicate == "schedule" else None) or said[:200]
        out.append(
            Candidate(
                predicate=predicate,
                value=value,
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
        and not STATEMENT.match(text)
        and not _NOT_VERB.match(text)
        and not NOT_ORDER.match(text)
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
