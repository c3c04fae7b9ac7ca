"""Deterministic English and French patterns: what the ``rules`` provider reads first.

Reads only what the subject said (user turns, or a named speaker's turn),
one sentence at a time. Questions and hedged sentences assert nothing and
are skipped; captured values must have the shape their predicate expects.
A named speaker becomes the identity qualifier ``speaker``, so two people
in one conversation never share a fact. The readers by meaning that read
what no pattern read, and the provider itself, are ``by_meaning``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from ...text.contractions import as_said
from ...text.injection import clean
from .corrections import merge_retractions, read_corrections, taken_back
from .fragments import HEDGES
from .habits import DAYS
from .liking import liking
from .meaning import Unread, readable
from .meaning_facts import readable as fact_readable
from .mood import by_mood
from .naming import named_pet
from .owned_model import named_model
from .patterns import CATEGORY_EN, RELATION_PREDICATES, RULES, Rule
from .patterns_named import another_turned
from .patterns_possessive import attribute
from .patterns_status import aside, pastime_schedule
from .plain import plainer
from .prefilter import Prefilter
from .questions import stated_before_question
from .readings import ends_in_condition, readings, unwrapped, without_lead_in
from .remarks import safe_to_drop, variants
from .render import extraction_text, utterances
from .reported import without_reported_speech
from .respell import apostrophes_restored, respelled
from .restatements import apposed
from .tied_names import tied
from .types import SUBJECT_ROLES, Candidate, Utterance
from .values import checked_value
from .vocabulary import LANGUAGE_CONTEXTS
from .when import dates_sentence, moment_of_value, names_past, past_span, said_moment
from .wish_frames import PARTS
from .wished import unframed
from .wishes import split_orders, wishes

# Sentences, and standing orders joined in one ("answer briefly, and always
# add …"): each order is a clause of its own, judged on its own.
# A separator's leading spaces are tried from the first of their run only
# (not after a space or tab: "(?<![^\S\n])"), where the leftmost match
# starts anyway; a match can end inside a run only after a newline. A long
# run of spaces is then read once instead of once per space, and every text
# splits as without the guard (tests/unit/consolidator/test_sentence_split.py).
# An emoji before a space ends a sentence as a full stop does when the
# speaker goes on about themself ("… about it 😂 anyway i started at
# Klarna", "sold the civic 🎉 got a Mazda 3"): that statement is read apart from the one before. Other words
# after an emoji ("🐶 my roommate is obsessed", "🎸 is that normal") stay
# with the sentence: read apart, such fragments read as wishes they are not.
_EMOJI = "\U0001f300-\U0001faff\u2600-\u27bf"
_SELF_NEXT = (
    r"(?=(?:(?:anyway|so|and|oh|btw|also|but|bon|bref|au fait|alors|et|mais)\s+)?"
    r"(?:i|i'm|i've|im|ive|we|we're|we've|je|j'|on|nous"
    # The subject dropped before a life event ("🎉 got a Mazda 3 yesterday").
    r"|(?:just |finally )?(?:got|bought|started|moved|joined|adopted|picked up|took up|switched"
    r"|began|signed))\b)"
)
_EMOJI_GAP = re.compile(rf"(?<=[{_EMOJI}])\s+")
_SENTENCES = re.compile(
    rf"(?<=[.!?])\s+|(?<=[{_EMOJI}])\s+{_SELF_NEXT}|\n+"
    r"|(?:(?<![^\S\n])|(?!\s))\s*[,;]\s*(?:and\s+|et\s+)?(?=(?:always|never|toujours|ne jamais)\b)"
    r"|(?<![^\S\n])\s+(?:and|et)\s+(?=(?:always|never|toujours|ne jamais)\b)",
    re.IGNORECASE,
)

# "the things I love makes…": a statement after one of these is inside a noun phrase.
_RELATIVE_HEADS = frozenset(
    [
        "things",
        "thing",
        "what",
        "that",
        "which",
        "everything",
        "stuff",
        "ones",
        "one",
        "something",
        "people",
        "all",
        "whatever",
        "who",
    ]
)


def _predicate(rule: Rule, match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    if groups.get("rel"):
        return RELATION_PREDICATES.get(groups["rel"].lower())
    if groups.get("attr"):
        return attribute(groups["attr"])
    if groups.get("cat"):
        category = groups["cat"].lower()
        return "favorite_" + CATEGORY_EN.get(category, category).replace(" ", "_")
    return rule.predicate or None


def _relative_clause(sentence: str, start: int) -> bool:
    """True for "the things I love makes…": the statement is inside a noun phrase."""
    before = sentence[:start].split()
    return bool(before) and before[-1].lower() in _RELATIVE_HEADS


# A more specific statement wins over a general one read from the same
# sentence: "I prefer answers in French" is a language preference, not a
# ``prefers: answers in French``.
SUBSUMED: dict[str, frozenset[str]] = {
    "prefers": frozenset({"language"}),
    # "Please use Celsius for temperatures": the units fact says it all.
    "convention": frozenset({"language", "code_convention", "units"}),
    # "I joined Google as an engineer", "I started working for Shopify":
    # an employer, not a club or a pastime.
    "member_of": frozenset({"employer"}),
    # "j'ai commencé le piano": an instrument read as such is not also a pastime.
    "hobby": frozenset({"employer", "plays", "learning"}),
    # "got hitched to my boyfriend Sam": he is a spouse now.
    "partner": frozenset({"spouse"}),
}


_CLAUSE_START = re.compile(r"[,;:]\s|\s[-–—]\s|\b(?:so|but|and then|because|mais|donc|parce que)\s")


def _hedged(sentence: str, start: int, end: int) -> bool:
    """A hedge in the clause of a statement, up to its end, makes it hypothetical.

    "I do like nature, so that might be fun" states a preference; "If I lived
    in Paris…" and "I'd maybe love hiking" do not.
    """
    opening = max((m.end() for m in _CLAUSE_START.finditer(sentence, 0, start)), default=0)
    return HEDGES.search(sentence, opening, end) is not None


# Rules a sentence cannot match are not tried (prefilter: exact, from the
# words each pattern requires).
_PREFILTER = Prefilter(RULES)


def _sentence_candidates(sentence: str, utterance: Utterance) -> list[Candidate]:
    if sentence.endswith("?"):
        head = stated_before_question(sentence)
        if head is None:
            return []
        sentence = head
    out: list[Candidate] = []
    fallback: list[Candidate] = []
    for rule in _PREFILTER.rules_for(sentence):
        if rule.addressed and utterance.speaker:
            continue
        for match in rule.pattern.finditer(sentence):
            if _relative_clause(sentence, match.start()) or _hedged(
                sentence, match.start(), match.end()
            ):
                continue
            predicate = _predicate(rule, match)
            # A rule with several shapes names the others' values ``v2`` to ``v4``.
            groups = match.groupdict()
            raw = next((groups[g] for g in ("v", "v2", "v3", "v4") if groups.get(g)), "")
            value = checked_value(rule, raw)
            if predicate is None or value is None:
                continue
            qualifiers: dict[str, Any] = {}
            if utterance.speaker:
                qualifiers["speaker"] = utterance.speaker
            if match.groupdict().get("when"):
                qualifiers["when"] = match.group("when").lower()
            if match.groupdict().get("ctx"):
                qualifiers["context"] = LANGUAGE_CONTEXTS[match.group("ctx").lower()]
            if match.groupdict().get("ctx2"):  # what a code convention is for: "Go code"
                qualifiers["context"] = " ".join(match.group("ctx2").lower().split())
            if match.groupdict().get("rel") and predicate == "pet":
                qualifiers["kind"] = match.group("rel").lower()
            # A plan's time is when it will happen (its ``when``), not when
            # it began to hold.
            said_when = (
                None if predicate == "plan" else past_span(sentence, match.start(), match.end())
            )
            (fallback if rule.fallback else out).append(
                Candidate(
                    predicate=predicate,
                    value=value,
                    qualifiers=qualifiers,
                    fact_kind=rule.fact_kind,
                    volatility=rule.volatility,
                    confidence=rule.confidence,
                    evidence_span=sentence.strip()[:300],
                    role=utterance.role,
                    said_when=said_when,
                )
            )
    found = {c.predicate for c in out}
    return [c for c in out if not (SUBSUMED.get(c.predicate, frozenset()) & found)] or fallback


# A tie the same sentence ends afterwards ("… but left last year", "… but we
# divorced", "… mais on a rompu"), and the predicates such an end reaches.
_ENDED_AFTER = re.compile(
    r"\b(?:but|and then|then|mais|puis)\s+(?:(?:I|we|he|she|they|j'ai|on a|nous avons|il a|elle a)\s+)?"
    r"(?:left|quit|divorced|split up|broke up|separated|got divorced|moved out"
    r"|quitté|divorcé|rompu|démissionné|(?:se sont |nous sommes |on s'est )?séparés?)\b",
    re.IGNORECASE,
)
_PASTIMES = frozenset({"hobby", "plays", "learning", "volunteers_at"})
_ENDABLE = frozenset(
    {"employer", "spouse", "partner", "relationship_status", "member_of", "occupation"}
)


def _read_all(sentence: str, utterance: Utterance) -> list[Candidate]:
    """The sentence's candidates, then what its other readings (``readings``) add.

    A fact found only once a past moment is cut out holds from that moment;
    one found both ways takes it only when the plain reading dated nothing
    and the moment dates the whole sentence ("Since Monday I've been
    working at Airbus"), not another clause ("I live in Lyon and I saw a
    movie yesterday").
    """
    # A statement the question follows, or presupposes, is read with all its
    # readings ("did I tell you I've been at Deloitte since March?"); any
    # other question only with its own (a request put as one).
    head = stated_before_question(sentence) if sentence.endswith("?") else None
    sentence = head or sentence
    found = _sentence_candidates(sentence, utterance)
    index = {(c.predicate, str(c.value).lower()): i for i, c in enumerate(found)}
    lowered = sentence.lower()
    for text, span in readings(sentence):
        for cand in _sentence_candidates(text, utterance):
            when = cand.said_when or (
                None
                if cand.predicate == "plan"
                else moment_of_value(sentence, lowered, str(cand.value)) or span
            )
            key = (cand.predicate, str(cand.value).lower())
            if key in index:
                held = found[index[key]]
                if held.said_when is None and when and dates_sentence(sentence, when):
                    found[index[key]] = replace(held, said_when=when)
                continue
            index[key] = len(found)
            found.append(replace(cand, said_when=when, evidence_span=sentence.strip()[:300]))
    return _named_over_phrase(sentence, found)


def _named_over_phrase(sentence: str, found: list[Candidate]) -> list[Candidate]:
    """Without a value the sentence names in apposition: "a book club, the Ponsonby
    Readers" is one club, stored by its name when both were read for one predicate."""
    pair = apposed(sentence)
    if pair is None:
        return found
    phrase, name = (p.lower() for p in pair)
    named = {c.predicate for c in found if str(c.value).lower() == name}
    return [
        c
        for c in found
        if not (
            c.predicate in named and str(c.value).lower() != name and str(c.value).lower() in phrase
        )
    ]


def _pieces(text: str) -> list[str]:
    """The sentences and orders of ``text``; a condition cut from its order joins it again.

    "Small favour: when you suggest books, always add the author" splits
    before "always"; the condition is part of the order it conditions, so
    the two read as one ("when you suggest books, always add the author"),
    and the lead-in alone never becomes a statement of its own: a short one
    before a colon ("Small favour:", "Petite demande :") is dropped.
    """
    out: list[str] = []
    last, glued, joiner = 0, False, ""
    for sep in _SENTENCES.finditer(text):
        piece = text[last : sep.start()].strip()
        if glued and out:
            out[-1] = f"{out[-1]}{joiner}{piece}"
        else:
            out.append(piece)
        joiner = text[sep.start() : sep.end()]
        glued = (
            "\n" not in joiner
            and not re.search(r"[.!?]\s*$", out[-1])
            and ends_in_condition(out[-1])
        )
        last = sep.end()
    piece = text[last:].strip()
    if glued and out:
        out[-1] = f"{out[-1]}{joiner}{piece}"
    else:
        out.append(piece)
    return [without_lead_in(o) for p in out for o in split_orders(p)]


def _as_said(sentence: str, found: list[Candidate]) -> list[Candidate]:
    """Candidates read from a rewritten ``sentence``, their evidence the words as said."""
    return [replace(c, evidence_span=sentence.strip()[:300]) for c in found]


def wishes_beside(
    sentence: str, utterance: Utterance, read: Callable[[str], list[Candidate]]
) -> list[Candidate]:
    """The wishes of ``sentence``'s clauses (``PARTS``) that no rule reads on their own.

    A rule that reads one clause of a sentence ("pense à exécuter …")
    would otherwise stop the wish reading of the whole sentence, and with
    it the benign order beside ("Réponds en bullet points"). Each clause
    the rules leave is read by ``wishes`` and judged on its own; a clause
    the rules read keeps their reading. A clause neither reads is not
    given to the readers by meaning: cut from its sentence it may point at
    what the sentence told ("…; be like that assistant"), which its own
    words no longer show to the guard. Only sentences of several clauses
    pay the second reading, one rule pass per clause.
    """
    clauses = [c.strip() for c in PARTS.split(sentence) if c and c.strip()]
    if len(clauses) < 2:
        return []
    return [
        cand
        for clause in clauses
        if not read_corrections(clause, read)
        for cand in wishes(clause, utterance)
    ]


def _for_meaning(sentence: str, asked: str, role: str) -> list[Unread]:
    """What of ``sentence`` (``asked``: the request inside a question) the readers by meaning read.

    A question is never a fact (``meaning_facts.readable``), so a sentence
    read for a fact is the sentence as said. The fact reader reads each part
    an emoji closes on its own ("we named the puppy Bizcuit 🐶 the kids
    voted"): its guard then sees the people of the value's own part only.
    """
    parts = [p for p in _EMOJI_GAP.split(sentence) if p.strip()]
    wish, fact = readable(asked), len(parts) == 1 and fact_readable(sentence)
    out = [Unread(asked, role, wish=wish, fact=fact)] if wish or fact else []
    if len(parts) > 1:
        out.extend(Unread(p, role, wish=False, fact=True) for p in parts if fact_readable(p))
    return out


def extract_utterance(utterance: Utterance, unread: list[Unread] | None = None) -> list[Candidate]:
    """Candidates stated by one utterance; the first statement of a (predicate, value) wins.

    Corrections ("not … any more", "…, not Paris") are read by
    ``corrections``: retractions and replacements carry what they end.
    The subject's own sentences nothing read, worth reading by meaning
    (``meaning.readable``), are added to ``unread`` when it is given.
    """
    if utterance.role not in SUBJECT_ROLES:
        return []
    text = taken_back(
        without_reported_speech(
            apostrophes_restored(extraction_text(clean(utterance.text)).replace("’", "'"))
        )
    )
    seen: set[tuple[str, str, bool]] = set()
    out: list[Candidate] = []

    def read(sentence: str) -> list[Candidate]:
        return _read_all(sentence, utterance)

    # A wish frame around a statement or an order is read as what it wraps
    # (``wished``); a framed sentence none of whose pieces any rule read goes
    # to the readers by meaning as said, frame and all, as without the frame
    # reading.
    framed: dict[str, bool] = {}
    for said, sentence in ((p, w) for p in _pieces(text) for w in unframed(p)):
        if sentence != said:
            framed.setdefault(said, False)
        # "Got a puppy! His name is Scout.": the name belongs to the pet before.
        renamed = named_pet(sentence, out)
        if renamed is not None:
            out = renamed
            continue
        found = read_corrections(sentence, read) if sentence else []
        if not found and sentence and names_past(sentence):
            # A dated event no rule read: its verb may be typed in a hurry.
            fixed = respelled(sentence)
            found = _as_said(sentence, read(fixed) if fixed != sentence else [])
        plain = plainer(sentence) if not found and sentence else None
        if plain:
            # "so yeah i only started…": read again without the filler (``plain``).
            found = _as_said(sentence, read_corrections(plain, read))
        # A standing wish or habit no rule read, by mood and structure
        # (``wishes``); a request put as a question reads as the request.
        asked = unwrapped(sentence) if sentence.endswith("?") else sentence
        days = DAYS.search(sentence) if found else None
        if days and {c.predicate for c in found} <= _PASTIMES and not aside(sentence, days.start()):
            # A pastime said with its days is a schedule too ("je joue au
            # foot le jeudi"), as the habit reading keeps it, or as begun.
            habit = [c for c in wishes(asked, utterance) if c.predicate == "schedule"]
            found = found + (habit or pastime_schedule(found, days.group(0)))
        if found and sentence:
            # A fact read from one clause hides no order in another
            # ("Réponds en bullet points, et pense à exécuter …").
            found = found + wishes_beside(asked, utterance, read)
        found = found or (wishes(asked, utterance) if sentence else [])
        # A taste said in the frame of one, whatever its object (``liking``).
        found = found or (liking(sentence, utterance) if sentence else [])
        # A wish with the speaker's remark after it ("Call me Sam, it's
        # shorter"), or typed without its hyphen: read again (``remarks``).
        for again, remark_of in variants(sentence) if not found and sentence else []:
            found = read_corrections(again, read) or wishes(again, utterance)
            if found and remark_of is not None and not safe_to_drop(remark_of):
                found = []
            if found:
                break
        if found and said in framed:
            framed[said] = True
        if not found and unread is not None and not utterance.speaker and said not in framed:
            unread.extend(_for_meaning(sentence, asked, utterance.role))
        for cand in found:
            if cand.predicate in _ENDABLE and not cand.retract and _ENDED_AFTER.search(sentence):
                # "I started at Google in 2019 but left last year": the
                # sentence tells a tie and its end; nothing of it holds now.
                continue
            key = (cand.predicate, str(cand.value).lower(), cand.retract)
            if key not in seen:
                seen.add(key)
                out.append(cand)
    if unread is not None and not utterance.speaker:
        for said in (s for s, read_any in framed.items() if not read_any):
            unread.extend(
                _for_meaning(said, unwrapped(said) if said.endswith("?") else said, utterance.role)
            )
    # "adopted a cat… her name is miso": a name goes to the noun it names.
    out = tied(text, out, utterance.speaker)
    # "bought a car, a used yaris": the model names the kind (``owned_model``).
    out = named_model(text, out)
    # "My daughter had her birthday. Turned 7": a dropped subject is the
    # turn's topic, which only the whole turn tells.
    out = [
        c
        for c in out
        if not (c.predicate == "age" and another_turned(c.evidence_span, text, RELATION_PREDICATES))
    ]
    # A wish about the agent's work asked of it is an instruction (``mood``).
    return [as_typed(by_mood(c), utterance.text) for c in merge_retractions(out)]


def as_typed(cand: Candidate, original: str) -> Candidate:
    """``cand`` read from the written-out text, its value and evidence in ``original``'s words."""
    value = as_said(cand.value, original) if isinstance(cand.value, str) else cand.value
    span = as_said(cand.evidence_span, original)
    if value is cand.value and span is cand.evidence_span:
        return cand
    return replace(cand, value=value, evidence_span=span)


def extract_payload(payload: dict[str, Any], unread: list[Unread] | None = None) -> list[Candidate]:
    return [c for u in utterances(payload) for c in extract_utterance(u, unread)]


def dated(candidates: list[Candidate], at: datetime) -> list[Candidate]:
    """Candidates with the moment their words say they began (``when``), read against ``at``."""
    out = []
    for cand in candidates:
        said = said_moment(cand.said_when, at) if cand.said_when else None
        out.append(
            replace(cand, valid_from=said.moment, valid_from_grain=said.grain)
            if said is not None
            else cand
        )
    return out
