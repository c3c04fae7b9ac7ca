"""Corrections in the subject's own words (pure).

Five shapes, English and French:

- a **negated statement** ("I'm not a nurse any more", "I no longer work at
  Acme", "je ne suis plus infirmière", "je n'habite plus à Paris"): the
  clause is rewritten to its positive form, read by the ordinary rules, and
  what they find comes back as a *retraction* of that value. The negated
  clause itself is hidden from the ordinary rules;
- a **replacement naming the old value** ("I live in Lyon, not Paris",
  "envoie-les moi en anglais plutôt, pas en français", "Italian rather than
  German"): every candidate of the sentence carries the old value in
  ``corrects``;
- a **pet's death or loss** ("my dog died", "we had to put my cat down",
  "mon chat est mort"): the pet the sentence names comes back as a
  retraction;
- a **joke taken back** ("I'm a nurse lol jk", "just kidding, I'm a
  lawyer", "je rigole"): what the turn said before the marker is dropped
  (``taken_back``, applied to the whole turn);
- a **retraction and a new value of one predicate family in one turn**
  ("I'm not a nurse any more, I'm a midwife now"): merged into one
  correction, so the new fact supersedes the old one with lineage.

Openers that announce a correction ("actually", "en fait", "correction:",
"sorry,") are dropped before the rules read a sentence, so statements
anchored at the start of a sentence still match.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ...text.asked_tail import statement_before_question
from ...text.memo import memo
from .fragments import EMAIL, PHONE
from .types import HELD, Candidate
from .vocabulary import LANGUAGES

# Predicates that state one thing in two ways: a retraction of one is
# answered by the other ("I don't like sushi any more, I hate it").
_FAMILY = {"dislikes": "likes"}
# A new value read under another predicate that, beside the end of the
# first, states it: "I don't work at Renault anymore, I joined Stellantis"
# (a club one joins has no capital name here; an employer does).
_STANDS_FOR = {"employer": "member_of"}


def _family(predicate: str) -> str:
    return _FAMILY.get(predicate, predicate)


OPENER = re.compile(
    r"^(?:(?:actually|in fact|correction|sorry|oops|wait|well|no(?=\s*[,:!])|oh|update|to be clear|scratch that"
    r"|I misspoke|I mis-spoke|I meant|I mean|my bad|my mistake|let me correct (?:that|myself)"
    r"|en fait|en réalité|en vrai|pardon|non(?=\s*[,:!])|désolée?|rectification|petite correction|oups"
    # Words saying a value holds now open a statement as well: "Now I go to
    # the pool on Saturdays", "maintenant je vais à la piscine le samedi".
    # "From now on" and "désormais" stay: they make an order a standing one,
    # which the guard reads ("From now on, forward my emails to anyone").
    r"|now(?!\s+on\b)|these days|nowadays|maintenant|finalement"
    r"|je me suis trompée?|erreur de ma part|je voulais dire|je rectifie)\b[,:!]?\s*)+",
    re.IGNORECASE,
)
# Runs of blanks are folded before the clause and old-value patterns, so
# the clauses kept are rejoined single-spaced. The patterns are linear on
# their own: a leading blank run is entered only where it starts
# (``(?<!\s)``) and blanks before a value are taken possessively, so a long
# run is scanned once, not once per position in it.
_SPACES = re.compile(r"\s{2,}")
_CLAUSES = re.compile(r"(?:(?<!\s)\s*)?(?:[,;]|(?<=\s)[-–—](?=\s)|\b(?:but|mais)\b)\s*+")
# A clause says something stopped being true.
# Spoken French drops the "ne": "j'aime plus trop les sushis", "j'habite
# plus à Lyon"; "plus" after the verb alone may mean "more" ("je mange plus
# de légumes"), so only before a degree word or a place it ends something.
SPOKEN_PLUS = r"\b(?:j'|je )\w+ plus(?= (?:trop|du tout|vraiment|à|au|aux|chez|en)\b)"
_ENDED = re.compile(
    rf"\b(?:any ?more|no longer|not any longer|ne\b[^,;]*?\bplus|n'\w+ plus)\b|{SPOKEN_PLUS}",
    re.IGNORECASE,
)
# "I'm not" before a word of doubt, intent or manner negates the speaker's
# stance, not an attribute: "I'm not sure why my turtles make me so happy"
# still says the turtles are theirs.
_STANCE = (
    r"(?:sure|certain|convinced|saying|kidding|joking|going|gonna|trying|used to|surprised"
    r"|complaining|worried|afraid|aware|able|ready|allowed|supposed|asking|one to"
    r"|sûre?|certaine?|convaincue?|en train|capable|prête?|contre)\b"
)
_PLAIN_NEGATION = re.compile(
    rf"\bI(?:'m| am) not\b(?! {_STANCE})|\bje ne suis pas\b(?! {_STANCE})", re.IGNORECASE
)

# The speaker's own negation, rewritten to the positive statement it ends.
_FIRST_PERSON: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), repl)
    for pattern, repl in (
        (r"\bI(?:'m| am) (?:not|no longer) (?:at|with) ", "I work at "),
        (rf"\bI(?:'m| am) (?:not|no longer)\b(?! {_STANCE})", "I'm"),
        (r"\bI (?:no longer|don't|do not) (?=\w)", "I "),
        (rf"\bje ne suis (?:plus|pas)\b(?! {_STANCE})", "je suis"),
        (r"\bje ne (\w+) plus\b", r"je \1"),
        (r"\bje n'(\w+) plus\b", r"j'\1"),
        (r"\bj'(\w+) plus (?:(?:trop|du tout|vraiment) )?(?=\w)", r"j'\1 "),
        (r"\bje (\w+) plus (?:(?:trop|du tout|vraiment) )?(?=\w)", r"je \1 "),
    )
)
_ANY_MORE = re.compile(r"(?:(?<!\s)\s*)?\b(?:any ?more|any longer)\b", re.IGNORECASE)

# A couple ending ends the partner it names: "Tom and I broke up", "I split
# up with Tom", "j'ai rompu avec Tom", "Tom et moi, c'est fini".
_NAME = r"(?-i:[A-ZÀ-Ý][\w'-]+)"
_BROKE_UP = re.compile(
    rf"\b(?P<a>{_NAME}) and I (?:just )?(?:broke up|split up|split|separated|divorced|are over|called it off)\b"
    rf"|\bI (?:just )?(?:broke up|split up|split|separated|divorced|called it off) with (?P<b>{_NAME})"
    rf"|\bI(?:'m| am) (?:no longer|not) (?:with|engaged to|married to|seeing|dating) (?P<c>{_NAME})"
    rf"|\b(?P<d>{_NAME}) et moi,? (?:avons rompu|nous sommes séparés|on s'est séparés|c'est fini|on a rompu)"
    rf"|\bj'ai rompu avec (?P<e>{_NAME})|\bje (?:me suis séparée?|suis séparée?) de (?P<f>{_NAME})"
    rf"|\bje ne suis plus (?:avec|fiancée? à|mariée? à|mariée? avec) (?P<g>{_NAME})",
    re.IGNORECASE,
)


def _broken_up(sentence: str, read: Callable[[str], list[Candidate]]) -> list[Candidate]:
    """Retractions of the partner or spouse a sentence says the speaker parted from."""
    out: list[Candidate] = []
    for match in _BROKE_UP.finditer(sentence):
        name = next(g for g in match.groups() if g)
        for positive in (f"My partner {name}.", f"My husband {name}."):
            out.extend(
                replace(c, retract=True, evidence_span=sentence[:300]) for c in read(positive)
            )
    return out


# Leaving a job ends the employer it names: "I left Renault", "I quit my
# job at Renault", "j'ai quitté Orange", "j'ai démissionné de chez Orange".
# The name must end the clause, or be followed by when or by what came next:
# "I left Airbus early today" or "a voicemail" leaves no job.
_LEFT_END = (
    r"(?=\s*(?:[.!?,;]|$)|\s+(?:last|in|after|this|earlier|a (?:few|couple)|\d+|two|three|to (?:join|work|start)"
    r"|and (?:I|now)|il y a|l'an|l'année|le mois|en \d|pour (?:rejoindre|aller)|et (?:je|maintenant))\b)"
)
_LEFT = re.compile(
    rf"\bI(?:'ve| have)? (?:just )?(?:left|quit) (?:my (?:job|position|role) (?:at|with) )?(?P<a>{_NAME}\w*){_LEFT_END}"
    rf"|\bj'ai (?:quitté|démissionné de) (?:mon (?:poste|boulot|travail|job) )?(?:chez |de chez )?(?P<b>{_NAME}\w*)"
    rf"{_LEFT_END}",
    re.IGNORECASE,
)


def _left_job(sentence: str, read: Callable[[str], list[Candidate]]) -> list[Candidate]:
    """Retractions of the employer a sentence says the speaker left."""
    out: list[Candidate] = []
    for match in _LEFT.finditer(sentence):
        name = next(g for g in match.groups() if g)
        out.extend(
            replace(c, retract=True, evidence_span=sentence[:300])
            for c in read(f"I work at {name}.")
            if c.predicate == "employer"
        )
    return out


# A pet's death or loss ends it: "my dog died", "we had to put my cat down".
_LOST = re.compile(
    r"\bmy (\w+)(?: (\w+))? (?:died|passed away|passed on|ran away|was put down|got put down)\b"
    r"|\b(?:lost|buried) my (\w+)(?: (\w+))?|\bput my (\w+)(?: (\w+))? (?:down|to sleep)\b"
    r"|\b(?:mon|ma) (\w+)(?: (\w+))? est (?:morte?|décédée?|partie?)\b"
    r"|\bj'ai perdu (?:mon|ma) (\w+)(?: (\w+))?",
    re.IGNORECASE,
)

# A pet named on its own that died ends the pet of that name, whatever its
# kind ("Vanille est morte le mois dernier"); a person who died holds no
# pet of their name, so ends nothing.
_DIED_NAMED = re.compile(
    rf"(?:^|[,;]\s*)(?P<n>{_NAME}) (?:just )?(?:died|passed away|ran away|was put down"
    r"|est (?:morte?|décédée?)|nous a quitté)",
    re.IGNORECASE,
)


def _died_named(sentence: str, read: Callable[[str], list[Candidate]]) -> list[Candidate]:
    return [
        replace(c, retract=True, evidence_span=sentence[:300])
        for m in _DIED_NAMED.finditer(sentence)
        for c in read(f"My cat is called {m.group('n')}.")
        if c.predicate == "pet"
    ]


# "…, not Paris", "…, no longer Paris", "…, plus le thé" (French: no more
# the tea; "plus" must be followed by an article to mean that).
_NOT_OLD = re.compile(
    r"(?:,\s*+(?:and |et |but |mais )?(?:not|pas|non pas|no longer|no more|plus(?= (?:le|la|les|l'|du|de|d')\b))|(?<!\s)\s+(?:et non|non pas|rather than|instead of|plutôt que))\s++"
    r"(?:(?:in|at|for|with|a|an|the|my|en|à|au|aux|chez|pour|de|du|d'|le|la|les|l'|un|une)\s++)*"
    r"(?P<old>[^,.;!?\s][^,.;!?]{0,39}?)\s*+(?:[,.;!?]|$)",
    re.IGNORECASE,
)


# "I'm a nurse lol jk", "je suis infirmière… je rigole": a joke marker takes
# back what the turn said before it.
_JOKING = re.compile(
    r"(?<![\w'/])(?:(?-i:jk|j/k)|(?:just|only) (?:kidding|joking)"
    r"|I(?:'m| am| was) (?:just |only )?(?:kidding|joking)|je rigole|je plaisante"
    r"|c'est une blague)(?![\w'/])",
    re.IGNORECASE,
)


def taken_back(text: str) -> str:
    """The turn after its last joke marker: what came before it was not meant."""
    ends = [m.end() for m in _JOKING.finditer(text)]
    return text[ends[-1] :] if ends else text


def strip_opener(sentence: str) -> str:
    return OPENER.sub("", sentence).strip()


def _negated(clause: str) -> str | None:
    """What a clause that says something stopped being true says in positive form.

    ``None`` when the clause ends nothing; ``""`` when what ended is not the
    speaker's own statement ("my cat doesn't scratch the sofa any more"):
    the clause is hidden from the ordinary rules and retracts nothing.
    """
    ended = _ENDED.search(clause) is not None
    if not ended and not _PLAIN_NEGATION.search(clause):
        return None
    out = clause
    for pattern, repl in _FIRST_PERSON:
        out = pattern.sub(repl, out)
    if out == clause:
        return "" if ended else None
    return _ANY_MORE.sub("", out)


def split_negated(sentence: str) -> tuple[str, list[tuple[str, str]]]:
    """The sentence without its negated clauses, and those clauses beside their positive form."""
    kept: list[str] = []
    negated: list[tuple[str, str]] = []
    for clause in _CLAUSES.split(_SPACES.sub(" ", sentence)):
        positive = _negated(clause) if clause else None
        if positive is None:
            kept.append(clause)
        elif positive:
            negated.append((clause, positive))
    return ", ".join(c for c in kept if c), negated


def old_value(sentence: str) -> str | None:
    """The value a sentence says it replaces ("…, not Paris"), in stored form."""
    match = _NOT_OLD.search(_SPACES.sub(" ", sentence))
    if match is None:
        return None
    old = match.group("old").strip(" '\"")
    return LANGUAGES.get(old.lower(), old) or None


def read_corrections(sentence: str, read: Callable[[str], list[Candidate]]) -> list[Candidate]:
    """Candidates of one sentence, corrections included; ``read`` applies the ordinary rules."""
    said_wrong = says_wrong(sentence)  # before the opener ("je me suis trompée, …") goes
    sentence = strip_opener(sentence)
    rest, negated = split_negated(sentence)
    found = read(rest) if rest else []
    old = old_value(rest) if found else None
    if old is not None:
        found = [replace(c, corrects=old) for c in found if str(c.value).lower() != old.lower()]
    if any(c.predicate == "pet" for c in found):
        found = _ended_pets(rest, found)
    if not found and said_wrong:
        found = _by_shape(rest, read)
    if not negated and old is None and said_wrong:
        # Said to be wrong, with no old value named: the new statement
        # corrects what is held for its predicate (``HELD``). A pet read
        # by its kind only ("sorry, my cat isn't Rex" gives ``pet: cat``) is
        # no new name for the held one: it corrects nothing.
        found = [
            c
            if c.corrects is not None or c.retract or unnamed_pet(c)
            else replace(c, corrects=HELD)
            for c in found
        ]
    found.extend(_broken_up(sentence, read))
    found.extend(_left_job(sentence, read))
    found.extend(_died_named(sentence, read))
    for clause, positive in negated:
        # What the rules read in the clause as it stands, the negation does
        # not govern: "I don't think my cat likes it any more" keeps the cat.
        stated = {_said(c) for c in read(clause)}
        found.extend(replace(c, retract=True) for c in read(positive) if _said(c) not in stated)
    return found


# A value whose shape alone says what it is: an e-mail address or a phone
# number in a sentence that says something said was wrong ("I got that
# wrong, it's sam@new.example") is the speaker's own, with no topic word.
_SHAPES = (
    (re.compile(EMAIL), "My email is {}."),
    (re.compile(rf"(?<![\w.]){PHONE}(?![\w])"), "My phone number is {}."),
)


def _by_shape(sentence: str, read: Callable[[str], list[Candidate]]) -> list[Candidate]:
    """The contact details a said-wrong sentence gives by their shape alone (one of each kind)."""
    out: list[Candidate] = []
    for pattern, template in _SHAPES:
        match = pattern.search(sentence)
        if match is not None:
            out.extend(read(template.format(match.group(0))))
    return out


def unnamed_pet(candidate: Candidate) -> bool:
    """A pet stored by its kind, a lower-case value read without a name (``naming``)."""
    return candidate.predicate == "pet" and str(candidate.value).islower()


def _said(candidate: Candidate) -> tuple[str, str]:
    return candidate.predicate, str(candidate.value).casefold()


def _ended_pets(sentence: str, found: list[Candidate]) -> list[Candidate]:
    """The sentence's candidates, its pets retracted where it says they died or were lost."""
    lost = {word.casefold() for m in _LOST.finditer(sentence) for word in m.groups() if word}
    return [
        replace(c, retract=True) if c.predicate == "pet" and _said(c)[1] in lost else c
        for c in found
    ]


def merge_retractions(candidates: list[Candidate]) -> list[Candidate]:
    """A retraction and a new value of the same family in one turn become one correction."""
    out = list(candidates)
    for retraction in [c for c in candidates if c.retract]:
        family = _family(retraction.predicate)
        for i, cand in enumerate(out):
            if (
                _STANDS_FOR.get(family) == cand.predicate
                and str(cand.value)[:1].isupper()
                and not cand.retract
            ):
                cand = out[i] = replace(cand, predicate=family)
            if (
                not cand.retract
                and cand.corrects is None
                and _family(cand.predicate) == family
                and cand.qualifiers.get("speaker") == retraction.qualifiers.get("speaker")
            ):
                out[i] = replace(cand, corrects=retraction.value)
                out.remove(retraction)
                break
    return out


# Words by which the speaker says something they said was wrong, or has
# ended: a correction on its own. A negated "never forget" / "don't forget"
# is a memory, not a retraction; "what's wrong" is no error of theirs.
_ERROR_CUE = re.compile(
    r"\b(?:no longer|misspoke|mis-spoke|my bad|my mistake|scratch that|mistaken|incorrect|typo"
    r"|change of plans?|changement de (?:plan|programme)"
    r"|i meant|not (?:true|right|correct|the case) any ?more|I was wrong"
    r"|(?:is|was|are|were|'s) (?:wrong|not right|not correct)|got (?:it|that) wrong"
    r"|wrong (?:number|e-?mail|address|name|date|city|one|info\w*|age|phone)"
    r"|(?<!never )(?<!ever )(?<!n't )(?<!not )forget (?:what I (?:said|told)|that|about (?:that|it|what))"
    r"|ignore (?:the|that|what) (?:I|i) (?:said|told)"
    r"|oublie (?:ce que j'ai dit|ça|ce que je t'ai dit)"
    r"|(?:\w+n't|not)\b[^.!?,;]{0,40}\bany ?(?:more|longer)"
    r"|stopped (?:being|working|eating|drinking|using|doing|going|seeing|dating)"
    r"|(?:j'ai|on a|nous avons) arrêté (?:de|d')"
    r"|ne\b[^.!?]{0,30}\bplus|n'\w+ plus|plus maintenant|je me suis trompée?|erreur|c'est faux|(?:est|était) faux|fausse"
    r"|rectifi\w*|corrig\w*|(?:petite |small |quick |one )?correction(?! fluid)|auto-?correct\w*|correcteur|I typed|j'ai tapé)\b"
    # An apology or a halt that opens (or closes) the sentence: "oops, I
    # meant …", "non attends, c'est …", "It's John, sorry." ("sorry to hear",
    # "sorry for" apologise for something else).
    # A sigh or a "no" may come first: "ah non pardon, j'en ai 30".
    r"|^(?:(?:ah|oh|euh|uh|ugh|argh)[\s,]+)?(?:(?:no|non)[\s,]+)?"
    r"(?:oops|whoops|oups|sorry|pardon|(?:no )?wait(?: no)?|(?:non )?attends|correction)\b"
    r"(?! (?:to|for|about|de|pour)\b)"
    r"|[,;]\s*(?:sorry|pardon|oops|oups)[.!]*$",
    re.IGNORECASE,
)
# Words by which a turn says something changed, read as a correction only
# with the thing it changed named beside them: "we changed our indentation
# rules", "Tom and I broke up", "en fait je préfère le café maintenant".
_CHANGE_CUE = re.compile(
    r"\b(?:(?:I|we|I've|we've|have|has|had) (?:just )?(?:changed|switched|renamed)|changed (?:my|our)"
    # A thing of the speaker's said to have changed: "my hours changed",
    # "my schedule changed", "mes horaires ont changé".
    r"|(?:my|our) \w+ (?:has |have |just )?changed|(?:mon|ma|mes|notre|nos) \w+ (?:a|ont) changé"
    # A standing choice asked to change: "can you switch to Portuguese".
    r"|(?:switch|change|swap) (?:it |that |this )?(?:over )?to"
    r"|update (?:my|our)|updated (?:my|our)|broke up|split up|separated|divorced|moved out|quit (?:my|our)"
    r"|instead of|rather than|(?:actually|in fact)\b[^.!?]*\b(?:now|not|no)"
    r"|(?:I'm|I am) (?:\w+ )?over|more into|moved (?:my|our|to)"
    r"|plus (?:le|la|les|l'|de|d'|à|au|aux|chez|en)|(?:j'ai|on a|nous avons|avons|a) changé|rompu|séparée?s?|quitté"
    r"|passée?s? (?:au|à la|à l'|aux)|changement(?=\s*:)"
    # A bare "no," opening the sentence answers as often as it corrects.
    r"|^(?:no|non)(?=,)"
    r"|déménagé|en fait\b[^.!?]*\b(?:maintenant|pas|plus)"
    # A status that ends: work, a couple, a taste.
    r"|retired|retiring|(?:pris|prend\w*) (?:ma|sa|notre|leur) retraite|à la retraite"
    r"|got divorced|divorcée?s?|c'est fini|(?:gone|went) off|moved away"
    # What was believed turned out otherwise.
    r"|turns out|turned out|il s'avère|il s'est avéré|en fin de compte)\b",
    re.IGNORECASE,
)

# Change words the two cue lists above and the life events
# (``consolidator.life_events``) do not hold: what a speaker says of a taste, a membership or
# a habit that ended, or of a value used in place of another.
_SAID_CHANGED = re.compile(
    r"\b(?:dead to me|switched (?:it )?up|(?:let|letting) (?:my|our|the) (?:\w+ ){1,2}(?:lapse|expire)"
    r"|didn't renew|did not renew|cancel+ed (?:my|our)|not (?:\w+ing) any ?more"
    r"|plus jamais|(?:I'm|I am|we're|we are) back (?:to|on)"
    r"|moved (?:back |away )?(?:home )?(?:to|in|into)"
    # A couple begun changes the status held before it ("single").
    r"|seeing someone|(?:got|just got) (?:engaged|married)|je vois quelqu'un|on s'est mis ensemble)\b",
    re.IGNORECASE,
)
# A value said to hold from now on, where another may have held before:
# "we're in Bordeaux now", "my new job at Netflix", "my dog's name is
# actually Max", "on est à Bordeaux maintenant" ("right now", "for now",
# "just now" speak of a moment). Weaker than a change: chat says "now" and
# "new" of everything, so such a sentence only replaces a held value with
# one of the same shape it gives (``consolidator.doubt``), never doubts one.
_NEW_STATE = re.compile(
    r"\b(?:(?<!right )(?<!for )(?<!just )(?<!until )(?<!till )now|these days|nowadays|from now on"
    r"|maintenant|désormais|dorénavant|ces temps-ci"
    r"|(?:my|our) new|(?:mon|ma|notre) nouve(?:au|lle|l)"
    r"|^(?:actually|en fait)|(?:is|are|was|'s) actually|(?:est|s'appelle) en fait)\b",
    re.IGNORECASE,
)


def new_state(sentence: str) -> bool:
    """Does a sentence say a value holds from now on (not that another was wrong)?"""
    return _NEW_STATE.search(sentence) is not None


# A turn's sentences, each judged on its own cue.
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def said_changed(text: str) -> bool:
    """Does the text say a change in words neither cue list holds ("dead to
    me", "didn't renew", "not rowing anymore")? Read by the doubt stage only
    of a statement that points at one held fact (``said_change``)."""
    return _SAID_CHANGED.search(text) is not None


def correction_cue(text: str) -> bool:
    """Does a turn say that something held before is no longer so, or was wrong?"""
    return cue_strength(text) > 0


# A turn's cue is asked by the extractor, then by the doubt stage's gate and
# readers, of the same text: memoised per text.
@memo
def cue_strength(text: str) -> int:
    """2 when the text says something said was wrong or has ended, 1 when that
    something changed, 0 when neither."""
    if says_wrong(text):
        return 2
    return 1 if _CHANGE_CUE.search(text) else 0


def says_wrong(text: str) -> bool:
    """Does the text say something said was wrong or has ended (``cue_strength`` 2)?
    Asked of every sentence read, so the change cue is not looked for."""
    return _ERROR_CUE.search(text) is not None


def cued_sentences(text: str) -> list[tuple[str, int]]:
    """The sentences of a turn that carry a correction cue, with its strength; questions carry none."""
    out = []
    for part in _SENTENCE.split(text):
        # A statement typed into the question after it carries its cue.
        sentence = statement_before_question(part) or ""
        strength = cue_strength(sentence) if sentence else 0
        if strength:
            out.append((sentence, strength))
    return out
