"""The predicate vocabulary: what a predicate means for identity resolution.

A *single-valued* predicate holds one value at a time per identity (home
city, employer): a new value replaces the old one. A *multi-valued*
predicate may hold many (likes, sister): its value is part of the identity,
so a second sister never supersedes the first. Predicates of one *family*
share an identity; ``likes`` and ``dislikes`` of the same thing are the same
fact with a changed value, so "I hate sushi" supersedes "I love sushi".

Unknown predicates (from an LLM extractor) are single-valued and form their
own family.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Cardinality = Literal["one", "many"]


@dataclass(frozen=True, slots=True)
class PredicateSpec:
    name: str
    cardinality: Cardinality = "one"
    family: str = ""
    label: str = ""

    @property
    def identity_family(self) -> str:
        return self.family or self.name

    @property
    def readable(self) -> str:
        return self.label or self.name.replace("_", " ")


_SPECS = [
    PredicateSpec("name"),
    PredicateSpec("home_city", label="lives in"),
    PredicateSpec("hometown", label="is from"),
    PredicateSpec("occupation"),
    PredicateSpec("employer", label="works at"),
    PredicateSpec("age"),
    PredicateSpec("email", label="email address"),
    PredicateSpec("phone", label="phone number"),
    PredicateSpec("relationship_status", label="relationship status"),
    PredicateSpec("diet"),
    PredicateSpec("language", label="preferred language"),
    PredicateSpec("spouse"),
    PredicateSpec("partner"),
    PredicateSpec("mother"),
    PredicateSpec("father"),
    PredicateSpec("sister", "many"),
    PredicateSpec("brother", "many"),
    PredicateSpec("son", "many"),
    PredicateSpec("daughter", "many"),
    PredicateSpec("friend", "many"),
    PredicateSpec("pet", "many"),
    PredicateSpec("likes", "many", family="preference"),
    PredicateSpec("dislikes", "many", family="preference"),
    PredicateSpec("prefers", "many"),
    PredicateSpec("plays", "many"),
    PredicateSpec("hobby", "many"),
    PredicateSpec("learning", "many"),
    PredicateSpec("allergy", "many", label="allergic to"),
    PredicateSpec("member_of", "many", label="member of"),
    PredicateSpec("volunteers_at", "many", label="volunteers at"),
    PredicateSpec("decision", "many"),
    PredicateSpec("convention", "many"),
    PredicateSpec("code_convention", label="code convention"),
    PredicateSpec("units", label="units of measure"),
    PredicateSpec("schedule", "many"),
    PredicateSpec("plan", "many"),
]
SPECS: dict[str, PredicateSpec] = {s.name: s for s in _SPECS}

# Spelling variants an extractor (or a client) may use for a known predicate.
BUILTIN_ALIASES: dict[str, str] = {
    "city": "home_city",
    "lives_in": "home_city",
    "location": "home_city",
    "residence": "home_city",
    "job": "occupation",
    "profession": "occupation",
    "job_title": "occupation",
    "works_at": "employer",
    "company": "employer",
    "wife": "spouse",
    "husband": "spouse",
    "boyfriend": "partner",
    "girlfriend": "partner",
    "mom": "mother",
    "dad": "father",
    "loves": "likes",
    "enjoys": "likes",
    "hates": "dislikes",
    "origin": "hometown",
}

# Qualifier keys that separate identities: Caroline's occupation and
# Melanie's are two facts. Other qualifiers (``when``, ``note``) describe a
# fact without splitting it.
IDENTITY_QUALIFIERS = ("speaker", "person", "entity", "context")


def normalise_predicate(predicate: str) -> str:
    key = "_".join(predicate.strip().lower().replace("-", " ").replace(".", " ").split())
    return BUILTIN_ALIASES.get(key, key)


def spec(predicate: str) -> PredicateSpec:
    return SPECS.get(predicate) or PredicateSpec(predicate)
