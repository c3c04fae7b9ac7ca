"""Facts people write: assert one, or correct one, through the API.

A person's word is a trusted source, named in ``asserted_by`` (the API key
id, ``admin`` or ``dev``); such a fact has no source event. Both paths run
under the subject's advisory lock, like consolidation, so a job never
resolves the subject half-way through a manual change.

*Assert* goes through identity resolution like an extracted fact, with the
person winning every tie: the same value changes nothing, a new value
supersedes the active fact of its identity from ``valid_from`` (default now),
and a value dated before the incumbent is kept as history.

*Correct* replaces one given fact: the correction is a new version
(``supersedes_id`` points to the old one) and the old one is superseded
with ``valid_to`` = the correction's ``valid_from``. That defaults to the
time of the correction: the record then says what was held true until the
person corrected it and what is held true since, and never makes the new
value true before anyone said it (nor gives the old version an empty
validity, ``valid_from`` = ``valid_to``). A caller who knows the day the
value changed passes ``valid_from`` (not before the old one's).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID

from psycopg.types.json import Jsonb

from ..errors import IllegalStatusTransition, InvalidPayload, NotFound
from ..ledger.transitions import ALLOWED, set_status
from ..providers.embed import Embedder
from ..storage import Connection
from ..storage.locks import lock_subject
from .aliases import canonical_predicates
from .apply import HELD_FACTS, INSERT_FACT, NewFact, embed_facts
from .identity import FactView, compared_value, identity_key, search_text
from .reembed import rerender_subject, subject_name

AssertAction = Literal["insert", "supersede", "historical", "unchanged"]

FACT_TO_CORRECT = """
SELECT id, org_id, subject_type, subject_id, predicate, value, qualifiers, status, valid_from,
       fact_kind, volatility
FROM facts WHERE id = %(id)s AND project_id = %(project_id)s"""

# Statuses a correction may replace: those the lifecycle lets become superseded.
CORRECTABLE = sorted(status for status, targets in ALLOWED.items() if "superseded" in targets)


@dataclass(frozen=True, slots=True)
class Assertion:
    """A fact as a person states it."""

    project_id: str
    subject_id: str
    predicate: str
    value: Any
    asserted_by: str
    qualifiers: dict[str, Any] = field(default_factory=dict)
    subject_type: str = "user"
    org_id: str = "default"
    fact_kind: str = "attribute"
    volatility: str = "stable"
    confidence: float = 1.0
    valid_from: datetime | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Correction:
    """A new value (and/or qualifiers) for one fact."""

    asserted_by: str
    value: Any = None
    has_value: bool = False
    qualifiers: dict[str, Any] | None = None
    valid_from: datetime | None = None
    expected_version: int | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Written:
    """The fact a manual write leaves in force, and what it did."""

    fact_id: UUID
    action: str
    superseded: tuple[UUID, ...] = ()


def _aware(moment: datetime | None, name: str) -> None:
    if moment is not None and moment.utcoffset() is None:
        raise InvalidPayload(
            f"{name} must carry a timezone offset, e.g. 2026-01-31T09:00:00Z", field=name
        )


async def _insert(
    conn: Connection,
    embedder: Embedder,
    a: Assertion,
    predicate: str,
    *,
    status: str,
    valid_from: datetime,
    valid_to: datetime | None = None,
    supersedes: UUID | None = None,
) -> UUID:
    fact_id = uuid.uuid4()
    name = await subject_name(conn, a.project_id, a.subject_id)
    text = search_text(predicate, a.value, a.qualifiers, name)
    await conn.execute(
        INSERT_FACT,
        {
            "id": fact_id,
            "org_id": a.org_id,
            "project_id": a.project_id,
            "subject_type": a.subject_type,
            "subject_id": a.subject_id,
            "predicate": predicate,
            "value": Jsonb(a.value),
            "qualifiers": Jsonb(a.qualifiers),
            "status": status,
            "confidence": a.confidence,
            "valid_from": valid_from,
            "valid_to": valid_to,
            "supersedes_id": supersedes,
            "source_event_ids": [],
            "fact_kind": a.fact_kind,
            "volatility": a.volatility,
            "origin_trust": "trusted",
            "evidence_span": None,
            "search_text": text,
            "asserted_by": a.asserted_by,
        },
    )
    await embed_facts(
        conn, embedder, [NewFact.of(fact_id, a.project_id, predicate, a.value, a.qualifiers, name)]
    )
    if predicate == "name":
        await rerender_subject(conn, embedder, a.project_id, a.subject_id)
    return fact_id


async def _incumbent(conn: Connection, a: Assertion, predicate: str) -> FactView | None:
    """The active fact of the assertion's identity, the latest if several."""
    cur = await conn.execute(HELD_FACTS, {"project_id": a.project_id, "subject_id": a.subject_id})
    key = identity_key(predicate, a.value, a.qualifiers)
    floor = datetime.min.replace(tzinfo=UTC)
    active = [
        FactView(**{**row, "source_event_ids": tuple(row["source_event_ids"])})
        for row in await cur.fetchall()
        if row["status"] == "active"
    ]
    same = [f for f in active if f.key == key]
    return max(same, key=lambda f: (f.valid_from or floor, str(f.id)), default=None)


async def assert_fact(conn: Connection, embedder: Embedder, a: Assertion) -> Written:
    """Write a person's fact through identity resolution (see module doc)."""
    _aware(a.valid_from, "valid_from")
    await lock_subject(conn, a.project_id, a.subject_id)
    predicate = (await canonical_predicates(conn, embedder, a.project_id, [a.predicate]))[
        a.predicate
    ]
    valid_from = a.valid_from or datetime.now(UTC)
    incumbent = await _incumbent(conn, a, predicate)
    if incumbent is None:
        fact_id = await _insert(
            conn, embedder, a, predicate, status="active", valid_from=valid_from
        )
        return Written(fact_id, "insert")
    if compared_value(incumbent.predicate, incumbent.value) == compared_value(predicate, a.value):
        return Written(incumbent.id, "unchanged")
    if incumbent.valid_from is not None and valid_from < incumbent.valid_from:
        fact_id = await _insert(
            conn,
            embedder,
            a,
            predicate,
            status="superseded",
            valid_from=valid_from,
            valid_to=incumbent.valid_from,
        )
        return Written(fact_id, "historical")
    await set_status(
        conn,
        project_id=a.project_id,
        fact_id=incumbent.id,
        status="superseded",
        valid_to=valid_from,
        reason=a.reason or f"superseded by a fact asserted by {a.asserted_by}",
    )
    fact_id = await _insert(
        conn,
        embedder,
        a,
        predicate,
        status="active",
        valid_from=valid_from,
        supersedes=incumbent.id,
    )
    return Written(fact_id, "supersede", (incumbent.id,))


async def correct_fact(
    conn: Connection, embedder: Embedder, *, project_id: str, fact_id: UUID, c: Correction
) -> Written:
    """Replace one fact by a corrected version (see module doc)."""
    _aware(c.valid_from, "valid_from")
    cur = await conn.execute(FACT_TO_CORRECT, {"id": fact_id, "project_id": project_id})
    old = await cur.fetchone()
    if old is None:
        raise NotFound("fact not found")
    await lock_subject(conn, project_id, old["subject_id"])
    if old["status"] not in CORRECTABLE:
        raise IllegalStatusTransition(
            f"a {old['status']} fact cannot be corrected; only {', '.join(CORRECTABLE)} facts can",
            field="status",
        )
    value = c.value if c.has_value else old["value"]
    qualifiers = c.qualifiers if c.qualifiers is not None else old["qualifiers"]
    if value == old["value"] and qualifiers == old["qualifiers"]:
        raise InvalidPayload("the correction changes neither value nor qualifiers", field="value")
    now = datetime.now(UTC)
    valid_from = c.valid_from or max(now, old["valid_from"] or now)
    if old["valid_from"] is not None and valid_from < old["valid_from"]:
        raise InvalidPayload(
            "valid_from must not precede the corrected fact's valid_from "
            f"({old['valid_from'].isoformat()})",
            field="valid_from",
        )
    await set_status(
        conn,
        project_id=project_id,
        fact_id=fact_id,
        status="superseded",
        valid_to=valid_from,
        expected_version=c.expected_version,
        reason=c.reason or f"corrected by {c.asserted_by}",
    )
    a = Assertion(
        project_id=project_id,
        subject_id=old["subject_id"],
        predicate=old["predicate"],
        value=value,
        qualifiers=qualifiers,
        asserted_by=c.asserted_by,
        subject_type=old["subject_type"],
        org_id=old["org_id"],
        fact_kind=old["fact_kind"],
        volatility=old["volatility"],
    )
    new_id = await _insert(
        conn,
        embedder,
        a,
        old["predicate"],
        status="active",
        valid_from=valid_from,
        supersedes=fact_id,
    )
    return Written(new_id, "correct", (fact_id,))
