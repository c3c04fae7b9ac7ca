"""Stage 3: drop candidates that must never become memory (pure).

Three reasons, counted separately in the job result:

- ``agent_command`` — the words are a command aimed at the agent ("ignore
  previous instructions", "you are now…", EN and FR): stored, they would be
  replayed into every future prompt;
- ``low_trust_instruction`` — an instruction-kind fact from an origin below
  ``semi_trusted``: only people we trust may tell the agent how to behave;
- ``echo`` — an agent-side turn restating a fact we just served: it is our
  own output coming back, not new evidence, and would reinforce itself.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..providers.extraction.types import SUBJECT_ROLES
from ..types import TRUST_ORDER
from .identity import value_key
from .predicates import normalise_predicate
from .types import Sourced

AGENT_COMMAND = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b.{0,30}\b(?:previous|prior|above|earlier|all|your|the)\b.{0,20}"
    r"\b(?:instructions?|prompts?|rules?|directives?)\b"
    r"|\byou are now\b|\bfrom now on,? you\b|\bact as (?:a|an|if)\b|\bnew instructions?:|\bsystem prompt\b"
    r"|\bjailbreak\b|\bdeveloper mode\b"
    r"|\bignore[rz]? (?:toutes? )?(?:les|tes|vos) (?:instructions|consignes|règles)\b"
    r"|\boublie[rz]? (?:tout|toutes? (?:les|tes|vos)|tes|vos) (?:instructions|consignes|règles)?"
    r"|\btu es (?:désormais|maintenant)\b|\bvous êtes (?:désormais|maintenant)\b"
    r"|\bà partir de maintenant,? (?:tu|vous)\b|\bnouvelles? (?:instructions|consignes) ?:",
    re.IGNORECASE,
)

AGENT_ACTORS = frozenset({"agent", "assistant", "system", "tool"})
MIN_INSTRUCTION_TRUST = TRUST_ORDER["semi_trusted"]


@dataclass(frozen=True, slots=True)
class Guarded:
    accepted: list[Sourced]
    rejected: dict[str, int] = field(default_factory=dict)


def served_key(predicate: str, value: object) -> tuple[str, str]:
    return normalise_predicate(predicate), value_key(value)


def _reason(item: Sourced, served: frozenset[tuple[str, str]]) -> str | None:
    cand, event = item.candidate, item.event
    if AGENT_COMMAND.search(f"{cand.value} {cand.evidence_span}"):
        return "agent_command"
    if (
        cand.fact_kind == "instruction"
        and TRUST_ORDER.get(event.origin_trust, 0) < MIN_INSTRUCTION_TRUST
    ):
        return "low_trust_instruction"
    from_agent = cand.role not in SUBJECT_ROLES or (event.actor_type or "") in AGENT_ACTORS
    if from_agent and served_key(cand.predicate, cand.value) in served:
        return "echo"
    return None


def guard(items: Sequence[Sourced], served: Iterable[tuple[str, str]] = ()) -> Guarded:
    """Split candidates into accepted ones and rejection counts by reason."""
    served_set = frozenset(served)
    accepted: list[Sourced] = []
    rejected: Counter[str] = Counter()
    for item in items:
        reason = _reason(item, served_set)
        if reason is None:
            accepted.append(item)
        else:
            rejected[reason] += 1
    return Guarded(accepted=accepted, rejected=dict(sorted(rejected.items())))
