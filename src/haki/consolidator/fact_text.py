"""How a fact reads (pure): the sentence people would say, and the text it is embedded as.

A fact stored as ``home_city = Lyon`` is found by questions such as "Where
does Maya live?". Embedded as ``lives in: Lyon`` it sat as far from that
question as from unrelated ones, so a recall floor dropped it. Each fact
therefore reads as a sentence: "Maya lives in Lyon." with the speaker's
name when the fact carries one, else the subject's first name when the
subject said it (its active ``name`` fact), else "The user lives in Lyon.".
That sentence is ``search_text`` (full-text search, and the packet's text).
Its embedding text puts in front the question the predicate answers, in
English and French, since people ask about a fact far more often than they
restate it (bench/data/fact_questions.json measures it, through
``scripts/check_recall_floor.py --facts``).

``haki facts reembed`` rewrites facts stored with an older rendering
(consolidator/reembed.py).
"""

from __future__ import annotations

import json
from typing import Any

from ..types import VALID_FROM_GRAIN
from .predicates import spec

# predicate -> (sentence with {s} subject / {p} possessive / {v} value,
#               English question, French question)
TEMPLATES: dict[str, tuple[str, str, str]] = {
    "name": ("{p} name is {v}", "What is the user's name?", "Comment s'appelle-t-il ?"),
    "home_city": ("{s} lives in {v}", "Where does the user live?", "Où habite-t-il ?"),
    "hometown": (
        "{s} is from {v}",
        "Where is the user from, where did they grow up?",
        "D'où vient-il ?",
    ),
    "occupation": ("{s} works as {a}{v}", "What is the user's job?", "Quel est son métier ?"),
    "employer": ("{s} works at {v}", "Who does the user work for?", "Pour qui travaille-t-il ?"),
    "age": ("{s} is {v} years old", "How old is the user?", "Quel âge a-t-il ?"),
    "email": ("{p} email address is {v}", "What is the user's email?", "Quel est son e-mail ?"),
    "phone": (
        "{p} phone number is {v}",
        "What is the user's phone number?",
        "Quel est son numéro ?",
    ),
    "relationship_status": (
        "{s} is {v}",
        "Is the user single, in a relationship, engaged or married?",
        "Est-il célibataire ou en couple ?",
    ),
    "spouse": ("{s} is married to {v}", "Who is the user married to?", "Avec qui est-il marié ?"),
    "partner": ("{p} partner is {v}", "Who is the user's partner?", "Qui partage sa vie ?"),
    "mother": ("{p} mother is {v}", "Who is the user's mother?", "Qui est sa mère ?"),
    "father": ("{p} father is {v}", "Who is the user's father?", "Qui est son père ?"),
    "sister": ("{p} sister is {v}", "Who is the user's sister?", "Qui est sa sœur ?"),
    "brother": ("{p} brother is {v}", "Who is the user's brother?", "Qui est son frère ?"),
    "son": ("{p} son is {v}", "Who is the user's son, their child?", "Qui est son fils ?"),
    "daughter": (
        "{p} daughter is {v}",
        "Who is the user's daughter, their child?",
        "Qui est sa fille ?",
    ),
    "friend": ("{p} friend is {v}", "Who is the user's friend?", "Qui est son ami ?"),
    "pet": ("{s} has a pet {k}{v}", "Does the user have a pet?", "A-t-il un animal ?"),
    "likes": ("{s} likes {v}", "What does the user like?", "Qu'aime-t-il ?"),
    "dislikes": ("{s} dislikes {v}", "What does the user dislike?", "Qu'est-ce qu'il n'aime pas ?"),
    "prefers": ("{s} prefers {v}", "What does the user prefer?", "Que préfère-t-il ?"),
    "plays": ("{s} plays {v}", "What does the user play?", "À quoi joue-t-il ?"),
    "hobby": ("{p} hobby is {v}", "What are the user's hobbies?", "Quels sont ses loisirs ?"),
    "learning": ("{s} is learning {v}", "What is the user learning?", "Qu'apprend-il ?"),
    "allergy": (
        "{s} is allergic to {v}",
        "Is the user allergic to anything?",
        "A-t-il des allergies ?",
    ),
    "member_of": (
        "{s} is a member of {v}",
        "Is the user a member of a club?",
        "Est-il membre d'un club ?",
    ),
    "volunteers_at": (
        "{s} volunteers at {v}",
        "Where does the user volunteer?",
        "Où est-il bénévole ?",
    ),
    "decision": ("{s} decided to {v}", "What did the user decide?", "Qu'a-t-il décidé ?"),
    "convention": ("{p} rule: {v}", "What rule should I follow?", "Quelle règle suivre ?"),
    "code_convention": (
        "{p} code convention: {v}",
        "How should the user's code be written, formatted or indented?",
        "Quelle convention de code suivre ?",
    ),
    "units": (
        "{s} uses {v} units",
        "Which units of measure does the user want, metric or imperial?",
        "Quelles unités utiliser ?",
    ),
    "schedule": (
        "{p} schedule rule: {v}",
        "When can the user have meetings or calls?",
        "Quand peut-on lui fixer un rendez-vous ?",
    ),
    "diet": ("{s} is {v}", "What does the user eat, what is their diet?", "Que mange-t-il ?"),
    "language": (
        "{s} prefers to be answered in {v}",
        "Which language does the user want replies in?",
        "En quelle langue lui répondre ?",
    ),
    "plan": ("{s} plans to {v}", "What is the user planning?", "Que prévoit-il ?"),
}

# Qualifiers the sentence already says; the others are appended (``kind``
# is said by the pet sentence only). The grain of ``valid_from`` is about the
# fact's time, not its meaning: it stays out of the searched sentence.
SPOKEN = frozenset({"speaker", "when", VALID_FROM_GRAIN})


def _shown(value: Any) -> str:
    return (
        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    )


def _head(predicate: str) -> str:
    """What a predicate without its own template is about: ``favorite_color`` -> ``color``."""
    return spec(predicate).readable.removeprefix("favorite ")


def _template(predicate: str) -> tuple[str, str, str]:
    """The sentence template and the two questions of a predicate.

    A predicate is the caller's text: it reaches a sentence as the ``{h}``
    argument, never inside the template, so braces in it (``x{}``,
    ``{v:>5000000}``) are read as characters, not as format fields.
    """
    if predicate in TEMPLATES:
        return TEMPLATES[predicate]
    head = _head(predicate)
    if spec(predicate).readable.startswith("favorite "):
        return (
            "{p} favorite {h} is {v}",
            f"What is the user's favorite {head}?",
            f"Quel est son {head} préféré ?",
        )
    return "{p} {h} is {v}", f"What is the user's {head}?", f"Quel est son {head} ?"


def first_name(value: Any) -> str | None:
    """The first name in a ``name`` fact's value, if it reads like one."""
    if not isinstance(value, str) or not value.strip():
        return None
    word = value.split()[0].strip(",.")
    return word if word[:1].isupper() else None


def fact_sentence(
    predicate: str, value: Any, qualifiers: dict[str, Any], subject_name: str | None = None
) -> str:
    """The fact as people say it: "Maya lives in Lyon.", "The user works as a midwife."."""
    shown = _shown(value)
    speaker = qualifiers.get("speaker")
    named = subject_name if predicate != "name" else None
    subject = str(speaker) if speaker else (named or "The user")
    kind = qualifiers.get("kind")
    article = (
        ""
        if shown.lower().startswith(("a ", "an ", "the "))
        else ("an " if shown[:1].lower() in "aeiou" else "a ")
    )
    text = _template(predicate)[0].format(
        s=subject,
        p=f"{subject}'s",
        v=shown,
        a=article,
        k=f"{kind} named " if kind and kind != shown else "",
        h=_head(predicate),
    )
    if qualifiers.get("when"):
        text += f" {qualifiers['when']}"
    said = SPOKEN | {"kind"} if predicate == "pet" else SPOKEN
    extra = [f"{k}: {_shown(qualifiers[k])}" for k in sorted(qualifiers) if k not in said]
    return f"{text} ({', '.join(extra)})." if extra else f"{text}."


def fact_embedding_text(
    predicate: str, value: Any, qualifiers: dict[str, Any], subject_name: str | None = None
) -> str:
    """The questions the fact answers (English, French), then its sentence."""
    _, english, french = _template(predicate)
    return f"{english} {french} {fact_sentence(predicate, value, qualifiers, subject_name)}"
