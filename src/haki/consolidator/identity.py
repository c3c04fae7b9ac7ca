"""Stage 4a: what a candidate means for the facts already held (pure).

Two facts have the same *identity* when they share the subject, the
predicate family and the identity qualifiers (and, for a multi-valued
predicate, the value). For one identity, ``decide`` compares the newcomer
with the active incumbent and returns one action:

============== ==========================================================
insert         no incumbent: the newcomer becomes active
reinforce      same value: count it and move ``last_reinforced_at``
supersede      new value from a strictly newer event: old → superseded
               (``valid_to`` = the new event's time), newcomer active
contradiction  new value, same ``occurred_at``: nothing orders them, a
               person must choose (``conflict_sets.kind = contradiction``)
quarantine     untrusted origin, or a lower-trust source contradicting a
               higher-trust fact (``conflict_sets.kind = quarantine``)
historical     new value from an *older* event arriving late: kept as
               already superseded, the incumbent stays
replay         this event already produced this fact: nothing changes
ignore         an untrusted source repeating a held value adds no evidence
retract        an explicit retraction ("I don't live in Oslo any more") of
               an active fact: it is superseded, ``valid_to`` set, no
               replacement
============== ==========================================================

``resolve`` adds explicit corrections on top of ``decide``: a candidate that
names the value it replaces ("Lyon, not Paris") targets the active fact of
that value in its predicate family, adopts that fact's identity qualifiers
(so "send them in English, not French" corrects the invoices' language) and
supersedes it even when both come from the same event.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from difflib import SequenceMatcher
from typing import Any, Literal
from uuid import UUID

from ..providers.extraction.types import HELD
from ..types import TRUST_ORDER
from .fact_text import fact_sentence
from .predicates import IDENTITY_QUALIFIERS, spec

Action = Literal[
    "insert",
    "reinforce",
    "supersede",
    "contradiction",
    "quarantine",
    "historical",
    "replay",
    "ignore",
    "retract",
]

IdentityKey = tuple[str, tuple[tuple[str, str], ...], str]

_ARTICLES = re.compile(r"^(?:the|a|an|my|le|la|les|l'|un|une|mon|ma|mes)\s+")
_PUNCT = re.compile(r"[^\w\s'-]+")


def value_key(value: Any) -> str:
    """A comparison form of a value: case, accents, articles and punctuation ignored."""
    if not isinstance(value, str):
        return json.dumps(value, sort_keys=True, ensure_ascii=False).lower()
    text = unicodedata.normalize("NFKD", value.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = " ".join(_PUNCT.sub(" ", text).split())
    return _ARTICLES.sub("", text)


def identity_key(predicate: str, value: Any, qualifiers: dict[str, Any]) -> IdentityKey:
    pspec = spec(predicate)
    ident = tuple(
        sorted((k, value_key(qualifiers[k])) for k in IDENTITY_QUALIFIERS if k in qualifiers)
    )
    return pspec.identity_family, ident, value_key(value) if pspec.cardinality == "many" else ""


def compared_value(predicate: str, value: Any) -> tuple[str, str]:
    """What must match for two facts of one identity to say the same thing."""
    return predicate, value_key(value)


@dataclass(frozen=True, slots=True)
class FactView:
    """An existing fact, as identity resolution sees it."""

    id: UUID
    predicate: str
    value: Any
    qualifiers: dict[str, Any]
    status: str
    valid_from: datetime | None
    origin_trust: str
    source_event_ids: tuple[UUID, ...]
    version: int = 1

    @property
    def key(self) -> IdentityKey:
        return identity_key(self.predicate, self.value, self.qualifiers)


@dataclass(frozen=True, slots=True)
class Newcomer:
    """A guarded candidate with its canonical predicate and its event's time and trust."""

    predicate: str
    value: Any
    qualifiers: dict[str, Any]
    event_id: UUID
    occurred_at: datetime
    origin_trust: str

    @property
    def key(self) -> IdentityKey:
        return identity_key(self.predicate, self.value, self.qualifiers)


def is_replay(new: Newcomer, held: list[FactView]) -> bool:
    """True when this event already produced this very fact (a replayed job)."""
    target = (new.key, compared_value(new.predicate, new.value))
    return any(
        new.event_id in f.source_event_ids
        and (f.key, compared_value(f.predicate, f.value)) == target
        for f in held
    )


def decide(new: Newcomer, incumbent: FactView | None) -> Action:
    """The action for a newcomer given the active fact of its identity (see module doc)."""
    trust = TRUST_ORDER.get(new.origin_trust, 0)
    same = incumbent is not None and compared_value(
        incumbent.predicate, incumbent.value
    ) == compared_value(new.predicate, new.value)
    if trust == TRUST_ORDER["untrusted"]:
        return "ignore" if same else "quarantine"
    if incumbent is None:
        return "insert"
    if same:
        return "reinforce"
    if trust < TRUST_ORDER.get(incumbent.origin_trust, 0):
        return "quarantine"
    if incumbent.valid_from is None or new.occurred_at > incumbent.valid_from:
        return "supersede"
    if new.occurred_at == incumbent.valid_from:
        return "contradiction"
    return "historical"


def correction_target(new: Newcomer, named: Any, active: Iterable[FactView]) -> FactView | None:
    """The active fact a correction names: same family and speaker, the named value (latest wins).

    ``HELD`` names no value: the one fact of the family (and of the same
    ``kind``, for a pet) held with another value than the newcomer's; none
    when there are several, since nothing says which one was wrong. A
    predicate that holds many values ("likes", "sister") gains one rather
    than losing the one held, unless the new value re-spells it ("Emma" →
    "Emmy") or a ``kind`` says which it replaces.
    """
    family = spec(new.predicate).identity_family
    speaker = new.qualifiers.get("speaker")
    if named is HELD:
        mine = value_key(new.value)
        kind = new.qualifiers.get("kind")
        many = kind is None and spec(new.predicate).cardinality == "many"
        held = [
            f
            for f in active
            if spec(f.predicate).identity_family == family
            and f.qualifiers.get("speaker") == speaker
            and value_key(f.value) != mine
            and (kind is None or f.qualifiers.get("kind") in (None, kind))
            and (not many or _respelled(value_key(f.value), mine))
        ]
        return held[0] if len(held) == 1 else None
    wanted = value_key(named)
    matches = [
        f
        for f in active
        if spec(f.predicate).identity_family == family
        and value_key(f.value) == wanted
        and f.qualifiers.get("speaker") == speaker
    ]
    return max(
        matches,
        key=lambda f: (f.valid_from or datetime.min.replace(tzinfo=UTC), str(f.id)),
        default=None,
    )


@dataclass(frozen=True, slots=True)
class Resolution:
    action: Action
    incumbent: FactView | None
    newcomer: Newcomer  # with the identity qualifiers of the fact it corrects


def resolve(
    new: Newcomer,
    active: Mapping[IdentityKey, FactView],
    *,
    corrects: Any = None,
    retract: bool = False,
) -> Resolution:
    """The action for a newcomer, explicit corrections and retractions included (see module doc)."""
    trust = TRUST_ORDER.get(new.origin_trust, 0)
    if retract:
        target = correction_target(new, new.value, active.values())
        if (
            target is None
            or trust == TRUST_ORDER["untrusted"]
            or trust < TRUST_ORDER.get(target.origin_trust, 0)
            # Said before the fact began: it cannot end it.
            or (target.valid_from is not None and new.occurred_at < target.valid_from)
        ):
            return Resolution("ignore", None, new)
        return Resolution("retract", target, new)
    if corrects is not None:
        target = correction_target(new, corrects, active.values())
        if target is not None:
            inherited = {
                k: target.qualifiers[k] for k in IDENTITY_QUALIFIERS if k in target.qualifiers
            }
            adopted = replace(new, qualifiers={**inherited, **new.qualifiers})
            action = decide(adopted, target)
            # The statement itself says which value came last.
            return Resolution("supersede" if action == "contradiction" else action, target, adopted)
    incumbent = active.get(new.key)
    return Resolution(decide(new, incumbent), incumbent, new)


def search_text(
    predicate: str, value: Any, qualifiers: dict[str, Any], subject_name: str | None = None
) -> str:
    """Readable text for full-text search and the packet: the fact's sentence (fact_text)."""
    return fact_sentence(predicate, value, qualifiers, subject_name)


def _respelled(old: str, new: str) -> bool:
    """Whether ``new`` reads as a corrected spelling of ``old`` (most characters shared)."""
    return SequenceMatcher(None, old, new, autojunk=False).ratio() >= 0.6
