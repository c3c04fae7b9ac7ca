"""Stage 4b + 5: apply identity decisions to one subject's facts, then embed new facts.

Runs under ``pg_advisory_xact_lock`` on ``project_id/subject_id`` so two
workers never resolve the same subject at once; the lock ends with the job's
transaction. Status changes of existing facts go through
``ledger.transitions.set_status`` (legal transitions, version bump).
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from ..ledger.transitions import set_status
from ..providers.embed import Embedder
from ..providers.extraction.types import Candidate, EventRow
from ..storage import Connection
from ..storage.locks import lock_subject
from ..types import VALID_FROM_GRAIN
from .embedding import embed_texts
from .fact_text import fact_embedding_text, first_name
from .identity import (
    Action,
    FactView,
    IdentityKey,
    Newcomer,
    is_replay,
    resolve,
    search_text,
    value_key,
)
from .predicates import spec
from .quarantine_reasons import threat_reason
from .stages import stage
from .types import Sourced

# Every status, disabled and deleted included: a replayed job must recognise
# the facts its events produced even after someone disabled them, or it
# would bring a forgotten fact back.
HELD_FACTS = """
SELECT id, predicate, value, qualifiers, status, valid_from, origin_trust, source_event_ids, version
FROM facts
WHERE project_id = %(project_id)s AND subject_id = %(subject_id)s
ORDER BY recorded_from, id"""

INSERT_FACT = """
INSERT INTO facts
    (id, org_id, project_id, subject_type, subject_id, predicate, value, qualifiers, status, confidence,
     valid_from, valid_to, supersedes_id, source_event_ids, fact_kind, volatility, origin_trust,
     evidence_span, search_text, asserted_by)
VALUES
    (%(id)s, %(org_id)s, %(project_id)s, %(subject_type)s, %(subject_id)s, %(predicate)s, %(value)s,
     %(qualifiers)s, %(status)s, %(confidence)s, %(valid_from)s, %(valid_to)s, %(supersedes_id)s,
     %(source_event_ids)s, %(fact_kind)s, %(volatility)s, %(origin_trust)s, %(evidence_span)s,
     %(search_text)s, %(asserted_by)s)"""

REINFORCE = """
UPDATE facts SET
    reinforcement_count = reinforcement_count + 1,
    last_reinforced_at = greatest(last_reinforced_at, %(at)s),
    source_event_ids = array_append(source_event_ids, %(event_id)s),
    confidence = greatest(confidence, %(confidence)s),
    updated_at = now()
WHERE id = %(id)s AND project_id = %(project_id)s"""

EXTEND_CONTRADICTION = """
UPDATE conflict_sets SET fact_ids = array_append(fact_ids, %(fact_id)s)
WHERE id = (
    SELECT id FROM conflict_sets
    WHERE project_id = %(project_id)s AND status = 'open' AND kind = 'contradiction'
      AND %(incumbent_id)s = ANY(fact_ids)
    ORDER BY created_at, id LIMIT 1)
RETURNING id"""

INSERT_CONFLICT = """
INSERT INTO conflict_sets (org_id, project_id, subject_type, subject_id, fact_ids, kind, reason)
VALUES (%(org_id)s, %(project_id)s, %(subject_type)s, %(subject_id)s, %(fact_ids)s, %(kind)s, %(reason)s)"""

SET_FACT_EMBEDDING = (
    "UPDATE facts SET embedding = %(embedding)s WHERE id = %(id)s AND project_id = %(project_id)s"
)

# Insert status per action that creates a fact.
NEW_STATUS: dict[Action, str] = {
    "insert": "active",
    "supersede": "active",
    "contradiction": "candidate",
    "quarantine": "candidate",
    "historical": "superseded",
}


@dataclass(frozen=True, slots=True)
class Item:
    """A guarded candidate with its canonical predicate (and the threat that quarantines it)."""

    sourced: Sourced
    predicate: str
    threat: str | None = None

    def newcomer(self) -> Newcomer:
        cand, event = self.sourced.candidate, self.sourced.event
        return Newcomer(
            self.predicate,
            cand.value,
            cand.qualifiers,
            event.id,
            event.occurred_at,
            event.origin_trust,
        )


@dataclass(frozen=True, slots=True)
class NewFact:
    id: UUID
    project_id: str
    embedding_text: str

    @classmethod
    def of(
        cls,
        fact_id: UUID,
        project_id: str,
        predicate: str,
        value: Any,
        qualifiers: dict[str, Any],
        subject_name: str | None = None,
    ) -> NewFact:
        text = fact_embedding_text(predicate, value, qualifiers, subject_name)
        return cls(fact_id, project_id, text)


class _Subject:
    """The facts of one subject while a job applies to them."""

    def __init__(self, held: list[FactView]):
        self.held = held
        self.active: dict[IdentityKey, FactView] = {}
        for fact in sorted(
            held, key=lambda f: (f.valid_from or datetime.min.replace(tzinfo=UTC), str(f.id))
        ):
            if fact.status == "active":
                self.active[fact.key] = fact

    def record(self, fact: FactView) -> None:
        self.held = [f for f in self.held if f.id != fact.id] + [fact]
        if fact.status == "active":
            self.active[fact.key] = fact
        elif (current := self.active.get(fact.key)) is not None and current.id == fact.id:
            del self.active[fact.key]

    @property
    def name(self) -> str | None:
        """The subject's first name, once it said it (fact_text names it)."""
        own = [
            f
            for f in self.active.values()
            if f.predicate == "name" and "speaker" not in f.qualifiers
        ]
        return first_name(own[-1].value) if own else None


def stored_qualifiers(cand: Candidate) -> dict[str, Any]:
    """The candidate's qualifiers, with the grain its time words gave ``valid_from`` if any."""
    if cand.valid_from is None or cand.valid_from_grain is None:
        return cand.qualifiers
    return {**cand.qualifiers, VALID_FROM_GRAIN: cand.valid_from_grain}


async def _insert(
    conn: Connection,
    item: Item,
    status: str,
    *,
    supersedes: UUID | None = None,
    valid_to: datetime | None = None,
    subject_name: str | None = None,
) -> FactView:
    cand, event = item.sourced.candidate, item.sourced.event
    fact_id = uuid.uuid4()
    await conn.execute(
        INSERT_FACT,
        {
            "id": fact_id,
            "org_id": event.org_id,
            "project_id": event.project_id,
            "subject_type": event.subject_type,
            "subject_id": event.subject_id,
            "predicate": item.predicate,
            "value": Jsonb(cand.value),
            "qualifiers": Jsonb(stored_qualifiers(cand)),
            "status": status,
            "confidence": cand.confidence,
            "valid_from": cand.valid_from or event.occurred_at,
            "valid_to": valid_to,
            "supersedes_id": supersedes,
            "source_event_ids": [event.id],
            "fact_kind": cand.fact_kind,
            "volatility": cand.volatility,
            "origin_trust": event.origin_trust,
            "evidence_span": cand.evidence_span or None,
            "search_text": search_text(item.predicate, cand.value, cand.qualifiers, subject_name),
            "asserted_by": None,
        },
    )
    return FactView(
        fact_id,
        item.predicate,
        cand.value,
        cand.qualifiers,
        status,
        cand.valid_from or event.occurred_at,
        event.origin_trust,
        (event.id,),
    )


async def _open_conflict(
    conn: Connection, item: Item, kind: str, fact_ids: list[UUID], reason: str
) -> None:
    event = item.sourced.event
    await conn.execute(
        INSERT_CONFLICT,
        {
            "org_id": event.org_id,
            "project_id": event.project_id,
            "subject_type": event.subject_type,
            "subject_id": event.subject_id,
            "fact_ids": fact_ids,
            "kind": kind,
            "reason": reason,
        },
    )


async def _execute(
    conn: Connection, item: Item, action: Action, incumbent: FactView | None, subject: _Subject
) -> FactView | None:
    """Carry out one action; return the fact it created, if any."""
    event = item.sourced.event
    project_id = event.project_id
    if action == "reinforce":
        assert incumbent is not None
        await conn.execute(
            REINFORCE,
            {
                "id": incumbent.id,
                "project_id": project_id,
                "at": event.occurred_at,
                "event_id": event.id,
                "confidence": item.sourced.candidate.confidence,
            },
        )
        subject.record(replace(incumbent, source_event_ids=(*incumbent.source_event_ids, event.id)))
        return None
    if action == "ignore":
        return None
    if action in ("supersede", "retract"):
        assert incumbent is not None
        cand = item.sourced.candidate
        why = "retracted" if action == "retract" else "corrected" if cand.corrects else None
        # The old value held until the new one began: when the sentence
        # says so ("I moved to Lyon last month"), then; else at the event.
        began = item.sourced.candidate.valid_from
        if began is None or (incumbent.valid_from is not None and began <= incumbent.valid_from):
            began = event.occurred_at
        await set_status(
            conn,
            project_id=project_id,
            fact_id=incumbent.id,
            status="superseded",
            valid_to=began,
            reason=f"{why} by event {event.id}: {cand.evidence_span[:200]}" if why else None,
        )
        subject.record(replace(incumbent, status="superseded"))
        if action == "retract":
            return None
    valid_to = incumbent.valid_from if action == "historical" and incumbent else None
    created = await _insert(
        conn,
        item,
        NEW_STATUS[action],
        supersedes=incumbent.id if action == "supersede" and incumbent else None,
        valid_to=valid_to,
        subject_name=subject.name,
    )
    subject.record(created)
    if action == "contradiction":
        assert incumbent is not None
        cur = await conn.execute(
            EXTEND_CONTRADICTION,
            {"project_id": project_id, "incumbent_id": incumbent.id, "fact_id": created.id},
        )
        if await cur.fetchone() is None:
            await _open_conflict(
                conn,
                item,
                "contradiction",
                [incumbent.id, created.id],
                f"{item.predicate}: two values at the same time",
            )
    elif action == "quarantine":
        why = (
            threat_reason(item.threat)
            if item.threat
            else f"untrusted origin ({event.origin_trust})"
            if incumbent is None or event.origin_trust == "untrusted"
            else f"{event.origin_trust} source contradicts {incumbent.origin_trust} fact {incumbent.id}"
        )
        await _open_conflict(conn, item, "quarantine", [created.id], why)
    return created


@dataclass(slots=True)
class Applied:
    """What applying one subject's items did."""

    counts: Counter[str]
    created: list[NewFact]
    corrected: set[UUID]  # events whose candidates superseded or retracted a fact


async def apply_subject(
    conn: Connection, project_id: str, subject_id: str, items: Sequence[Item]
) -> Applied:
    """Resolve and apply one subject's items in order; count actions; list created facts."""
    await lock_subject(conn, project_id, subject_id)
    cur = await conn.execute(HELD_FACTS, {"project_id": project_id, "subject_id": subject_id})
    subject = _Subject(
        [
            FactView(**{**row, "source_event_ids": tuple(row["source_event_ids"])})
            for row in await cur.fetchall()
        ]
    )
    counts: Counter[str] = Counter()
    created: list[NewFact] = []
    corrected: set[UUID] = set()
    for item in items:
        new = item.newcomer()
        cand = item.sourced.candidate
        if is_replay(new, subject.held):
            counts["replay"] += 1
            continue
        if item.threat:
            action: Action = "quarantine"
            incumbent = subject.active.get(new.key)
        else:
            with stage("identity"):
                resolution = resolve(
                    new, subject.active, corrects=cand.corrects, retract=cand.retract
                )
            action, incumbent = resolution.action, resolution.incumbent
            if resolution.newcomer is not new:
                item = replace(
                    item,
                    sourced=Sourced(
                        replace(cand, qualifiers=resolution.newcomer.qualifiers),
                        item.sourced.event,
                    ),
                )
        counts[action] += 1
        if action in ("supersede", "retract"):
            corrected.add(item.sourced.event.id)
        fact = await _execute(conn, item, action, incumbent, subject)
        if fact is not None:
            created.append(
                NewFact.of(
                    fact.id, project_id, fact.predicate, fact.value, fact.qualifiers, subject.name
                )
            )
    return Applied(counts, created, corrected)


LINK_SUPERSEDED = """
UPDATE facts SET supersedes_id = %(old)s, updated_at = now()
WHERE id = %(id)s AND project_id = %(project_id)s AND supersedes_id IS NULL"""

HELD_KIND = """
SELECT fact_kind, volatility, confidence FROM facts WHERE id = %(id)s AND project_id = %(project_id)s"""


async def supersede_held(
    conn: Connection, event: EventRow, incumbent_id: UUID, value: Any, evidence: str
) -> tuple[bool, NewFact | None]:
    """Replace an active fact's value with one a later turn gives (``corrections``).

    The new fact keeps the old one's predicate, identity qualifiers, kind
    and volatility. Returns whether the fact was replaced (not when it is
    no longer active) and the fact created to replace it, if one was.
    """
    project_id, subject_id = event.project_id, event.subject_id
    await lock_subject(conn, project_id, subject_id)
    cur = await conn.execute(HELD_FACTS, {"project_id": project_id, "subject_id": subject_id})
    subject = _Subject(
        [
            FactView(**{**row, "source_event_ids": tuple(row["source_event_ids"])})
            for row in await cur.fetchall()
        ]
    )
    incumbent = next(
        (f for f in subject.held if f.id == incumbent_id and f.status == "active"), None
    )
    cur = await conn.execute(HELD_KIND, {"id": incumbent_id, "project_id": project_id})
    kind = await cur.fetchone()
    if incumbent is None or kind is None:
        return False, None
    family = spec(incumbent.predicate).identity_family
    twin = next(
        (
            f
            for f in subject.held
            if f.status == "active"
            and event.id in f.source_event_ids
            and spec(f.predicate).identity_family == family
            and value_key(f.value) == value_key(value)
        ),
        None,
    )
    if twin is not None:
        # The rules already read the new value in this turn, beside the old
        # one (a second pet of the kind): the old one ends, the new one
        # records what it replaced.
        await set_status(
            conn,
            project_id=project_id,
            fact_id=incumbent.id,
            status="superseded",
            valid_to=event.occurred_at,
            reason=f"corrected by event {event.id}: {evidence[:200]}",
        )
        await conn.execute(
            LINK_SUPERSEDED, {"id": twin.id, "old": incumbent.id, "project_id": project_id}
        )
        return True, None
    # The new value holds from this turn: the old one's grain is not its own.
    kept = {k: v for k, v in incumbent.qualifiers.items() if k != VALID_FROM_GRAIN}
    cand = Candidate(
        incumbent.predicate,
        value,
        kept,
        fact_kind=kind["fact_kind"],
        volatility=kind["volatility"],
        confidence=kind["confidence"],
        evidence_span=evidence[:300],
        corrects=incumbent.value,
    )
    item = Item(Sourced(cand, event), incumbent.predicate)
    created = await _execute(conn, item, "supersede", incumbent, subject)
    if created is None:
        return True, None
    return True, NewFact.of(
        created.id, project_id, created.predicate, created.value, created.qualifiers, subject.name
    )


async def embed_facts(conn: Connection, embedder: Embedder, facts: Sequence[NewFact]) -> None:
    """Stage 5: one embedding batch for every fact the job created."""
    if not facts:
        return
    vectors = await embed_texts(embedder, [f.embedding_text for f in facts])
    async with conn.cursor() as cur:
        await cur.executemany(
            SET_FACT_EMBEDDING,
            [
                {"id": f.id, "project_id": f.project_id, "embedding": vectors[i]}
                for i, f in enumerate(facts)
            ],
        )
