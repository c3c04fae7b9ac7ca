"""Other readings of one sentence, so that how a fact is framed never hides it (pure).

The rules read a statement in its plain shape ("I adopted a cat named
Miso"). People wrap the same statement in a time ("Two weeks ago I adopted
…", "j'ai commencé chez Decathlon le mois dernier"), a shared subject ("my
husband and I moved to Grenoble", "on a emménagé à Lille") or a lead-in
before a colon ("Change of plan: no meetings before 11am"). Each wrapper is
taken off to give one more reading of the sentence; the engine reads every
reading with the same rules and keeps what the first one did not find:

- **time**: every span ``when`` knows as a past moment is cut out (with the
  comma that set it apart) and handed back, so a fact read only once the
  date is gone still holds from that moment;
- **shared subject**: "we", "my X and I", "X and I", "nous avons", "on a",
  "mon copain et moi, on a" before a verb of a life event become the
  speaker ("I", "j'ai"), since the event happened to the speaker too;
- **perfect of "be"**: "I've been vegan (since …, lately)", "Been married
  to Tom (for five years now)" say a state that still holds, read as "I'm
  vegan", "I'm married to Tom"; "been to", "been in", "been there" (visits)
  and "been …ing" (which the rules read as they stand) are left alone, and
  so is "been so/very/really …" unless "into" follows ("I've been really
  into watercolor lately"); the clause may follow a comma ("but yes, I've
  been single since August"), and a clause with its own span is read so too;
- **colon**: the words after a colon, read as a sentence of their own;
- **apposition**: a definite phrase whose name closes the sentence after a
  comma ("I joined the union at work, Teamsters Local 2785") reads as the
  name ("I joined Teamsters Local 2785");
- **request wrappers**: a lead-in that carries no fact ("just so you know",
  "remember that", "pour info"), a request put as a question ("could you
  always …?", "tu peux …?"), "pls" for "please", and a tail that only says
  the order lasts or is the rule ("… from now on", "that's our
  convention", "stick to that", "respecte ça", "stp") are taken off; a
  lasting tail moves to the head, where the request rules read it; a
  concessive tail ("…, even if I ask", "même si j'insiste") comes off and
  an indirect "asking me if" reads as "asking me whether";
- **conditions**: a condition ("when you suggest books", "si tu cites un
  film") stays with the order it sets, never read apart; "if you …, <order>"
  reads as "When you …, <order>" (a plain "if" stays a hedge);
- **negative wishes**: "no need to remind me …", "you don't have to …",
  "pas besoin de me rappeler …" read as the order they amount to ("Don't
  remind me …", "Ne me rappelle pas …");
- **clauses**: the parts of a sentence joined by "so", "and", "donc", "et"
  or a semicolon, each read on its own ("I use vim, so give me vim
  keybindings…"), since people put a fact and a request in one breath.
"""

from __future__ import annotations

import re
from itertools import pairwise

from ...text.memo import memo
from .fragments import LASTING
from .listed import listed_names
from .mood import asks
from .restatements import after_colon, named_in_apposition, plainly
from .when import past_span_all

# Life events a shared subject lived with the speaker; other verbs ("we use
# tabs") keep their subject, which the convention rules read as it stands.
_EVENT_VERBS_EN = (
    r"(?:just |recently |finally |officially )?(?:moved|relocated|adopted|rescued|bought|got|settled"
    r"|welcomed|brought home|joined|signed up|enrolled)\b"
)
_SHARED_EN = re.compile(
    rf"^(?:(?:we|my (?:\w+ ){{1,2}}and I|[A-Z]\w+ and I),? )(?=(?:'ve |have )?{_EVENT_VERBS_EN})",
    re.IGNORECASE,
)
_EVENT_VERBS_FR = r"(?:enfin |récemment )?(?:emménagé|déménagé|adopté|acheté|accueilli|rejoint)\b"
_SHARED_FR = re.compile(
    rf"^(?:(?:mon|ma) \w+ et moi,? )?(?:nous avons|on a) (?={_EVENT_VERBS_FR})", re.IGNORECASE
)
_PERFECT_BE = re.compile(
    r"(?:^(?:I(?:'ve|’ve| have) )?|(?<=, )I(?:'ve|’ve| have) )been "
    r"(?!(?:to|in|at|on|there|here|through)\b|(?:so|very|really)\b(?! into\b)|\w+ing\b)",
    re.IGNORECASE,
)
# The perfect says a state still holds only with a span that runs to now
# ("since 2020", "for five years") and nothing that ends it ("before",
# "until last year", "but I quit", "now I'm a teacher").
_STILL = re.compile(
    r"\b(?:since|for (?:\w+ ){1,2}(?:years?|months?|weeks?|days?|decades?)|depuis"
    r"|lately|these days|dernièrement|ces temps-ci)\b",
    re.IGNORECASE,
)
_ENDED = re.compile(
    r"\b(?:before|in the past|until|till|once|ever|used to|but|quit|anymore|any more|no longer|retired"
    r"|stopped|now (?:I|I'm|I am))\b",
    re.IGNORECASE,
)
# What is left around a cut-out span: a doubled comma or space, a comma at
# either end, the "que" of "ça fait trois mois que …".
# Runs of spaces are folded first: the patterns after it then meet at most
# one space at a time, so none of them backtracks over a long run.
_FOLD = (re.compile(r"\s{2,}"), " ")
_LEFTOVER = (
    _FOLD,
    # A "since" whose moment was cut without it ("je bosse de 8h à 16h depuis, …").
    (re.compile(r"\s(?:since|depuis)(?=\s?[,.!?]|\s?$)", re.IGNORECASE), ""),
    (re.compile(r"\s?,\s?(?=,)|\s(?=[,.!?])"), ""),
    (re.compile(r"^\s?(?:,|que |qu')\s?", re.IGNORECASE), ""),
    _FOLD,
)


def without_time(sentence: str) -> tuple[str, str] | None:
    """The sentence with its past-moment spans cut out, and the first span; ``None`` without one."""
    spans = past_span_all(sentence)
    cut = _cut(sentence, spans)
    return None if cut is None else (cut, sentence[slice(*spans[0])])


def _cut(sentence: str, spans: list[tuple[int, int]]) -> str | None:
    """The sentence with ``spans`` cut out; ``None`` when nothing is cut or nothing is left."""
    if not spans:
        return None
    pieces, last = [], 0
    for start, end in spans:
        pieces.append(sentence[last:start])
        last = end
    pieces.append(sentence[last:])
    text = "".join(pieces)
    for pattern, repl in _LEFTOVER:
        text = pattern.sub(repl, text)
    text = text.strip()
    return text[:1].upper() + text[1:] if text else None


def first_person(sentence: str) -> str:
    """The sentence with a shared subject of a life event said as the speaker."""
    out = _SHARED_EN.sub("I ", sentence, count=1)
    return _SHARED_FR.sub("j'ai ", out, count=1)


_LEAD_IN = re.compile(
    r"^(?:hey|hi|hello|ok|okay|oh|also|salut|coucou|bon|alors)\b,?\s+(?=\w)"
    r"|^(?:(?:just )?so you know|fyi|btw|by the way|note that|keep in mind(?: that)?|remember(?: that)?"
    r"|(?:I )?(?:just )?wanted to (?:say|tell you|let you know)(?: that)?|just to let you know(?: that)?"
    r"|don't forget(?: that)?|pour info|pour ton info|au fait|d'ailleurs|en passant|sache que|n'oublie pas que|rappelle-toi que"
    r"|retiens que)[,:]?\s+",
    re.IGNORECASE,
)
_ASKED = re.compile(
    r"^(?:(?:can|could|would|will) (?:you|u)|(?:tu peux|peux-tu|pourrais-tu|tu pourrais|vous pouvez|pouvez-vous))"
    r"(?:,? (?:please|pls|plz|stp|s'il te pla[iî]t),?)? (?P<r>\w.+?)\s?\?$",
    re.IGNORECASE,
)
_PLEASE = re.compile(r"^(?:pls|plz|please|stp|svp),?\s+", re.IGNORECASE)
_LASTING_TAIL = re.compile(
    rf",?\s+(?P<t>{LASTING})[.!]?$",
    re.IGNORECASE,
)
_EMPTY_TAIL = re.compile(
    r",?\s+(?:obviously|lol|thanks|thank you|thx|fwiw|btw|merci|stp|svp|s'il te pla[iî]t|please|pls|plz)[.!]?$",
    re.IGNORECASE,
)
# A tail that says the order is the rule: it lasts, as "from now on" says.
_RULE_TAIL_EN = re.compile(
    r",?\s+(?:that's (?:our|the|my) (?:convention|rule|standard|style)|stick to (?:that|it)"
    r"|keep (?:that|it|this) in mind)[.!]?$",
    re.IGNORECASE,
)
_RULE_TAIL_FR = re.compile(
    r",?\s+(?:c'est (?:notre|la) (?:convention|règle)|respecte[sz]? (?:ça|cela|le)|garde (?:ça|le) en tête)[.!]?$",
    re.IGNORECASE,
)
# A clause that only sets when an order applies ("when you suggest books",
# "si tu cites un film"): it is part of the order after it, never a
# statement of its own. It may follow a lead-in before a colon or a comma.
_IF = (
    r"(?:when|whenever|if|every time|each time|any time|anytime|quand|lorsque|lorsqu'"
    r"|si|s'il|s'ils|chaque fois que|chaque fois qu'|à chaque fois que|dès que|dès qu')(?:\s|(?<='))"
)
_CONDITION = re.compile(rf"(?:^|[,:;]\s+){_IF}[^,:;]*$", re.IGNORECASE)
_LEAD_TO_CONDITION = re.compile(rf"^[^:,.!?]{{1,40}}?\s?:\s+(?={_IF})", re.IGNORECASE)
# "if you …, <order>" sets when the order applies, as "when" does; read
# as "when", since a plain "if" elsewhere makes a statement hypothetical.
_IF_ORDER = re.compile(
    r"^(?:if|si) (?=(?:you|I|we|someone|anyone|tu|je|j'|on|quelqu'un)\b)", re.IGNORECASE
)


def without_lead_in(piece: str) -> str:
    """``piece`` without a lead-in that opens on a condition ("Small favour: when …", "By the way, when …")."""
    text = _LEAD_TO_CONDITION.sub("", piece)
    lead = _LEAD_IN.match(text)
    if lead and re.match(_IF, text[lead.end() :], re.IGNORECASE):
        text = text[lead.end() :]
    return text


def conditional_order(sentence: str) -> str | None:
    """An order set by "if" read as set by "when" ("If you cite a film, always …"); else ``None``."""
    text = without_lead_in(unwrapped(sentence))
    head, sep, rest = text.partition(", ")
    if not sep or not _IF_ORDER.match(head) or not asks(rest):
        return None
    french = head[:2].lower() == "si"
    return _IF_ORDER.sub("Quand " if french else "When ", head, count=1) + ", " + rest


def ends_in_condition(piece: str) -> bool:
    """Whether the last clause of ``piece`` is a condition waiting for the order it sets."""
    return _CONDITION.search(piece.strip()) is not None


# A wish that the agent need not do something is a wish that it not do it:
# "no need to remind me …", "you don't have to warn me …" read as "don't …";
# "pas besoin de me rappeler …", "inutile de me prévenir …" read as "ne me
# rappelle pas …", "ne me préviens pas …". These are the forms the request
# rules and the risk gate both read, so a wish that lowers a safeguard
# ("pas la peine de me prévenir des failles de sécurité") is held as its
# imperative would be. French needs the imperative of the verb: only the
# verbs of how the agent treats the person are known (the others are left
# unread rather than guessed).
_NO_NEED_EN = re.compile(
    r"^(?:(?:there's|there is) )?no need (?:for you )?to |^you (?:don't|do not|needn't|need not)"
    r"(?: (?:have|need))?(?: to)? (?=[a-z])",
    re.IGNORECASE,
)
_NO_NEED_FR = re.compile(
    r"^(?:(?:tu n'as |t'as )?pas besoin|plus besoin|inutile|pas la peine|ce n'est pas la peine) (?:de |d')"
    r"(?P<pro>me |m'|te |t'|nous )?(?P<verb>[a-zéèêàâîôûç]+)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_IMPERATIVE_FR = {
    "rappeler": "rappelle",
    "prévenir": "préviens",
    "demander": "demande",
    "avertir": "avertis",
    "excuser": "excuse",
    "embêter": "embête",
    "relancer": "relance",
    "corriger": "corrige",
    "signaler": "signale",
    "interrompre": "interromps",
    "remercier": "remercie",
    "féliciter": "félicite",
    "saluer": "salue",
    "sermonner": "sermonne",
}


def negative_wish(sentence: str) -> str | None:
    """``sentence`` as the order it amounts to when it says the agent need not do something."""
    text = unwrapped(sentence)
    if _NO_NEED_EN.match(text):
        return "Don't " + _NO_NEED_EN.sub("", text, count=1)
    wish = _NO_NEED_FR.match(text)
    if wish is None or (verb := _IMPERATIVE_FR.get(wish.group("verb").lower())) is None:
        return None
    pro = wish.group("pro") or ""
    return f"Ne {pro}{verb} pas{wish.group('rest')}"


_JOINS = re.compile(r",?\s+(?:so|and|donc|et|alors)\s+|;\s*", re.IGNORECASE)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# A concessive tail ("…, even if I ask in a hurry", "…, même si je
# insiste") says the order holds all the more; it sets no condition.
_CONCESSIVE_TAIL = re.compile(
    r",?\s+(?:even if|even when|même si|même quand)\b[^,;]*$", re.IGNORECASE
)
# "if" after a verb of asking or knowing opens an indirect question, not a
# condition: "stop asking me if I'm sure" reads as "… whether I'm sure".
_ASKED_IF = re.compile(
    r"\b((?:ask|asks|asking|asked|check|checking|wonder|wondering|know|tell)(?: me| you| us)?) if\b",
    re.IGNORECASE,
)


# A sentence is unwrapped about four times while it is read (whole, then as
# each clause, then again once cut); the answer depends on the text alone, so
# it is kept — for sentences of chat length only, which bounds the memory held
# (a pasted log can make one "sentence" of megabytes).
_CACHED_UP_TO = 600


def unwrapped(sentence: str) -> str:
    """The request inside its wrappers (lead-in, question, "pls", empty tail); itself without any."""
    return _unwrapped_cached(sentence) if len(sentence) <= _CACHED_UP_TO else _unwrap(sentence)


def _unwrap(sentence: str) -> str:
    folded = _FOLD[0].sub(" ", sentence.strip())
    text = folded
    for _ in range(3):
        before = text
        text = _LEAD_IN.sub("", text)
        asked = _ASKED.match(text)
        if asked:
            text = asked.group("r").rstrip() + "."
        text = _PLEASE.sub("", text)
        text = _EMPTY_TAIL.sub("", text.rstrip(".!"))
        text = _ASKED_IF.sub(r"\1 whether", _CONCESSIVE_TAIL.sub("", text))
        if _RULE_TAIL_EN.search(text):
            text = "from now on, " + _RULE_TAIL_EN.sub("", text)
        elif _RULE_TAIL_FR.search(text):
            text = "dorénavant, " + _RULE_TAIL_FR.sub("", text)
        tail = _LASTING_TAIL.search(text)
        if tail:
            text = f"{tail.group('t')}, {text[: tail.start()]}"
        if text == before:
            break
    text = _capital(text.strip())
    return sentence if text == folded.rstrip(".!") else text


_unwrapped_cached = memo(_unwrap)

# A statement the speaker makes of themselves: a reason an order can rest on.
_SELF = re.compile(
    r"^(?:I|I'm|I am|I've|my|je|j'|j'ai|mon|ma|mes|on|we|we're|our|nos|notre)\b", re.IGNORECASE
)
# An order that forbids: it lasts as long as the reason given for it.
_FORBIDDING = re.compile(r"^(?:don't|do not|never|avoid|stop|évite|arrête|ne|n')\b", re.IGNORECASE)
_FRENCH = re.compile(r"[àâçéèêëîïôûùœ]|\b(?:les|des|tes|mes|pas|jamais|une?|du)\b", re.IGNORECASE)


# A comma splice, as chat joins two statements ("je suis en couple avec
# Karim, ça se passe super bien"): the part after the comma opens with a
# subject of its own. A pronoun that points back ("a beagle, she's called
# Pepper") continues the first part, and so does a main clause after a
# subordinate one ("When I moved here, I was 20").
_OWN_SUBJECT = re.compile(r"^(?:ça|ca|on|je|j'|nous|we|I|I'm|that's)\b", re.IGNORECASE)
_SUBORDINATE = re.compile(
    r"^(?:when|whenever|if|after|before|since|because|as|while|although|though|once|until|quand"
    r"|lorsque|si|s'|après|avant|depuis que|parce que|comme|puisque|bien que|dès que)\b",
    re.IGNORECASE,
)


def _spliced(before: str, after: str) -> bool:
    return _OWN_SUBJECT.match(after) is not None and _SUBORDINATE.match(before.lstrip()) is None


def _parts(sentence: str) -> list[str]:
    """The sentence's joined parts of at least three words, as they stand in it (spaces folded)."""
    text = _FOLD[0].sub(" ", sentence)
    parts: list[str] = []
    for part in _JOINS.split(text):
        pieces = re.split(r",\s+", part)
        merged = [pieces[0]]
        for piece in pieces[1:]:
            if (
                (asks(piece) or _spliced(merged[-1], piece))
                and len(piece.split()) >= 3
                and not ends_in_condition(merged[-1])
            ):
                merged.append(piece)
            else:
                merged[-1] = f"{merged[-1]}, {piece}"
        parts.extend(merged)
    parts = [p.strip(" ,.") for p in parts]
    return [p for p in parts if len(p.split()) >= 3]


def clauses(sentence: str) -> list[str]:
    """The sentence's joined parts of at least three words, when it has several.

    A comma joins parts too when an order follows it ("je suis daltonien,
    évite de …"). An order that forbids, given after a reason the speaker
    states of themselves ("I'm colour blind so don't rely on red vs green"),
    lasts as long as its reason: it is read with a lasting head ("from now
    on", "dorénavant"), as the request rules read a standing order.
    """
    return [text for text, _ in _clause_readings(_parts(sentence))]


def _clause_readings(parts: list[str]) -> list[tuple[str, int]]:
    """``clauses`` of the sentence cut into ``parts``, each with the index of the part it reads."""
    if len(parts) < 2:
        return []
    out = [(_capital(p), i) for i, p in enumerate(parts)]
    for i, (before, after) in enumerate(pairwise(parts), start=1):
        if _SELF.match(before) and _FORBIDDING.match(after):
            head = "Dorénavant" if _FRENCH.search(after) else "From now on"
            out.append((f"{head}, {after}", i))
    return out


def _part_moments(
    folded: str, spans: list[tuple[int, int]], cut_parts: list[str], span: str | None
) -> list[str | None]:
    """The moment each of ``cut_parts`` reads with: the one cut from its own part of ``folded``.

    A part that had no moment of its own, or a sentence whose parts do not
    line up once cut, keeps the sentence's first moment ``span``.
    """
    moments: list[str | None] = [span] * len(cut_parts)
    parts = _parts(folded)
    if len(parts) != len(cut_parts):
        return moments
    cursor = 0
    for i, part in enumerate(parts):
        at = folded.find(part, cursor)
        if at < 0:
            return [span] * len(cut_parts)
        cursor = at + len(part)
        own = [folded[a:b] for a, b in spans if at <= a and b <= cursor]
        if own:
            moments[i] = own[0]
    return moments


def readings(sentence: str) -> list[tuple[str, str | None]]:
    """Other readings of ``sentence``, each with the past moment cut out of it (if any).

    A clause read on its own carries the moment cut from that clause ("on a
    visité Lyon en 2019 et on a emménagé à Lyon le mois dernier": the move
    is last month's); the whole sentence carries its first moment.
    """
    out: list[tuple[str, str | None]] = []
    # Runs of spaces folded first: no pattern below backtracks over a long run.
    folded = _FOLD[0].sub(" ", sentence)
    base, span = folded, None
    spans = past_span_all(folded)
    cut = _cut(folded, spans)
    if cut is not None:
        base, span = cut, folded[slice(*spans[0])]
        out.append((base, span))
    if (plain := plainly(base)) != base:
        base = plain
        out.append((base, span))
    shared = first_person(base)
    if shared != base:
        out.append((shared, span))
    present = base
    if _STILL.search(sentence) and not _ENDED.search(sentence):
        present = _PERFECT_BE.sub("I'm ", base, count=1)
    if present != base:
        out.append((present, span))
    out.extend((tail, span) for tail in after_colon(base))
    out.extend((text, span) for text in listed_names(base))
    out.extend((text, span) for text in named_in_apposition(base))
    parts = _parts(base)
    moments = _part_moments(folded, spans, parts, span) if cut is not None else [span] * len(parts)
    pieces = [(unwrapped(base), span)]
    pieces += [(text, moments[i]) for text, i in _clause_readings(parts)]
    for text, moment in pieces:
        # A wrapper off may leave a shared subject first ("Just wanted to say we moved…"),
        # and so may a lead-in before a colon ("grosse année : on a déménagé à Lyon").
        for each in (text, *after_colon(text)):
            out.extend(
                (t, moment)
                for t in dict.fromkeys((each, unwrapped(each), first_person(each), plainly(each)))
            )
        if moment and _STILL.match(moment) and not _ENDED.search(text):
            # A clause's own span running to now keeps its perfect a present
            # state, as for the whole sentence ("Lena and I ended things, so
            # I've been single since August").
            out.append((_PERFECT_BE.sub("I'm ", text, count=1), moment))
        if (order := negative_wish(text)) is not None:
            out.append((order, moment))
        if (order := conditional_order(text)) is not None:
            out.append((order, moment))
    seen = {sentence}
    kept: list[tuple[str, str | None]] = []
    for text, when in out:
        if text not in seen:
            seen.add(text)
            kept.append((text, when))
    return kept
