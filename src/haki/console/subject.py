"""The views of one subject that combine several API answers: facts with their
history and sources, and a trace with the text of every item it decided on."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..client import AsyncHakiClient
from ..client.types import Decision, Event, Fact, Trace
from ..errors import InvalidPayload

CURRENT = ("active", "candidate", "disputed")


@dataclass(frozen=True, slots=True)
class FactLine:
    """A current fact, its past versions (newest first) and the events it came from."""

    fact: Fact
    history: list[Fact]
    sources: list[Event]


@dataclass(frozen=True, slots=True)
class ThenLine:
    """A fact true at the as-of date, with the status it had then."""

    fact: Fact
    status: str
    note: str = ""  # what became of it since, when that differs


@dataclass(frozen=True, slots=True)
class FactsView:
    current: list[FactLine]
    retired: list[Fact]
    as_of: datetime | None = None
    then: list[ThenLine] = field(default_factory=list)


def status_as_of(fact: Fact, as_of: datetime) -> ThenLine:
    """A superseded fact that was still valid at ``as_of`` was the active value then;
    any other status is shown as it stands (no history of those is kept by date)."""
    if fact.status == "superseded" and (fact.valid_to is None or fact.valid_to > as_of):
        since = f" since {fact.valid_to:%Y-%m-%d}" if fact.valid_to else ""
        return ThenLine(fact, "active", f"superseded{since}")
    return ThenLine(fact, fact.status)


def parse_day(text: str) -> datetime | None:
    """``YYYY-MM-DD`` (end of that day, UTC) or a full ISO time; empty: None."""
    if not text:
        return None
    try:
        if len(text) == 10:
            day = datetime.fromisoformat(text)
            return day.replace(hour=23, minute=59, second=59, tzinfo=UTC)
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidPayload("as_of: not a date (YYYY-MM-DD)", field="as_of") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _lineage(fact: Fact, by_id: dict[str, Fact]) -> list[Fact]:
    """The versions a fact superseded, following ``supersedes_id`` (cycle-safe)."""
    chain: list[Fact] = []
    seen = {fact.id}
    at = fact.supersedes_id
    while at and at in by_id and at not in seen:
        seen.add(at)
        chain.append(by_id[at])
        at = by_id[at].supersedes_id
    return chain


def _sort_key(f: Fact) -> tuple[str, str, str]:
    return (f.predicate, str(f.valid_from or f.recorded_from or ""), f.id)


async def facts_view(client: AsyncHakiClient, subject_id: str, as_of_text: str) -> FactsView:
    every = (await client.facts(subject_id=subject_id, limit=500)).facts
    by_id = {f.id: f for f in every}
    events = {e.id: e for e in (await client.timeline(subject_id, limit=500)).events}
    in_lineage: set[str] = set()
    current = []
    for f in sorted((f for f in every if f.status in CURRENT), key=_sort_key):
        chain = _lineage(f, by_id)
        in_lineage.update(c.id for c in chain)
        # Past values of the same predicate that are not in the chain are
        # history too (a supersession by a newer statement, not a correction).
        others = [
            o
            for o in every
            if o.predicate == f.predicate
            and o.id != f.id
            and o.id not in in_lineage
            and o.status not in CURRENT
        ]
        history = chain + sorted(others, key=_sort_key, reverse=True)
        in_lineage.update(o.id for o in others)
        sources = [events[i] for i in f.source_event_ids if i in events]
        current.append(FactLine(f, history, sources))
    retired = sorted(
        (f for f in every if f.status not in CURRENT and f.id not in in_lineage), key=_sort_key
    )
    as_of = parse_day(as_of_text)
    then: list[ThenLine] = []
    if as_of is not None:
        listed = (await client.facts(subject_id=subject_id, as_of=as_of, limit=500)).facts
        then = [status_as_of(f, as_of) for f in listed]
    return FactsView(current, retired, as_of, then)


@dataclass(frozen=True, slots=True)
class DecisionLine:
    decision: Decision
    text: str


@dataclass(frozen=True, slots=True)
class TraceView:
    trace: Trace
    decisions: list[DecisionLine]


def fact_text(predicate: str, value: Any) -> str:
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"{predicate}: {shown}"


async def trace_view(client: AsyncHakiClient, subject_id: str, trace_id: str) -> TraceView:
    """The trace, each decision with the text of its item: served items from the
    packet, facts left out from the subject's facts."""
    trace = await client.inspect(trace_id, subject_id=subject_id)
    texts: dict[str, str] = {}
    for f in trace.packet.facts:
        texts[f.id] = f.text or fact_text(f.predicate, f.value)
    for e in trace.packet.episodes:
        texts[e.id] = e.text or e.excerpt
    if any(d.id not in texts for d in trace.decisions):
        for known in (await client.facts(subject_id=subject_id, limit=500)).facts:
            texts.setdefault(known.id, fact_text(known.predicate, known.value))
    lines = [DecisionLine(d, texts.get(d.id, "")) for d in trace.decisions]
    groups: dict[str, list[DecisionLine]] = defaultdict(list)
    for line in lines:
        groups[line.decision.action].append(line)
    ordered = [line for action in sorted(groups) for line in groups[action]]
    return TraceView(trace, ordered)
